/**
 * Deterministic synthetic reference inventory: realistic-looking hotels in real cities, streamed
 * one at a time so that millions can be produced without holding them in memory.
 *
 * Determinism: the same seed always yields the same sequence, and hotel number i is the same
 * whatever `count` is (a longer run only appends hotels).
 */
import type { ReferenceHotel } from '../../shared/reference';
import {
  AREA_WORDS,
  BRANDS,
  STREET_STYLES,
  SUPPLIERS,
  independentNameWords,
  streetNamesFor,
  type Brand,
  type SupplierFormat,
} from './hotel-name-data';
import { SeededRandom, WeightedTable, mix32 } from './prng';
import { CITIES, type City } from './world-data';

export interface GenerateReferenceHotelsOptions {
  count: number;
  seed: number;
}

/** Share of hotels belonging to a chain or brand. */
const BRANDED_SHARE = 0.45;
const MISSING_COORDINATES_SHARE = 0.03;
const MISSING_RATING_SHARE = 0.07;
const KM_PER_DEGREE = 111.32;
const CREATED_FROM_MS = Date.UTC(2016, 0, 1);
const CREATED_TO_MS = Date.UTC(2026, 0, 1);
/** Odd and not a multiple of 5, so multiplying by it permutes 0..10^digits-1 (unique supplier ids). */
const SUPPLIER_ID_MULTIPLIER = 6364137;

const cityTable = new WeightedTable(CITIES, (city) => city.weight);
const brandTable = new WeightedTable(BRANDS, (brand) => brand.weight);
/** Picks an index into SUPPLIERS. */
const supplierTable = new WeightedTable(
  SUPPLIERS.map((_, i) => i),
  (i) => (SUPPLIERS[i] as SupplierFormat).weight,
);
/** Independent hotels' stars: mostly 3 and 4. */
const independentStarsTable = new WeightedTable([1, 2, 3, 4, 5], (stars) => [5, 15, 40, 30, 10][stars - 1] as number);
const supplierCountTable = new WeightedTable([2, 3, 4], (count) => ({ 2: 45, 3: 35, 4: 20 })[count] as number);

export function* generateReferenceHotels({ count, seed }: GenerateReferenceHotelsOptions): Generator<ReferenceHotel> {
  // Separate streams keep ids stable even if the attribute recipe changes.
  const attributes = new SeededRandom(seed, 0);
  const ids = new SeededRandom(seed, 1);
  const supplierIds = new SupplierIdAllocator(seed);

  for (let i = 0; i < count; i++) {
    const city = cityTable.pick(attributes);
    const brand = attributes.chance(BRANDED_SHARE) ? brandTable.pick(attributes) : undefined;
    const hotel: ReferenceHotel = {
      id: uuidV4(ids),
      name: brand ? brandedName(attributes, brand, city) : independentName(attributes, city),
      address: streetAddress(attributes, city),
      city: city.name,
      region: city.region,
      country: city.country.name,
      countryCode: city.country.code,
      supplierCodes: supplierIds.codesFor(attributes),
    };
    const postalCode = fillPattern(attributes, city.country.postalPattern);
    if (postalCode) hotel.postalCode = postalCode;
    if (!attributes.chance(MISSING_COORDINATES_SHARE)) scatterAroundCentre(attributes, city, hotel);
    if (!attributes.chance(MISSING_RATING_SHARE))
      hotel.rating = brand ? attributes.int(brand.minStars, brand.maxStars) : independentStarsTable.pick(attributes);
    if (brand) hotel.chain = brand.name;
    hotel.createdAt = new Date(
      CREATED_FROM_MS + Math.floor((attributes.float() * (CREATED_TO_MS - CREATED_FROM_MS)) / 1000) * 1000,
    ).toISOString();
    yield hotel;
  }
}

