/**
 * Two hard cases of `bench:mapping`, generated with truth (issue 14), on top of the base set:
 *
 * - Dense downtown chains: 8-20 outlets of one chain inside about 1 km², nearest neighbours
 *   80-400 m apart; partner rows carry the chain name only, a pin that drifted 5-60 m (now and then
 *   about 100 m) and no address. Some rows describe an outlet missing from the reference (truth:
 *   none) and a few sit equidistant between two outlets: their truth is the outlet they came from,
 *   but REVIEW is the right answer, so they are counted apart ("equidistant"), as are the rows
 *   whose pin drifted nearer another outlet than their own (nothing in them tells the outlet).
 *   The report also prints the scenario's ceiling: the F1 of the best reader of the pin alone,
 *   one who knows how this generator drifts pins and drops outlets.
 * - Sub-places next to their parent: a place and its part ("Cashew Heights" / "Cashew Heights
 *   Gym"), a place and a neighbour named after it ("Nathan Residences" / "Nathan Road"), a place and
 *   the same business with a category tail ("Komala Vilas" / "Komala Vilas Restaurant") 20-300 m
 *   apart; partner rows name one of them, damaged as usual. Rows for a parent that is absent from
 *   the reference while its part or neighbour is present have no truth (the part must not be
 *   matched); rows for a name whose category-tailed record alone is present have that record.
 *
 * Everything here comes from its own seeded random streams and its own ids, so adding it to the
 * base set changes none of the base rows or their truth, and the rows are the same whatever the
 * size of the base set (the quick `--scenarios-only` run sees exactly the rows of the full run).
 */
import type { MappingResult, PartnerHotel, ReferenceHotel } from '../../shared/mapping';
import { AREA_WORDS, STREET_STYLES, independentNameWords, streetNamesFor } from '../../infra/synthetic/hotel-name-data';
import { mix32 } from '../../infra/synthetic/prng';
import { CITIES, type City, type NamingLanguage } from '../../infra/synthetic/world-data';
import { scoreMatches } from './mapping-metrics';
import { CHAINS, NAME_SYLLABLES, PLACE_WORDS } from './mapping-scenario-words';
import { BenchRandom, damageName, damagedPartnerRow, offsetPoint } from '../../infra/synthetic/partner-damage';

export const DENSE_CHAINS = 'dense downtown chains';
export const SUB_PLACES = 'sub-places next to their parent';
export type ScenarioName = typeof DENSE_CHAINS | typeof SUB_PLACES;

/** What a scenario partner row is; `apart` rows are left out of every F1 and reported on their own. */
export interface ScenarioRow {
  scenario: ScenarioName;
  case: string;
  apart?: boolean;
  /**
   * A chain row whose pin alone can tell the answer, allowing for typical drift: its own outlet is
   * nearer than any other by more than TYPICAL_PIN_DRIFT, or (an outlet missing from the
   * reference) no listed outlet is that near. Reported on a line of its own, still counted.
   */
  pinDecides?: boolean;
  /** A counted chain row as the best reader of its pin alone would see it (see `pinOnlyReading`). */
  pinOnly?: PinOnlyReading;
}

export interface ScenarioSet {
  reference: ReferenceHotel[];
  partners: PartnerHotel[];
  /** Partner row id -> its true reference hotel (rows that must stay unmatched are absent). */
  truth: Map<string, ReadonlySet<string>>;
  rows: Map<string, ScenarioRow>;
}

// Cases, in the order the report prints them.
export const OUTLET = 'outlet in the reference';
export const OUTLET_PIN_NEARER_ANOTHER = 'pin nearer another outlet than its own (counted apart)';
export const OUTLET_MISSING = 'outlet missing from the reference (UNMATCHED expected)';
export const EQUIDISTANT = 'equidistant (REVIEW expected)';
const PARENT = 'parent, its part beside it';
const PART = 'part, its parent beside it';
const NEIGHBOUR = 'one of two neighbours named alike (X Residences / X Road)';
const TAIL_PAIR = 'one of a name and its category-tailed namesake on another street';
export const PARENT_ABSENT = 'parent absent, its part or neighbour present (UNMATCHED expected)';
export const TAIL_ONLY = 'name absent, its category-tailed record present (that record expected)';
const APART_CASES = [EQUIDISTANT, OUTLET_PIN_NEARER_ANOTHER];
const CASE_ORDER = [OUTLET, OUTLET_MISSING, PARENT, PART, NEIGHBOUR, TAIL_PAIR, PARENT_ABSENT, TAIL_ONLY];

