/**
 * Candidates and log-odds for the Singapore partner rows with the given names (debugging aid).
 *   npx tsx test/bench/mapping-debug.ts "Partner name" ["Another name" ...]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { textAt } from '../../shared/mapping/columns';
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import type { PartnerHotel } from '../../shared/mapping';
import { buildMatchingIndex, HotelMatcher, readPartnerInventory, readReferenceInventory, type InventoryRow } from '../../shared/mapping';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDirectory = path.resolve(repoRoot, '../shared/data/poi-matching-singapore');
const file = (name: string) => readFileSync(path.join(dataDirectory, name));

async function load<T>(rows: AsyncIterable<InventoryRow<T>>): Promise<T[]> {
  const hotels: T[] = [];
  for await (const row of rows) if (!('error' in row)) hotels.push(row.hotel);
  return hotels;
}

const reference: ReferenceHotel[] = await load(readReferenceInventory(file('reference.csv'), 'csv'));
const partners: PartnerHotel[] = await load(readPartnerInventory(file('partner.csv'), 'csv'));
const index = buildMatchingIndex(reference);
const matcher = new HotelMatcher(index, { mode: 'STANDARD', maxCandidates: 10 });
for (const name of process.argv.slice(2)) {
  for (const partner of partners.filter((candidate) => candidate.name === name)) {
    const row = matcher.matchRow(partner);
    console.log(partner.name, partner.lat, partner.lon, row.result.status, row.result.score, row.result.reason ?? '');
    for (const candidate of row.scored) console.log('   ', candidate.logOdds.toFixed(2), textAt(index.data.names, candidate.hotel), JSON.stringify(candidate.evidence));
  }
}
