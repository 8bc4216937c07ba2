/**
 * The demo inventory whose job leaves a review queue worth working (`npm start` maps it at its
 * first start): hotels of the demo reference as another supplier writes them. Most are written
 * plainly and match; some carry the doubts real feeds carry, and some are hotels the reference
 * does not hold. Deterministic: the same rows for the same reference and seed.
 *
 * `npm run demo:review-queue` rewrites infra/local/demo/review-queue.csv.
 */
import type { PartnerHotel, ReferenceHotel } from '../../shared/mapping';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { foldText } from '../../shared/platform/text';
import { BenchRandom, damagedPartnerRow, damageName, offsetPoint } from './partner-damage';

/** The kinds of rows, and their shares (the rest are written plainly). */
export const REVIEW_DEMO_KINDS = {
  /** Only the brand and the city ("Ibis Lisbon"), the pin a few hundred metres off: which outlet? */
  chainOutlet: 0.08,
  /** Named like the nearest other hotel, at this one's address and pin. */
  namesake: 0.07,
  /** The pin moved 500 m to 1.5 km, no address. */
  movedPin: 0.07,
  /** A damaged name and nothing else but the city. */
  sparse: 0.05,
  /** A hotel the reference does not hold: a new name at a place of the city. */
  notInReference: 0.04,
} as const;

export type ReviewDemoKind = keyof typeof REVIEW_DEMO_KINDS | 'plain';

export interface ReviewDemoRow {
  hotel: PartnerHotel;
  kind: ReviewDemoKind;
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/** `count` partner rows drawn from `reference`, each with the kind of doubt it was written with. */
export function reviewDemoRows(reference: readonly ReferenceHotel[], count: number, seed: number): ReviewDemoRow[] {
  const random = new BenchRandom(seed);
  const byCity = new Map<string, ReferenceHotel[]>();
  for (const hotel of reference) {
    if (!hotel.city) continue;
    const hotels = byCity.get(hotel.city) ?? [];
    hotels.push(hotel);
    byCity.set(hotel.city, hotels);
  }
  const kinds = Object.entries(REVIEW_DEMO_KINDS) as [keyof typeof REVIEW_DEMO_KINDS, number][];
  const taken = new Set<string>();
  const rows: ReviewDemoRow[] = [];
  while (rows.length < count) {
    const hotel = reference[random.int(0, reference.length - 1)]!;
    if (taken.has(hotel.id) || !hotel.city) continue;
    taken.add(hotel.id);
    const id = `RV-${String(rows.length + 1).padStart(5, '0')}`;
    let draw = random.next();
    const kind = kinds.find(([, share]) => (draw -= share) < 0)?.[0] ?? 'plain';
    const neighbours = byCity.get(hotel.city)!.filter((other) => other.id !== hotel.id);
    const row = damagedPartnerRow(random, hotel, id);
    delete row.supplierCode;
    delete row.supplierHotelId;
    switch (kind) {
      case 'chainOutlet': {
        if (!hotel.chain) break;
        row.name = `${hotel.chain} ${hotel.city}`;
        delete row.address;
        delete row.postalCode;
        if (hotel.lat !== undefined && hotel.lon !== undefined) Object.assign(row, pinNear(random, hotel, random.int(300, 900)));
        break;
      }
      case 'namesake': {
        const other = nearest(
          hotel,
          neighbours.filter((candidate) => foldText(candidate.name) !== foldText(hotel.name)),
        );
        if (other) row.name = damageName(random, other.name, other.chain);
        break;
      }
      case 'movedPin': {
        delete row.address;
        if (hotel.lat !== undefined && hotel.lon !== undefined) Object.assign(row, pinNear(random, hotel, random.int(500, 1500)));
        break;
      }
      case 'sparse': {
        row.name = damageName(random, row.name, hotel.chain);
        for (const field of ['address', 'postalCode', 'lat', 'lon', 'rating'] as const) delete row[field];
        break;
      }
      case 'notInReference': {
        const donor = random.pick(reference);
        row.name = `${donor.name.split(' ')[0]} ${random.pick(['Garden', 'Harbour', 'Chapel', 'Market', 'Canal', 'Orchard'])} ${random.pick(['Inn', 'Rooms', 'Lodge', 'House'])}`;
        delete row.address;
        delete row.postalCode;
        if (hotel.lat !== undefined && hotel.lon !== undefined) Object.assign(row, pinNear(random, hotel, random.int(1500, 4000)));
        break;
      }
      case 'plain':
        break;
    }
    rows.push({ hotel: row, kind });
  }
  return rows;
}

/** The hotel of `others` nearest to `hotel` (by pin), if both have pins. */
function nearest(hotel: ReferenceHotel, others: readonly ReferenceHotel[]): ReferenceHotel | undefined {
  if (hotel.lat === undefined || hotel.lon === undefined) return undefined;
  let best: ReferenceHotel | undefined;
  let bestDistance = Infinity;
  for (const other of others) {
    if (other.lat === undefined || other.lon === undefined) continue;
    const distance = (other.lat - hotel.lat) ** 2 + ((other.lon - hotel.lon) * Math.cos((hotel.lat * Math.PI) / 180)) ** 2;
    if (distance < bestDistance) [best, bestDistance] = [other, distance];
  }
  return best;
}

function pinNear(random: BenchRandom, hotel: ReferenceHotel, meters: number): { lat: number; lon: number } {
  const point = offsetPoint(random, hotel.lat!, hotel.lon!, meters);
  return { lat: round6(point.lat), lon: round6(point.lon) };
}

const COLUMNS = ['id', 'name', 'address', 'city', 'postalCode', 'country', 'lat', 'lon', 'rating'] as const;

/** The rows as the demo file holds them: a CSV with the columns of an inventory (`keep`: only the rows of some kinds). */
export function reviewDemoCsv(
  reference: readonly ReferenceHotel[],
  count: number,
  seed: number,
  keep: (kind: ReviewDemoKind) => boolean = () => true,
): string {
  const lines = reviewDemoRows(reference, count, seed)
    .filter(({ kind }) => keep(kind))
    .map(({ hotel }) => formatCsvRow(COLUMNS.map((column) => hotel[column])));
  return `${[formatCsvRow([...COLUMNS]), ...lines].join('\n')}\n`;
}
