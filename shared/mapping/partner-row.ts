/** A partner row normalised once (name words, pin, postcode, address, city, country), then compared with many candidates. */
import type { PartnerHotel } from './hotels';
import { toCountryCode } from './countries';
import { hashText } from './columns';
import type { NameView } from './name-comparison';
import { hasUsableCoordinates, type MatchingIndex } from './matching-index';
import { nameSignatureText, SIGNATURE_WORDS, writeTrigramSignature } from './similarity';
import { addressParts, nameParts, normalizeCity, normalizePostalCode, tokenKind, type AddressParts } from './text';

/** A partner row normalised once, compared with many candidates. */
export interface PreparedPartner {
  hotel: PartnerHotel;
  name: NameView;
  /** Known token ids worth looking up in the postings: the distinctive words when there are any. */
  searchTokenIds: Int32Array;
  /** A name word no reference name has: usually a typo. */
  hasUnknownWord: boolean;
  signature: Uint32Array;
  /** NaN when absent. */
  lat: number;
  lon: number;
  countryCode: string | undefined;
  countryId: number;
  city: string;
  cityId: number;
  postalCode: string;
  address: AddressParts;
  /** address.words as the index stores them, for a cheap equality check. */
  addressWordsText: string;
  /** hashText of postalCode and of addressWordsText, compared before the strings (see the index's postalCodeHashes). */
  postalCodeHash: number;
  addressWordsHash: number;
  /** NaN when absent. */
  rating: number;
}

export function preparePartner(index: MatchingIndex, hotel: PartnerHotel): PreparedPartner {
  const { tokens: texts, qualifierMask } = nameParts(hotel.name);
  const ids = Int32Array.from(texts, (token) => index.tokenId(token));
  const weights = Float32Array.from(texts, (token, k) => index.tokenWeight(token, ids[k]!));
  const signature = new Uint32Array(SIGNATURE_WORDS);
  writeTrigramSignature(nameSignatureText(texts), signature, 0);
  const located = hasUsableCoordinates(hotel.lat, hotel.lon);
  const countryCode = toCountryCode(hotel.country);
  const city = normalizeCity(hotel.city);
  const address = addressParts(hotel.address ?? '');
  const postalCode = normalizePostalCode(hotel.postalCode);
  const addressWordsText = address.words.join(' ');
  return {
    hotel,
    name: { texts, ids, weights, count: texts.length, total: sum(weights), qualifierMask },
    searchTokenIds: searchTokenIds(texts, ids),
    hasUnknownWord: ids.includes(-1),
    signature,
    lat: located ? hotel.lat! : Number.NaN,
    lon: located ? hotel.lon! : Number.NaN,
    countryCode,
    countryId: index.countryId(countryCode),
    city,
    cityId: index.cityId(city),
    postalCode,
    address,
    addressWordsText,
    postalCodeHash: hashText(postalCode),
    addressWordsHash: hashText(addressWordsText),
    rating: hotel.rating ?? Number.NaN,
  };
}

function searchTokenIds(texts: readonly string[], ids: Int32Array): Int32Array {
  let distinctive = 0;
  let other = 0;
  for (let k = 0; k < ids.length; k++) {
    if (ids[k]! < 0) continue;
    const kind = tokenKind(texts[k]!);
    if (kind === 'distinctive' || kind === 'number') distinctive += 1;
    else other += 1;
  }
  const wanted = distinctive > 0;
  const result = new Int32Array(wanted ? distinctive : other);
  let written = 0;
  for (let k = 0; k < ids.length; k++) {
    if (ids[k]! < 0) continue;
    const kind = tokenKind(texts[k]!);
    if ((kind === 'distinctive' || kind === 'number') === wanted) result[written++] = ids[k]!;
  }
  return result;
}

function sum(values: Float32Array): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