/** Partner rows of each scenario when the caller does not say. */
export const DEFAULT_ROWS_PER_SCENARIO = 2000;

export function scenarioSet(options: { seed: number; rowsPerScenario: number }): ScenarioSet {
  const set: Builder = { reference: [], partners: [], truth: new Map(), rows: new Map(), places: 0 };
  // One stream per scenario: changing one scenario's recipe leaves the other's rows as they were.
  denseChains(set, new BenchRandom(mix32(options.seed ^ 0x0c4a1175)), options.rowsPerScenario);
  subPlaces(set, new BenchRandom(mix32(options.seed ^ 0x5b91ace5)), options.rowsPerScenario);
  return { reference: set.reference, partners: set.partners, truth: set.truth, rows: set.rows };
}

/** The set being built, and how many reference records it has made (for their ids). */
interface Builder extends ScenarioSet {
  places: number;
}

// ---------------------------------------------------------------------------------------------
// Dense downtown chains

const OUTLETS_MIN = 8;
const OUTLETS_MAX = 20;
/** The cluster's square, in metres: about 1 km². */
const CLUSTER_SIDE = 1000;
const NEAREST_OUTLET_MIN = 80;
const NEAREST_OUTLET_MAX = 400;
/** Cluster centres fall this close to the city centre: downtown, where the base set is densest too. */
const DOWNTOWN_RADIUS = 1000;
const OUTLET_MISSING_SHARE = 0.1;
const OUTLET_LISTED_SHARE = 0.6;
const EQUIDISTANT_SHARE_OF_CLUSTERS = 0.3;

function denseChains(set: Builder, random: BenchRandom, targetRows: number): void {
  const usedChainsInCity = new Set<string>();
  let rows = 0;
  while (rows < targetRows) {
    const city = pickCity(random);
    // International chains are everywhere; local ones only in their language's cities.
    const chain = random.pick(CHAINS[random.chance(0.5) ? city.country.language : 'en']);
    // One cluster per chain and city: two overlapping clusters would break the spacing rules.
    if (usedChainsInCity.has(`${city.name}|${chain}`)) continue;
    usedChainsInCity.add(`${city.name}|${chain}`);

    const centre = offsetPoint(random, city.lat, city.lon, DOWNTOWN_RADIUS * Math.sqrt(random.next()));
    const points = spacedPoints(random, random.int(OUTLETS_MIN, OUTLETS_MAX));
    const localities = new Set<string>();
    const outlets = points.map((point) => {
      const at = metresToLatLon(centre, point);
      const outlet = place(set, 'a000', outletName(random, chain, city, localities), city, at.lat, at.lon, random);
      outlet.chain = chain;
      return { outlet, point, inReference: !random.chance(OUTLET_MISSING_SHARE) };
    });
    const present = outlets.filter((outlet) => outlet.inReference);
    for (const { outlet } of present) set.reference.push(outlet);
    const missingArea = missingOutletArea(present);

    for (const { outlet, point, inReference } of outlets) {
      if (inReference && !random.chance(OUTLET_LISTED_SHARE)) continue;
      const row = chainRow(random, chain, city, outlet, `P-CHAIN-${set.partners.length}`, pinDrift(random));
      const pin = latLonToMetres(centre, row);
      const nearest = nearestOf(present, pin);
      // A pin that drifted nearer another outlet than its own leaves nothing that tells the
      // outlet: no engine can be right there, so, like the equidistant rows, these are counted apart.
      const pinNearerAnother = inReference && distance(nearest!.point, pin) < distance(point, pin);
      const nearestOther = nearestOf(
        present.filter((other) => other.outlet !== outlet),
        pin,
      );
      const pinDecides = inReference
        ? !nearestOther || distance(nearestOther.point, pin) - distance(point, pin) > TYPICAL_PIN_DRIFT
        : !nearest || distance(nearest.point, pin) > TYPICAL_PIN_DRIFT;
      const about: ScenarioRow = pinNearerAnother
        ? { scenario: DENSE_CHAINS, case: OUTLET_PIN_NEARER_ANOTHER, apart: true }
        : {
            scenario: DENSE_CHAINS,
            case: inReference ? OUTLET : OUTLET_MISSING,
            pinDecides,
            pinOnly: pinOnlyReading(present, missingArea, pin, inReference ? outlet : undefined),
          };
      addRow(set, row, about, inReference ? outlet : undefined);
      rows += 1;
    }

    if (present.length >= 2 && random.chance(EQUIDISTANT_SHARE_OF_CLUSTERS)) {
      // Halfway between an outlet and its nearest neighbour, unless a third outlet is nearly as near.
      const from = random.pick(present);
      const other = nearestOf(
        present.filter((outlet) => outlet !== from),
        from.point,
      )!;
      const middle = { x: (from.point.x + other.point.x) / 2, y: (from.point.y + other.point.y) / 2 };
      const half = distance(from.point, middle);
      if (present.every((outlet) => outlet === from || outlet === other || distance(outlet.point, middle) > 1.5 * half)) {
        const at = metresToLatLon(centre, middle);
        const row = chainRow(
          random,
          chain,
          city,
          { ...from.outlet, lat: at.lat, lon: at.lon },
          `P-CHAIN-${set.partners.length}`,
          random.next() * 3,
        );
        addRow(set, row, { scenario: DENSE_CHAINS, case: EQUIDISTANT, apart: true }, from.outlet);
      }
    }
  }
}

