/**
 * What a result carries of its reference hotel beyond the id and name (ReferenceHotelFacts): its
 * place and its supplier codes, taken from the publication mapped against (the index, or a hotel's
 * record), and which of the codes a partner is shown: those of the suppliers the organization is
 * connected to when it reads, so a supplier disconnected later no longer appears. Supplier codes
 * compare case-insensitively (supplierKey), and are kept upper-case.
 */
import { toCountryCode } from './countries';
import type { ReferenceHotel } from './hotels';
import type { MatchingIndex } from './matching-index';
import type { ReferenceHotelFacts } from './types';

/** A reference hotel's place and supplier codes, as a result carries them (fields left out when unknown or none). */
export function referenceFacts(index: MatchingIndex, hotel: number): ReferenceHotelFacts {
  const { city, countryCode } = index.placeOf(hotel);
  return factsOf(city, countryCode, index.supplierCodesOf(hotel));
}

/** The same facts from a reference hotel's record (a decision's hotel, a publication's changes), as the index gives them. */
export function referenceFactsOfRecord(
  hotel: Pick<ReferenceHotel, 'city' | 'country' | 'countryCode' | 'supplierCodes'>,
): ReferenceHotelFacts {
  const city = hotel.city?.trim() || undefined;
  const countryCode = toCountryCode(hotel.countryCode) ?? toCountryCode(hotel.country);
  const supplierCodes = Object.fromEntries(
    Object.entries(hotel.supplierCodes ?? {})
      .map(([supplier, id]) => [supplier.trim().toUpperCase(), id.trim()] as const)
      .filter(([supplier, id]) => supplier !== '' && id !== ''),
  );
  return factsOf(city, countryCode, supplierCodes);
}

function factsOf(city: string | undefined, countryCode: string | undefined, supplierCodes: Record<string, string>): ReferenceHotelFacts {
  return {
    ...(city !== undefined && { referenceHotelCity: city }),
    ...(countryCode !== undefined && { referenceHotelCountryCode: countryCode }),
    ...(Object.keys(supplierCodes).length > 0 && { supplierCodes }),
  };
}

/** The facts `from` holds, and no other field of it. */
export function referenceFactsIn(from: ReferenceHotelFacts): ReferenceHotelFacts {
  return factsOf(from.referenceHotelCity, from.referenceHotelCountryCode, from.supplierCodes ?? {});
}

/** Whether two hold the same facts (supplier codes in any order). */
export function sameReferenceFacts(a: ReferenceHotelFacts, b: ReferenceHotelFacts): boolean {
  const codes = (facts: ReferenceHotelFacts) =>
    JSON.stringify(Object.entries(facts.supplierCodes ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  return (
    a.referenceHotelCity === b.referenceHotelCity && a.referenceHotelCountryCode === b.referenceHotelCountryCode && codes(a) === codes(b)
  );
}

/** `held` with the facts of another hotel: none of its own kept. */
export function withReferenceFacts<T extends ReferenceHotelFacts>(held: T, facts: ReferenceHotelFacts): T {
  const { referenceHotelCity: _city, referenceHotelCountryCode: _country, supplierCodes: _codes, ...rest } = held;
  return { ...rest, ...referenceFactsIn(facts) } as T;
}

/** The codes at the `connected` suppliers (their codes, in that order); an empty object when none. */
export function supplierCodesShown(
  codes: Readonly<Record<string, string>> | undefined,
  connected: readonly string[],
): Record<string, string> {
  const shown: Record<string, string> = {};
  if (!codes) return shown;
  for (const supplier of connected) {
    const code = codes[supplier.toUpperCase()];
    if (code !== undefined) shown[supplier.toUpperCase()] = code;
  }
  return shown;
}

/**
 * The facts as partners read them: the place as held (null when unknown), the codes of the
 * `connected` suppliers only (an empty object when none).
 */
export function referenceFactsShown(facts: ReferenceHotelFacts, connected: readonly string[]) {
  return {
    referenceHotelCity: facts.referenceHotelCity ?? null,
    referenceHotelCountryCode: facts.referenceHotelCountryCode ?? null,
    supplierCodes: supplierCodesShown(facts.supplierCodes, connected),
  };
}

/** Whether the hotel has a code at any of `suppliers`. */
export function hasCodeAtAny(codes: Readonly<Record<string, string>> | undefined, suppliers: readonly string[]): boolean {
  return codes !== undefined && suppliers.some((supplier) => codes[supplier.toUpperCase()] !== undefined);
}
