/**
 * Turns reference hotels into partner rows the way real supplier feeds differ from each other:
 * typos, dropped or reordered words, abbreviations, transliterations, chain prefixes, reformatted
 * addresses, coordinates drifting up to 300 m or missing, countries as codes or names. Also makes
 * look-alike reference hotels (same chain, a few hundred metres away) to test disambiguation.
 * Deterministic for a given seed.
 */
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import type { PartnerHotel } from '../../shared/mapping';

/** Small deterministic PRNG (mulberry32). */
export class BenchRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.next() * values.length)]!;
  }
}

const ABBREVIATIONS: Record<string, string> = {
  International: 'Intl',
  Saint: 'St.',
  Sainte: 'Ste',
  Centre: 'Ctr',
  Center: 'Ctr',
  Hotel: 'Htl',
  Apartments: 'Apts',
  Mount: 'Mt',
  Airport: 'Arpt',
  Station: 'Stn',
  Suites: 'Ste',
  Boulevard: 'Blvd',
  Street: 'St',
  Avenue: 'Ave',
  Road: 'Rd',
  Square: 'Sq',
  University: 'Univ',
  Gardens: 'Gdns',
  Convention: 'Conv.',
  Exhibition: 'Exhib.',
  Business: 'Bus.',
  Financial: 'Fin.',
  District: 'Dist.',
};

const TRANSLITERATIONS: [RegExp, string][] = [
  [/ä/g, 'ae'],
  [/ö/g, 'oe'],
  [/ü/g, 'ue'],
  [/Ä/g, 'Ae'],
  [/Ö/g, 'Oe'],
  [/Ü/g, 'Ue'],
  [/ß/g, 'ss'],
  [/æ/g, 'ae'],
  [/ø/g, 'o'],
];

/**
 * The parent group partners put in front of a chain's hotel name ("Accor Ibis Lyon"): the chain's
 * own group, never a competitor's (no feed writes "Hyatt Hilton Prague").
 */
const PARENT_GROUPS: [RegExp, string][] = [
  [/Hilton|Conrad|Waldorf/, 'Hilton'],
  [/Marriott|Courtyard|Residence Inn|Fairfield|Sheraton|Westin|Méridien|Renaissance|Four Points|Ritz-Carlton/, 'Marriott'],
  [/Holiday Inn|Crowne Plaza|InterContinental|Indigo|Kimpton/, 'IHG'],
  [/Ibis|Novotel|Mercure|Pullman|Sofitel|Swissôtel|Fairmont|Mövenpick|Adina/, 'Accor'],
  [/Radisson/, 'Radisson Hotels'],
  [/Hyatt/, 'Hyatt'],
  [/Wyndham|Ramada|Tryp|Days Inn|Super 8|La Quinta/, 'Wyndham'],
];

function parentGroup(chain: string): string | undefined {
  for (const [pattern, group] of PARENT_GROUPS) if (pattern.test(chain)) return group;
  return undefined;
}

function typo(random: BenchRandom, word: string): string {
  if (word.length < 4) return word;
  const at = random.int(1, word.length - 2);
  switch (random.int(0, 3)) {
    case 0: // swap two neighbours
      return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    case 1: // drop a letter
      return word.slice(0, at) + word.slice(at + 1);
    case 2: // double a letter
      return word.slice(0, at) + word[at] + word.slice(at);
    default: // wrong letter
      return word.slice(0, at) + String.fromCharCode(97 + random.int(0, 25)) + word.slice(at + 1);
  }
}

/** Words that say what kind of place it is; hotel names often lose or gain them. */
const TYPE_WORDS = new Set([
  'hotel',
  'hotels',
  'hôtel',
  'inn',
  'suites',
  'suite',
  'resort',
  'spa',
  'boutique',
  'lodge',
  'hostel',
  'house',
  'apartments',
  'residence',
  'motel',
  'b&b',
]);
/** Articles, prepositions and conjunctions: a name does not end with one. */
const FUNCTION_WORDS = new Set([
  'the',
  'a',
  'an',
  'of',
  'at',
  'on',
  'by',
  'and',
  '&',
  'le',
  'la',
  'les',
  "l'",
  'de',
  'du',
  'des',
  'del',
  'della',
  'di',
  'da',
  'do',
  'das',
  'dos',
  'el',
  'los',
  'las',
  'am',
  'im',
  'zum',
  'zur',
  'der',
  'die',
  'van',
  'von',
  'y',
  'et',
  'e',
  'und',
  'au',
  'aux',
]);