/**
 * What the pin alone can tell a counted chain row, read by someone who knows how this generator
 * drifts pins, drops outlets from the reference and spaces them (no engine knows as much): the
 * chance that the row is its nearest present outlet's, and whether it is. A counted row is that
 * outlet's or a missing outlet's (rows whose pin drifted nearer another outlet are set apart), so
 * those two are weighed. Matching every row whose chance passes a cut gives the scenario's
 * ceiling, printed beside the engine's F1. No random draws: the rows stay as they are.
 */
export interface PinOnlyReading {
  nearestChance: number;
  nearestIsTruth: boolean;
}

function pinOnlyReading(
  present: readonly { outlet: ReferenceHotel; point: Point }[],
  missingArea: MissingOutletArea,
  pin: Point,
  truth: ReferenceHotel | undefined,
): PinOnlyReading {
  const nearest = nearestOf(present, pin);
  if (!nearest) return { nearestChance: 0, nearestIsTruth: false };
  // A present outlet gives a row OUTLET_LISTED_SHARE of the time, a missing one always.
  const fromNearest = OUTLET_LISTED_SHARE * pinDensity(distance(nearest.point, pin));
  const fromMissing = missingArea.expectedOutlets * missingArea.densityAround(pin);
  const total = fromNearest + fromMissing;
  return { nearestChance: total > 0 ? fromNearest / total : 0, nearestIsTruth: nearest.outlet === truth };
}

/** Pins are rounded to 6 decimals (about 0.1 m): each drift band is read this much wider on both sides. */
const ROUNDING_SLACK = 0.25;

/** Density of a pin `metres` from its outlet under `pinDrift` (uniform bearing), per square metre. */
function pinDensity(metres: number): number {
  let radial = 0;
  for (const band of DRIFT_BANDS) {
    const from = band.from - ROUNDING_SLACK;
    const to = band.to + ROUNDING_SLACK;
    if (metres >= from && metres < to) radial += band.share / (to - from);
  }
  return radial === 0 ? 0 : radial / (2 * Math.PI * metres);
}

interface MissingOutletArea {
  /** Outlets missing from the reference, expected from the present ones. */
  expectedOutlets: number;
  /**
   * Density of a missing outlet's pin at `pin`, the outlet anywhere in the cluster that the
   * spacing rule allows against the present outlets (the generator also spaces it from the other
   * missing ones, which this reader cannot see: for pins far from every present outlet the chance
   * it gives the nearest runs a little high).
   */
  densityAround(pin: Point): number;
}

const AREA_STEP = 10;