const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Eight hex digits (faster than Number#toString(16) with padding, which dominated generation). */
function hex32(value: number): string {
  return (
    (HEX_BYTES[value >>> 24] as string) +
    (HEX_BYTES[(value >>> 16) & 0xff] as string) +
    (HEX_BYTES[(value >>> 8) & 0xff] as string) +
    (HEX_BYTES[value & 0xff] as string)
  );
}

/** A UUID version 4 string drawn from the random source. */
function uuidV4(random: SeededRandom): string {
  const hex = hex32;
  const a = hex(random.next());
  const b = hex((random.next() & 0xffff0fff) | 0x00004000);
  const c = hex((random.next() & 0x3fffffff) | 0x80000000);
  const d = hex(random.next());
  return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
}

function brandedName(random: SeededRandom, brand: Brand, city: City): string {
  const roll = random.float();
  if (roll < 0.25) return `${brand.name} ${city.name}`;
  if (roll < 0.85) return `${brand.name} ${city.name} ${random.pick(AREA_WORDS)}`;
  return `${brand.name} ${random.pick(AREA_WORDS)} ${city.name}`;
}

/** Name patterns split once into literal text and {slot} names (odd positions are slots). */
const patternParts = new Map<string, string[]>();

function splitPattern(pattern: string): string[] {
  let parts = patternParts.get(pattern);
  if (!parts) {
    parts = pattern.split(/\{(\w+)\}/);
    patternParts.set(pattern, parts);
  }
  return parts;
}

function independentName(random: SeededRandom, city: City): string {
  // A fifth of independent hotels abroad carry English names, as many resorts and hostels do.
  const language = random.chance(0.2) ? 'en' : city.country.language;
  const words = independentNameWords(language);
  const parts = splitPattern(random.pick(words.patterns));
  let name = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (i % 2 === 0) name += part;
    else if (part === 'adj') name += random.pick(words.adjectives);
    else if (part === 'noun') name += random.pick(words.nouns);
    else if (part === 'person') name += random.pick(words.persons);
    else name += city.name;
  }
  return name;
}

function streetAddress(random: SeededRandom, city: City): string {
  const style = STREET_STYLES[city.country.addressStyle];
  // Low house numbers are far more common than high ones.
  const houseNumber =
    city.country.addressStyle === 'jp'
      ? `${random.int(1, 9)}-${random.int(1, 30)}-${random.int(1, 20)}`
      : String(1 + Math.floor(random.float() ** 2 * 240));
  return style.format
    .replace('{n}', houseNumber)
    .replace('{s}', random.pick(streetNamesFor(city.country.code, style)))
    .replace('{t}', random.pick(style.types))
    .trim();
}

/** Fills '#' with digits and 'A' with capital letters; '' stays '' (no postal codes there). */
function fillPattern(random: SeededRandom, pattern: string): string {
  let result = '';
  for (const symbol of pattern) {
    if (symbol === '#') result += String(random.int(0, 9));
    else if (symbol === 'A') result += String.fromCharCode(65 + random.int(0, 25));
    else result += symbol;
  }
  return result;
}

/** Sets a point around the city centre: a 2-D normal spread, wider for bigger cities. */
function scatterAroundCentre(random: SeededRandom, city: City, hotel: ReferenceHotel): void {
  const spreadKm = 1 + 3 * Math.sqrt(city.weight / 100);
  const distanceKm = Math.min(spreadKm * Math.sqrt(-2 * Math.log(1 - random.float())), 5 * spreadKm);
  const bearing = random.float() * 2 * Math.PI;
  const lat = city.lat + (distanceKm * Math.cos(bearing)) / KM_PER_DEGREE;
  const lon = city.lon + (distanceKm * Math.sin(bearing)) / (KM_PER_DEGREE * Math.cos((city.lat * Math.PI) / 180));
  hotel.lat = roundTo6(lat);
  hotel.lon = roundTo6(lon);
}

function roundTo6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * Gives each hotel 2 to 4 supplier codes. Ids are a per-supplier counter pushed through a fixed
 * permutation of 0..10^digits-1, so they look random yet never repeat within a supplier.
 */
class SupplierIdAllocator {
  private readonly counters = new Float64Array(SUPPLIERS.length);
  private readonly offsets: number[];

  constructor(seed: number) {
    this.offsets = SUPPLIERS.map((supplier, i) => mix32(seed * 31 + i) % 10 ** supplier.digits);
  }

  codesFor(random: SeededRandom): Record<string, string> {
    const wanted = supplierCountTable.pick(random);
    const chosen: number[] = [];
    while (chosen.length < wanted) {
      const supplierIndex = supplierTable.pick(random);
      if (!chosen.includes(supplierIndex)) chosen.push(supplierIndex);
    }
    const codes: Record<string, string> = {};
    for (const supplierIndex of chosen) {
      const supplier = SUPPLIERS[supplierIndex] as SupplierFormat;
      codes[supplier.code] = this.nextId(supplierIndex, supplier);
    }
    return codes;
  }

  private nextId(supplierIndex: number, supplier: SupplierFormat): string {
    const modulus = 10 ** supplier.digits;
    const counter = this.counters[supplierIndex] as number;
    if (counter >= modulus) throw new Error(`Too many hotels for unique ${supplier.code} ids`);
    this.counters[supplierIndex] = counter + 1;
    // counter * multiplier stays below 2^53 for every counter < 10^8.
    const permuted = (((counter * SUPPLIER_ID_MULTIPLIER) % modulus) + (this.offsets[supplierIndex] as number)) % modulus;
    return supplier.prefix + permuted;
  }
}
