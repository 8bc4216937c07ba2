/**
 * Accuracy on the labelled Singapore POI set (real OpenStreetMap vs Foursquare places): STANDARD
 * mode, precision / recall / F1 of MATCHED rows as defined in the data set's README.
 *   npm run bench:accuracy
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PartnerHotel, ReferenceHotel } from '../../shared/domain/hotels';
import { buildReferenceIndex, mapHotels, readPartnerInventory, readReferenceInventory, type InventoryRow } from '../../shared/mapping';
import { readTabular } from '../../shared/files/tabular';
import { scoreMatches } from './mapping-metrics';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDirectory = path.resolve(repoRoot, '../shared/data/poi-matching-singapore');

async function load<T>(rows: AsyncIterable<InventoryRow<T>>): Promise<T[]> {
  const hotels: T[] = [];
  for await (const row of rows) {
    if ('error' in row) throw new Error(`line ${row.line}: ${row.error}`);
    hotels.push(row.hotel);
  }
  return hotels;
}

const file = (name: string) => readFileSync(path.join(dataDirectory, name));
const reference: ReferenceHotel[] = await load(readReferenceInventory(file('reference.csv'), 'csv'));
const partners: PartnerHotel[] = await load(readPartnerInventory(file('partner.csv'), 'csv'));
const truth = new Map<string, Set<string>>();
for await (const row of readTabular(file('truth.csv'), 'csv')) {
  if ('error' in row) throw new Error(`truth.csv line ${row.line}: ${row.error}`);
  const { partnerId, referenceId } = row.record as { partnerId: string; referenceId: string };
  const set = truth.get(partnerId) ?? new Set<string>();
  set.add(referenceId);
  truth.set(partnerId, set);
}

const started = performance.now();
const index = buildReferenceIndex(reference);
const built = performance.now();
const results = mapHotels(index, partners, { mode: 'STANDARD' });
const finished = performance.now();

const metrics = scoreMatches(results, (partnerId) => truth.get(partnerId));
console.log(`Singapore POI set: ${reference.length} reference, ${partners.length} partner rows, ${truth.size} with a labelled match`);
console.log(`index build ${(built - started).toFixed(0)} ms, mapping ${(finished - built).toFixed(0)} ms (${Math.round(partners.length / ((finished - built) / 1000))} rows/s)`);
console.log(`MATCHED ${metrics.matched} (correct ${metrics.correct}), REVIEW ${metrics.review} (correct candidate ${metrics.reviewCorrect}), UNMATCHED ${metrics.unmatched}`);
console.log(`precision ${metrics.precision.toFixed(3)}  recall ${metrics.recall.toFixed(3)}  F1 ${metrics.f1.toFixed(3)}`);