function missingOutletArea(present: readonly { point: Point }[]): MissingOutletArea {
  const allows = (at: Point) => {
    if (Math.abs(at.x) > CLUSTER_SIDE / 2 || Math.abs(at.y) > CLUSTER_SIDE / 2) return false;
    let nearest = Infinity;
    for (const outlet of present) nearest = Math.min(nearest, distance(outlet.point, at));
    return nearest >= NEAREST_OUTLET_MIN && nearest <= NEAREST_OUTLET_MAX;
  };
  let cells = 0;
  for (let x = -CLUSTER_SIDE / 2; x < CLUSTER_SIDE / 2; x += AREA_STEP)
    for (let y = -CLUSTER_SIDE / 2; y < CLUSTER_SIDE / 2; y += AREA_STEP) if (allows({ x, y })) cells += 1;
  const area = Math.max(cells, 1) * AREA_STEP * AREA_STEP;
  return {
    expectedOutlets: (present.length * OUTLET_MISSING_SHARE) / (1 - OUTLET_MISSING_SHARE),
    densityAround(pin) {
      // The drift law integrated on rings around the pin: the share of the outlet's allowed places it reaches.
      let reach = 0;
      for (const { from, to, share } of DRIFT_BANDS) {
        for (let ring = 0; ring < 8; ring++) {
          const metres = from + ((ring + 0.5) * (to - from)) / 8;
          let allowed = 0;
          for (let k = 0; k < 24; k++)
            allowed += allows({ x: pin.x + metres * Math.cos((k * Math.PI) / 12), y: pin.y + metres * Math.sin((k * Math.PI) / 12) })
              ? 1
              : 0;
          reach += (share / 8) * (allowed / 24);
        }
      }
      return reach / area;
    },
  };
}

interface Point {
  /** Metres east and north of the cluster centre. */
  x: number;
  y: number;
}

/** Up to `count` points in the square, each 80-400 m from its nearest neighbour (rejection sampling). */
function spacedPoints(random: BenchRandom, count: number): Point[] {
  const points: Point[] = [];
  for (let attempt = 0; points.length < count && attempt < 2000; attempt++) {
    const candidate = { x: (random.next() - 0.5) * CLUSTER_SIDE, y: (random.next() - 0.5) * CLUSTER_SIDE };
    const nearest = points.length === 0 ? NEAREST_OUTLET_MIN : Math.min(...points.map((point) => distance(point, candidate)));
    if (nearest >= NEAREST_OUTLET_MIN && nearest <= NEAREST_OUTLET_MAX) points.push(candidate);
  }
  return points;
}

/** The bare chain ("Starbucks Coffee") or the chain and where ("Starbucks Coffee Market Street", "Days Inn Toronto-Beach"). */
function outletName(random: BenchRandom, chain: string, city: City, localities: Set<string>): string {
  if (random.chance(0.4)) return chain;
  const locality = random.chance(0.6) ? streetName(random, city) : random.pick(AREA_WORDS);
  // Two outlets of one cluster never share a locality: they would be true twins.
  if (localities.has(locality)) return chain;
  localities.add(locality);
  return random.chance(0.85) ? `${chain} ${locality}` : `${chain} ${city.name}-${locality}`;
}

/**
 * How far pinDrift moves a pin, in metres: uniform over a band, the band chosen by its share. The
 * far band's metres are whole (80 to 120), which this range covers exactly as a continuous one.
 */
const DRIFT_BANDS = [
  { from: 5, to: 60, share: 0.9 },
  { from: 79.5, to: 120.5, share: 0.1 },
] as const;
const [TYPICAL_DRIFT, FAR_DRIFT] = DRIFT_BANDS;
/** What pinDrift gives nine times in ten at the most. */
const TYPICAL_PIN_DRIFT = TYPICAL_DRIFT.to;

/** Mostly 5-60 m; now and then about 100 m. */
function pinDrift(random: BenchRandom): number {
  return random.chance(FAR_DRIFT.share)
    ? random.int(Math.ceil(FAR_DRIFT.from), Math.floor(FAR_DRIFT.to))
    : TYPICAL_DRIFT.from + (TYPICAL_DRIFT.to - TYPICAL_DRIFT.from) * random.next();
}