/** Positions (never 0) whose word a partner feed might leave out of this name. */
function droppableWords(words: readonly string[]): number[] {
  const lower = words.map((word) => word.toLowerCase());
  const distinctive = lower.filter((word) => !TYPE_WORDS.has(word) && !FUNCTION_WORDS.has(word)).length;
  const positions: number[] = [];
  for (let at = 1; at < words.length; at++) {
    const word = lower[at]!;
    if (!TYPE_WORDS.has(word) && !FUNCTION_WORDS.has(word) && distinctive < 2) continue;
    const last = at === words.length - 1 ? lower[at - 1]! : lower[words.length - 1]!;
    if (FUNCTION_WORDS.has(last)) continue;
    positions.push(at);
  }
  return positions;
}

function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** One to three kinds of damage to a hotel name. */
export function damageName(random: BenchRandom, name: string, chain: string | undefined): string {
  let words = name.split(' ');
  const damages = random.int(1, 3);
  for (let d = 0; d < damages; d++) {
    switch (random.int(0, 7)) {
      case 0: {
        const at = random.int(0, words.length - 1);
        words[at] = typo(random, words[at]!);
        break;
      }
      case 1: {
        // Drop a word the way feeds shorten names: a type word ("Hotel", "Boutique") or one of
        // several distinctive words, never the first word, never the name's only distinctive
        // word, never leaving a dangling article ("Auberge du", "Hotel Boutique Las").
        const droppable = droppableWords(words);
        if (words.length > 2 && droppable.length > 0) words.splice(random.pick(droppable), 1);
        break;
      }
      case 2: // move the first word to the end ("Paris Ibis Centre")
        if (words.length > 2) words = [...words.slice(1), words[0]!];
        break;
      case 3:
        words = words.map((word) => ABBREVIATIONS[word] ?? word);
        break;
      case 4: {
        let text = words.join(' ');
        for (const [pattern, replacement] of TRANSLITERATIONS) text = text.replace(pattern, replacement);
        words = stripAccents(text).split(' ');
        break;
      }
      case 5:
        if (chain && parentGroup(chain) && !name.startsWith(parentGroup(chain)!)) words = [parentGroup(chain)!, ...words];
        else if (!words.includes('Hotel')) words = random.chance(0.5) ? ['Hotel', ...words] : [...words, 'Hotel'];
        break;
      case 6:
        words = random.chance(0.5) ? words.map((word) => word.toUpperCase()) : words.map((word) => word.toLowerCase());
        break;
      default:
        words = words.map((word) => (word === '&' ? 'and' : word === 'and' ? '&' : word.replace(/-/g, ' ')));
    }
  }
  return words.join(' ');
}

function damageAddress(random: BenchRandom, address: string): string {
  let words = address.split(' ');
  if (random.chance(0.4)) words = words.map((word) => ABBREVIATIONS[word] ?? word);
  if (random.chance(0.2)) {
    // "12 Main Street" -> "Main Street 12" (or back): number position varies by locale.
    const numberAt = words.findIndex((word) => /^\d/.test(word));
    if (numberAt >= 0) {
      const [number] = words.splice(numberAt, 1);
      words = numberAt === 0 ? [...words, number!] : [number!, ...words];
    }
  }
  if (random.chance(0.1)) {
    const at = random.int(0, words.length - 1);
    words[at] = typo(random, words[at]!);
  }
  const text = words.join(' ').replace(/,/g, random.chance(0.5) ? ',' : '');
  return random.chance(0.3) ? stripAccents(text) : text;
}

const METERS_PER_DEGREE = 111_320;

/** Moves a point by `meters` in a random direction. */
export function offsetPoint(random: BenchRandom, lat: number, lon: number, meters: number): { lat: number; lon: number } {
  const bearing = random.next() * 2 * Math.PI;
  return {
    lat: lat + (meters * Math.cos(bearing)) / METERS_PER_DEGREE,
    lon: lon + (meters * Math.sin(bearing)) / (METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180)),
  };
}

