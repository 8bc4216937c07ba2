/**
 * Text normalisation for matching: the platform fold (`foldWords` in shared/platform/text.ts:
 * script, accents, case, punctuation, "&" = "and", b&b), then field-specific token
 * canonicalisation for names and addresses, so that spelling variants a supplier would consider
 * "the same" compare as equal tokens.
 */
import { foldText, foldWords } from '../platform/text';

// Words that differ only by spelling, language or abbreviation map to one canonical token.
// Kept to variants that are unambiguous inside a hotel or place name.
const NAME_CANONICAL: Record<string, string> = {
  hotels: 'hotel',
  hotell: 'hotel',
  hotelli: 'hotel',
  hotele: 'hotel',
  htl: 'hotel',
  otel: 'hotel',
  hostal: 'hostel',
  hostels: 'hostel',
  inns: 'inn',
  resorts: 'resort',
  rsrt: 'resort',
  suites: 'suite',
  apartments: 'apartment',
  apartment: 'apartment',
  apts: 'apartment',
  apt: 'apartment',
  appartements: 'apartment',
  appartement: 'apartment',
  apartamentos: 'apartment',
  apartamento: 'apartment',
  apartmani: 'apartment',
  residences: 'residence',
  residencia: 'residence',
  residenz: 'residence',
  lodges: 'lodge',
  villas: 'villa',
  motels: 'motel',
  guesthouses: 'guesthouse',
  pension: 'guesthouse',
  pensione: 'guesthouse',
  gasthaus: 'guesthouse',
  gasthof: 'guesthouse',
  intl: 'international',
  internacional: 'international',
  internationale: 'international',
  ctr: 'center',
  cntr: 'center',
  centre: 'center',
  centro: 'center',
  zentrum: 'center',
  st: 'saint',
  ste: 'sainte',
  sta: 'santa',
  sto: 'santo',
  mt: 'mount',
  mtn: 'mountain',
  ft: 'fort',
  univ: 'university',
  natl: 'national',
  gdn: 'garden',
  gdns: 'gardens',
  hts: 'heights',
  stn: 'station',
  arpt: 'airport',
  aeropuerto: 'airport',
  aeroport: 'airport',
  flughafen: 'airport',
  aeroporto: 'airport',
  sq: 'square',
  plz: 'plaza',
  pk: 'park',
  blk: 'block',
  bldg: 'building',
  twr: 'tower',
  bch: 'beach',
  vlg: 'village',
  grp: 'group',
  ave: 'avenue',
  rd: 'road',
  '1st': '1',
  first: '1',
  '2nd': '2',
  second: '2',
  '3rd': '3',
  third: '3',
  '4th': '4',
  fourth: '4',
  '5th': '5',
  fifth: '5',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  ii: '2',
  iii: '3',
};

// Articles, prepositions and conjunctions in the languages hotel names are usually written in.
const STOP_WORDS = new Set([
  'the',
  'a',
  'an',
  'and',
  'of',
  'at',
  'by',
  'in',
  'on',
  'for',
  'to',
  'de',
  'del',
  'della',
  'delle',
  'dei',
  'di',
  'da',
  'do',
  'dos',
  'das',
  'des',
  'du',
  'la',
  'le',
  'les',
  'el',
  'los',
  'las',
  'il',
  'lo',
  'l',
  'd',
  'y',
  'et',
  'e',
  'und',
  'am',
  'im',
  'zum',
  'zur',
  'der',
  'die',
  'van',
  'von',
  'het',
  'op',
  'aan',
  'au',
  'aux',
  'en',
]);

// Words that say what kind of place it is rather than which one: they count little in a name.
const GENERIC_WORDS = new Set([
  'hotel',
  'inn',
  'resort',
  'spa',
  'suite',
  'apartment',
  'hostel',
  'motel',
  'lodge',
  'guesthouse',
  'residence',
  'bnb',
  'boutique',
  'villa',
  'rooms',
  'room',
  'house',
  'homestay',
  'aparthotel',
  'condo',
  'condominium',
  'accommodation',
  'accommodations',
  'property',
  'collection',
  'by',
  'group',
  'ltd',
  'pte',
  'llc',
  'inc',
  'gmbh',
]);