/** A partner's row for an outlet: the chain name only (as feeds write it), a pin, no address. */
function chainRow(random: BenchRandom, chain: string, city: City, outlet: ReferenceHotel, id: string, driftMetres: number): PartnerHotel {
  const row: PartnerHotel = { id, name: chainSpelling(random, chain) };
  if (!random.chance(0.05)) row.city = city.name;
  row.country = random.pick([city.country.name, city.country.code]);
  const pin = offsetPoint(random, outlet.lat!, outlet.lon!, driftMetres);
  row.lat = round6(pin.lat);
  row.lon = round6(pin.lon);
  return row;
}

const GENERIC_LAST_WORD = /^(Coffee|Café|Caffè|Cafés|Kaffee|Espresso|Hotel|Hostel|Inn|Pharmacy)$/;

/** The chain's name, now and then spelled the way another feed would. */
function chainSpelling(random: BenchRandom, chain: string): string {
  if (!random.chance(0.25)) return chain;
  switch (random.int(0, 3)) {
    case 0:
      return random.chance(0.5) ? chain.toUpperCase() : chain.toLowerCase();
    case 1:
      return stripAccents(chain).replace(/'/g, '');
    case 2:
      return chain.replace(/ & /g, ' and ').replace(/-/g, ' ');
    default: {
      // "Starbucks" for "Starbucks Coffee": feeds drop a generic last word.
      const words = chain.split(' ');
      return words.length > 1 && GENERIC_LAST_WORD.test(words.at(-1)!) ? words.slice(0, -1).join(' ') : chain;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sub-places next to their parent

type PairKind = 'part' | 'neighbour' | 'tail' | 'parentAbsent' | 'tailOnly';
const PAIR_KINDS: [PairKind, number][] = [
  ['part', 0.35],
  ['neighbour', 0.15],
  ['tail', 0.15],
  ['parentAbsent', 0.25],
  ['tailOnly', 0.1],
];
const PAIR_DISTANCE_MIN = 20;
const PAIR_DISTANCE_MAX = 300;
/** Places spread over the city, not only downtown. */
const CITY_RADIUS = 4000;

function subPlaces(set: Builder, random: BenchRandom, targetRows: number): void {
  const usedBases = new Set<string>();
  let rows = 0;
  while (rows < targetRows) {
    const city = pickCity(random);
    // A fifth of places abroad carry English names, as in the base generator.
    const language: NamingLanguage = random.chance(0.2) ? 'en' : city.country.language;
    const words = PLACE_WORDS[language];
    const kind = pickWeighted(random, PAIR_KINDS);
    const tailed = kind === 'tail' || kind === 'tailOnly';
    // A category tail is the same business only when the name is the business's own ("Komala
    // Vilas"), not a place's ("Cashew Heights Restaurant" is a restaurant in the estate).
    const parentTemplate = tailed ? '{}' : random.pick(words.parentKinds);
    const base = uniqueBase(random, language, parentTemplate === '{}' ? 2 : random.chance(0.3) ? 2 : 1, usedBases);
    const parentName = fill(random, parentTemplate, base);
    const neighbour = kind === 'neighbour' || (kind === 'parentAbsent' && random.chance(0.3));
    // Numbers and letters filled once: the partner's "Tower 2" is the reference's "Tower 2".
    const otherPattern = fill(
      random,
      tailed ? random.pick(words.categoryTails) : neighbour ? random.pick(words.neighbours) : random.pick(words.parts),
      '{}',
    );
    const otherName = otherPattern.replace('{}', neighbour ? base : parentName);
    if (otherName === parentName) continue;

    const centre = offsetPoint(random, city.lat, city.lon, CITY_RADIUS * Math.sqrt(random.next()));
    const parent = place(set, 'a001', parentName, city, centre.lat, centre.lon, random);
    const near = offsetPoint(random, centre.lat, centre.lon, random.int(PAIR_DISTANCE_MIN, PAIR_DISTANCE_MAX));
    const other = place(set, 'a001', otherName, city, near.lat, near.lon, random);
    // A part often shares its parent's address or street; a tailed namesake is on another street.
    if (!neighbour && !tailed) {
      const roll = random.next();
      if (roll < 0.5) other.address = parent.address;
      else if (roll < 0.8) other.address = parent.address!.replace(/\d+/, String(random.int(1, 240)));
      if (roll < 0.8) other.postalCode = parent.postalCode;
    }
    const damageOther = (row: PartnerHotel) => {
      row.name = subPlaceSpelling(random, otherPattern, neighbour ? base : parentName);
      return row;
    };

    if (kind === 'parentAbsent' || kind === 'tailOnly') {
      set.reference.push(other);
      // tailOnly: the partner lists the business without its tail, where the tailed record is.
      const source = kind === 'tailOnly' ? { ...other, name: parentName } : parent;
      const row = placeRow(random, source, `P-SUB-${set.partners.length}`);
      addRow(
        set,
        row,
        { scenario: SUB_PLACES, case: kind === 'tailOnly' ? TAIL_ONLY : PARENT_ABSENT },
        kind === 'tailOnly' ? other : undefined,
      );
      rows += 1;
      continue;
    }
    set.reference.push(parent, other);
    // Either one is listed, now and then both.
    const roll = random.next();
    const listParent = roll < 0.4 || roll >= 0.8;
    const listOther = roll >= 0.4;
    const pairCase = (ofParent: boolean) => (kind === 'part' ? (ofParent ? PARENT : PART) : kind === 'neighbour' ? NEIGHBOUR : TAIL_PAIR);
    if (listParent) {
      addRow(set, placeRow(random, parent, `P-SUB-${set.partners.length}`), { scenario: SUB_PLACES, case: pairCase(true) }, parent);
      rows += 1;
    }
    if (listOther) {
      addRow(
        set,
        damageOther(placeRow(random, other, `P-SUB-${set.partners.length}`)),
        { scenario: SUB_PLACES, case: pairCase(false) },
        other,
      );
      rows += 1;
    }
  }
}

/** A made-up proper name (mostly) or a common one of the language, never used before in this set. */
function uniqueBase(random: BenchRandom, language: NamingLanguage, wordCount: number, used: Set<string>): string {
  for (;;) {
    const words: string[] = [];
    for (let i = 0; i < wordCount; i++) {
      if (random.chance(0.3)) {
        const common = independentNameWords(language);
        words.push(random.pick(random.chance(0.5) ? common.persons : common.nouns));
      } else {
        let word = '';
        for (let s = random.int(2, 3); s > 0; s--) word += random.pick(NAME_SYLLABLES);
        words.push(word[0]!.toUpperCase() + word.slice(1));
      }
    }
    const base = words.join(' ');
    if (!used.has(base.toLowerCase())) {
      used.add(base.toLowerCase());
      return base;
    }
  }
}

/** `{}` -> the name, `#` -> a number, `$` -> a letter: "{} Block #" -> "Cashew Heights Block 3". */
function fill(random: BenchRandom, template: string, name: string): string {
  return template
    .replace('{}', name)
    .replace('#', () => String(random.int(1, 9)))
    .replace('$', () => String.fromCharCode(65 + random.int(0, 5)));
}

/**
 * A partner row for a place, damaged as usual, except that the usual damage's "Hotel" added to
 * a name is taken back: no feed calls a park or a gym a hotel.
 */
function placeRow(random: BenchRandom, hotel: ReferenceHotel, id: string): PartnerHotel {
  const row = damagedPartnerRow(random, hotel, id);
  row.name = withoutAddedHotel(row.name, hotel.name);
  return row;
}

/**
 * A part's or neighbour's name as a feed writes it: the usual damage on the name it is built on,
 * never on its kind-of-place word (a row "Cashew Heights" made from "Cashew Heights Gym" would be
 * the parent's), which is only abbreviated, unbracketed or recased.
 */
function subPlaceSpelling(random: BenchRandom, pattern: string, builtOn: string): string {
  let kindWords = pattern;
  if (random.chance(0.2))
    kindWords = kindWords.replace(/\b(Road|Street|Station|Centre|Avenue|Block|Car Park)\b/, (word) => KIND_ABBREVIATIONS[word]!);
  if (random.chance(0.5)) kindWords = kindWords.replace(/[()]/g, '');
  let name = kindWords.replace('{}', withoutAddedHotel(damageName(random, builtOn, undefined), builtOn));
  if (random.chance(0.1)) name = random.chance(0.5) ? name.toUpperCase() : name.toLowerCase();
  return name;
}

const KIND_ABBREVIATIONS: Record<string, string> = {
  Road: 'Rd',
  Street: 'St',
  Station: 'Stn',
  Centre: 'Ctr',
  Avenue: 'Ave',
  Block: 'Blk',
  'Car Park': 'Carpark',
};

function withoutAddedHotel(damaged: string, original: string): string {
  if (/\b(hotel|hôtel)\b/i.test(original)) return damaged;
  return damaged.replace(/\s*\b(hotel|htl)\b\s*/i, ' ').trim();
}

// ---------------------------------------------------------------------------------------------
// Shared

/** Cities in proportion to their share of hotels, as in the base generator. */
const CITY_WEIGHTS_TOTAL = CITIES.reduce((sum, city) => sum + city.weight, 0);
function pickCity(random: BenchRandom): City {
  let target = random.next() * CITY_WEIGHTS_TOTAL;
  for (const city of CITIES) {
    target -= city.weight;
    if (target < 0) return city;
  }
  return CITIES[CITIES.length - 1]!;
}

function pickWeighted<T>(random: BenchRandom, choices: [T, number][]): T {
  let target = random.next();
  for (const [choice, weight] of choices) {
    target -= weight;
    if (target < 0) return choice;
  }
  return choices[choices.length - 1]![0];
}

/** A reference record with an address and postcode of the city and an id (a UUID) of its scenario's own range. */
function place(set: Builder, idVariant: string, name: string, city: City, lat: number, lon: number, random: BenchRandom): ReferenceHotel {
  const style = STREET_STYLES[city.country.addressStyle];
  const hotel: ReferenceHotel = {
    id: `00000000-0000-4000-${idVariant}-${String(set.places++).padStart(12, '0')}`,
    name,
    address: style.format
      .replace('{n}', String(random.int(1, 240)))
      .replace('{s}', random.pick(streetNamesFor(city.country.code, style)))
      .replace('{t}', random.pick(style.types))
      .trim(),
    city: city.name,
    region: city.region,
    country: city.country.name,
    countryCode: city.country.code,
    lat: round6(lat),
    lon: round6(lon),
    supplierCodes: {},
  };
  const postalCode = city.country.postalPattern.replace(/[#A]/g, (symbol) =>
    symbol === '#' ? String(random.int(0, 9)) : String.fromCharCode(65 + random.int(0, 25)),
  );
  if (postalCode) hotel.postalCode = postalCode;
  return hotel;
}

/** A street of the city without a house number: "Market Street", "Rue de la Paix", "Hauptstraße". */
function streetName(random: BenchRandom, city: City): string {
  const style = STREET_STYLES[city.country.addressStyle];
  return style.format
    .replace('{n}', '')
    .replace('{s}', random.pick(streetNamesFor(city.country.code, style)))
    .replace('{t}', random.pick(style.types))
    .replace(/,/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function addRow(set: ScenarioSet, row: PartnerHotel, about: ScenarioRow, truth: ReferenceHotel | undefined): void {
  set.partners.push(row);
  set.rows.set(row.id, about);
  if (truth) set.truth.set(row.id, new Set([truth.id]));
}

const METRES_PER_DEGREE = 111_320;

function metresToLatLon(centre: { lat: number; lon: number }, point: Point): { lat: number; lon: number } {
  return {
    lat: centre.lat + point.y / METRES_PER_DEGREE,
    lon: centre.lon + point.x / (METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180)),
  };
}

function latLonToMetres(centre: { lat: number; lon: number }, at: { lat?: number; lon?: number }): Point {
  return {
    x: (at.lon! - centre.lon) * METRES_PER_DEGREE * Math.cos((centre.lat * Math.PI) / 180),
    y: (at.lat! - centre.lat) * METRES_PER_DEGREE,
  };
}

function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function nearestOf<T extends { point: Point }>(items: readonly T[], to: Point): T | undefined {
  let best: T | undefined;
  for (const item of items) if (!best || distance(item.point, to) < distance(best.point, to)) best = item;
  return best;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

// ---------------------------------------------------------------------------------------------
// Report

/**
 * Lines for the benchmark's output: per scenario precision, recall, F1 and the share of truly
 * matching rows that ended REVIEW (for the chains also of the rows whose pin decides them), then
 * how each case came out; the equidistant rows on a line of their own.
 */
export function scenarioReport(
  results: readonly MappingResult[],
  rows: ReadonlyMap<string, ScenarioRow>,
  truth: ReadonlyMap<string, ReadonlySet<string>>,
  matchBar: number,
): string[] {
  const lines: string[] = [];
  const truthOf = (partnerId: string) => truth.get(partnerId);
  for (const scenario of [DENSE_CHAINS, SUB_PLACES] as const) {
    const counted = results.filter(
      (result) => rows.get(result.partnerHotelId)?.scenario === scenario && !rows.get(result.partnerHotelId)!.apart,
    );
    if (counted.length === 0) continue;
    lines.push(`${scenario}: ${formatMetrics(counted, truthOf)}`);
    const decided = counted.filter((result) => rows.get(result.partnerHotelId)!.pinDecides === true);
    if (decided.length > 0)
      lines.push(`    of which the pin decides them (typical drift ${TYPICAL_PIN_DRIFT} m): ${formatMetrics(decided, truthOf)}`);
    const readings = counted.flatMap((result) => rows.get(result.partnerHotelId)!.pinOnly ?? []);
    if (readings.length > 0)
      lines.push(
        `    best any engine can do from the pin alone, knowing how pins drift here: ${formatCeiling(readings, counted.filter((result) => truthOf(result.partnerHotelId)).length, matchBar)}`,
      );
    for (const rowCase of CASE_ORDER) {
      const ofCase = counted.filter((result) => rows.get(result.partnerHotelId)!.case === rowCase);
      if (ofCase.length > 0) lines.push(`    ${rowCase}: ${formatOutcomes(ofCase, truthOf)}`);
    }
  }
  for (const rowCase of APART_CASES) {
    const ofCase = results.filter((result) => rows.get(result.partnerHotelId)?.case === rowCase);
    if (ofCase.length > 0) lines.push(`${rowCase}: ${formatOutcomes(ofCase, truthOf)}`);
  }
  return lines;
}

/**
 * Precision, recall and F1 of matching every row whose nearest outlet's chance passes a cut: the
 * cut that gives the best F1, and the engine's own bar for MATCHED.
 */
function formatCeiling(readings: readonly PinOnlyReading[], labelled: number, matchBar: number): string {
  const byChance = [...readings].sort((a, b) => b.nearestChance - a.nearestChance);
  const scores = (matched: number, right: number) => {
    const precision = right / Math.max(matched, 1);
    const recall = right / labelled;
    return { precision, recall, f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0 };
  };
  let best = { ...scores(0, 0), cut: 1 };
  let atBar = scores(0, 0);
  let right = 0;
  for (const [k, reading] of byChance.entries()) {
    right += reading.nearestIsTruth ? 1 : 0;
    const here = scores(k + 1, right);
    if (here.f1 > best.f1) best = { ...here, cut: reading.nearestChance };
    if (reading.nearestChance >= matchBar) atBar = here;
  }
  const format = ({ precision, recall, f1 }: { precision: number; recall: number; f1: number }) =>
    `precision ${precision.toFixed(4)}  recall ${recall.toFixed(4)}  F1 ${f1.toFixed(4)}`;
  return `${format(best)} (matching from a chance of ${best.cut.toFixed(2)}); matching from ${matchBar}, the engine's bar: ${format(atBar)}`;
}

export function formatMetrics(results: readonly MappingResult[], truthOf: (partnerId: string) => ReadonlySet<string> | undefined): string {
  const metrics = scoreMatches(results, truthOf);
  return (
    `${results.length} rows (${metrics.labelled} with a true match): precision ${metrics.precision.toFixed(4)}  recall ${metrics.recall.toFixed(4)}  ` +
    `F1 ${metrics.f1.toFixed(4)}; truly matching rows ended REVIEW ${(100 * metrics.labelledReviewShare).toFixed(1)} %`
  );
}

function formatOutcomes(results: readonly MappingResult[], truthOf: (partnerId: string) => ReadonlySet<string> | undefined): string {
  const metrics = scoreMatches(results, truthOf);
  return (
    `${results.length} rows: MATCHED ${metrics.matched} (right ${metrics.correct}), REVIEW ${metrics.review} ` +
    `(right candidate ${metrics.reviewCorrect}), UNMATCHED ${metrics.unmatched}`
  );
}