export interface PartnerDamageRates {
  missingCoordinates: number;
  missingAddress: number;
  missingPostalCode: number;
  missingRating: number;
  maxDriftMeters: number;
}

export const DEFAULT_DAMAGE: PartnerDamageRates = {
  missingCoordinates: 0.15,
  missingAddress: 0.2,
  missingPostalCode: 0.3,
  missingRating: 0.3,
  maxDriftMeters: 300,
};

/** A partner's row for a hotel: same hotel, written the way another supplier would. */
export function damagedPartnerRow(
  random: BenchRandom,
  hotel: ReferenceHotel,
  partnerId: string,
  rates: PartnerDamageRates = DEFAULT_DAMAGE,
): PartnerHotel {
  const row: PartnerHotel = { id: partnerId, name: damageName(random, hotel.name, hotel.chain) };
  if (hotel.address && !random.chance(rates.missingAddress)) row.address = damageAddress(random, hotel.address);
  if (hotel.city && !random.chance(0.05)) row.city = random.chance(0.2) ? stripAccents(hotel.city) : hotel.city;
  if (hotel.postalCode && !random.chance(rates.missingPostalCode)) {
    row.postalCode = random.chance(0.3) ? hotel.postalCode.replace(/[\s-]/g, '') : hotel.postalCode;
  }
  const countryForms = [hotel.country, hotel.countryCode, hotel.countryCode?.toLowerCase()].filter((form) => form !== undefined);
  if (countryForms.length > 0) row.country = random.pick(countryForms);
  if (hotel.lat !== undefined && hotel.lon !== undefined && !random.chance(rates.missingCoordinates)) {
    // Most pins are close; some drift to the maximum.
    const point = offsetPoint(random, hotel.lat, hotel.lon, rates.maxDriftMeters * Math.sqrt(random.next()));
    row.lat = Math.round(point.lat * 1e6) / 1e6;
    row.lon = Math.round(point.lon * 1e6) / 1e6;
  }
  if (hotel.rating !== undefined && !random.chance(rates.missingRating)) {
    row.rating = random.chance(0.1) ? Math.max(1, Math.min(5, hotel.rating + (random.chance(0.5) ? 1 : -1))) : hotel.rating;
  }
  const supplierCodes = Object.entries(hotel.supplierCodes);
  if (supplierCodes.length > 0) {
    const [supplierCode, supplierHotelId] = random.pick(supplierCodes);
    row.supplierCode = supplierCode;
    row.supplierHotelId = supplierHotelId;
  }
  return row;
}

const AREA_SWAPS = ['North', 'South', 'East', 'West', 'Airport', 'Central Station', 'Old Town', 'Riverside', 'Downtown'];

/**
 * A different hotel of the same chain 100-400 m away, named like the original but for its area
 * ("Ibis Lyon North" beside "Ibis Lyon South"), with its own address and postcode.
 */
export function lookAlikeHotel(random: BenchRandom, hotel: ReferenceHotel, id: string): ReferenceHotel {
  const words = hotel.name.split(' ');
  const replaced = random.pick(AREA_SWAPS.filter((area) => !hotel.name.includes(area)));
  const name = words.length > 2 ? [...words.slice(0, -1), replaced].join(' ') : `${hotel.name} ${replaced}`;
  const lookAlike: ReferenceHotel = { ...hotel, id, name, supplierCodes: {} };
  if (hotel.lat !== undefined && hotel.lon !== undefined) {
    const point = offsetPoint(random, hotel.lat, hotel.lon, random.int(100, 400));
    lookAlike.lat = Math.round(point.lat * 1e6) / 1e6;
    lookAlike.lon = Math.round(point.lon * 1e6) / 1e6;
  }
  if (hotel.address) lookAlike.address = hotel.address.replace(/\d+/, String(random.int(1, 240)));
  if (hotel.postalCode) lookAlike.postalCode = hotel.postalCode.replace(/\d/g, () => String(random.int(0, 9)));
  return lookAlike;
}