export type TokenKind = 'distinctive' | 'generic' | 'stop' | 'number';

export function isNumberToken(token: string): boolean {
  const first = token.charCodeAt(0);
  return first >= 48 && first <= 57;
}

export function tokenKind(token: string): TokenKind {
  if (STOP_WORDS.has(token)) return 'stop';
  if (GENERIC_WORDS.has(token)) return 'generic';
  if (isNumberToken(token)) return 'number';
  return 'distinctive';
}

/** Canonical name tokens, in order, duplicates removed. */
export function nameTokens(name: string): string[] {
  return nameParts(name).tokens;
}

/** Bits of a name's tokens a mask can mark (token k is bit k). */
const MASKED_NAME_WORDS = 31;

export interface NameParts {
  /** Canonical tokens, in order, duplicates removed. */
  tokens: string[];
  /**
   * Bit k set: token k names where the place is rather than which place it is: the words after
   * "@", " at " or " | ", or in parentheses ("Gym @ Club X", "Bus Stop 11141 (Queenstown Station)").
   */
  qualifierMask: number;
}

// Where a name's qualifier starts: "@", "(", " | " or the word "at" after at least one word.
const QUALIFIER_START = /@|\(|\s\|\s|(?<=\S)\s+at\s+(?=\S)/i;

/** A name's tokens and which of them are a qualifier (see NameParts). */
export function nameParts(name: string): NameParts {
  const found = QUALIFIER_START.exec(name);
  const head = found === null ? name : name.slice(0, found.index);
  const tokens = appendNameTokens(head, []);
  if (found === null) return { tokens, qualifierMask: 0 };
  // A name that is all qualifier ("@ Orchard", "(closed)") has no head: its words are the name.
  if (tokens.length === 0) return { tokens: appendNameTokens(name, []), qualifierMask: 0 };
  const headCount = tokens.length;
  appendNameTokens(name.slice(found.index + found[0].length), tokens);
  let qualifierMask = 0;
  for (let k = headCount; k < Math.min(tokens.length, MASKED_NAME_WORDS); k++) qualifierMask |= 1 << k;
  return { tokens, qualifierMask };
}

/** Appends the canonical tokens of `name` that `tokens` does not hold yet. */
function appendNameTokens(name: string, tokens: string[]): string[] {
  const words = foldWords(name);
  for (let i = 0; i < words.length; i++) {
    let word = words[i]!;
    // Initials written apart ("R.K.", "U S A") are one word, as when written together ("RK").
    if (isSingleLetter(word) && isSingleLetter(words[i + 1])) {
      while (isSingleLetter(words[i + 1])) word += words[++i]!;
    }
    const token = NAME_CANONICAL[word] ?? word;
    if (!tokens.includes(token)) tokens.push(token);
  }
  return tokens;
}

function isSingleLetter(word: string | undefined): boolean {
  if (word === undefined || word.length !== 1) return false;
  const code = word.charCodeAt(0);
  return code >= 97 && code <= 122;
}

const ADDRESS_CANONICAL: Record<string, string> = {
  st: 'street',
  str: 'street',
  strasse: 'street',
  straat: 'street',
  rd: 'road',
  ave: 'avenue',
  av: 'avenue',
  avda: 'avenida',
  blvd: 'boulevard',
  bd: 'boulevard',
  bvd: 'boulevard',
  dr: 'drive',
  ln: 'lane',
  hwy: 'highway',
  pkwy: 'parkway',
  sq: 'square',
  pl: 'place',
  ct: 'court',
  cres: 'crescent',
  cl: 'close',
  ter: 'terrace',
  terr: 'terrace',
  tce: 'terrace',
  pde: 'parade',
  cir: 'circle',
  jln: 'jalan',
  lor: 'lorong',
  blk: 'block',
  bldg: 'building',
  fl: 'floor',
  n: 'north',
  s: 'south',
  e: 'east',
  w: 'west',
  ne: 'northeast',
  nw: 'northwest',
  se: 'southeast',
  sw: 'southwest',
  c: 'calle',
  no: 'number',
  nr: 'number',
  num: 'number',
  // Place words inside street names ("Station Rd", "Mt Pleasant Ave").
  stn: 'station',
  ctr: 'center',
  cntr: 'center',
  centre: 'center',
  mt: 'mount',
  ft: 'fort',
  pt: 'point',
  pk: 'park',
  gdn: 'garden',
  gdns: 'gardens',
  hts: 'heights',
  sta: 'santa',
  sto: 'santo',
  ste: 'sainte',
};

// Street-type words: agreement on them says little about being the same address.
const ADDRESS_GENERIC = new Set([
  'street',
  'road',
  'avenue',
  'avenida',
  'boulevard',
  'drive',
  'lane',
  'highway',
  'parkway',
  'square',
  'place',
  'court',
  'crescent',
  'close',
  'terrace',
  'parade',
  'circle',
  'calle',
  'rue',
  'via',
  'viale',
  'piazza',
  'jalan',
  'lorong',
  'block',
  'building',
  'floor',
  'unit',
  'suite',
  'number',
  'north',
  'south',
  'east',
  'west',
  'northeast',
  'northwest',
  'southeast',
  'southwest',
  'level',
  'central',
  'upper',
  'lower',
]);

/** A word that addresses use for their parts ("Block", "Road", "North"), not one naming a place of its own. */
export function isAddressWord(word: string): boolean {
  return ADDRESS_GENERIC.has(word);
}

export interface AddressParts {
  /** Street and place words, canonical. */
  words: string[];
  /** House numbers and number ranges split into single numbers ("76-78" -> 76, 78). */
  numbers: string[];
}

// Unit and floor designators such as "#01-23" identify a shop inside a building, not the building.
const UNIT_NUMBER = /#\s*[0-9a-z]+(?:\s*-\s*[0-9a-z]+)?/gi;

/** Street words and house numbers of an address; unit numbers and street-type words dropped. */
export function addressParts(address: string): AddressParts {
  const parts: AddressParts = { words: [], numbers: [] };
  for (const word of foldWords(address.indexOf('#') >= 0 ? address.replace(UNIT_NUMBER, ' ') : address)) {
    if (isNumberToken(word)) {
      if (!parts.numbers.includes(word)) parts.numbers.push(word);
      continue;
    }
    // German compounds: "hauptstr" / "hauptstrasse" keep the distinctive part.
    const canonical = ADDRESS_CANONICAL[word] ?? stripStreetSuffix(word);
    if (canonical === '' || ADDRESS_GENERIC.has(canonical) || STOP_WORDS.has(canonical)) continue;
    if (!parts.words.includes(canonical)) parts.words.push(canonical);
  }
  return parts;
}

function stripStreetSuffix(word: string): string {
  if (word.endsWith('strasse')) return word.slice(0, -7);
  if (word.endsWith('str')) return word.slice(0, -3);
  return word;
}

/** Postal code without spaces, dashes or case, so "SW1A 1AA" equals "sw1a1aa". */
export function normalizePostalCode(raw: string | undefined): string {
  return raw === undefined ? '' : raw.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/** City for equality checks; "" when unknown. */
export function normalizeCity(raw: string | undefined): string {
  if (raw === undefined) return '';
  let folded = foldedCities.get(raw);
  if (folded === undefined) {
    folded = foldText(raw);
    // Inventories repeat a few thousand city spellings; a bounded cache keeps folding them once.
    if (foldedCities.size >= 100_000) foldedCities.clear();
    foldedCities.set(raw, folded);
  }
  return folded;
}

const foldedCities = new Map<string, string>();
