/**
 * The labelled Singapore POI set (../shared/data/poi-matching-singapore): reference and partner
 * inventories, and the labelled pairs as partner id -> reference ids.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import type { PartnerHotel } from '../../shared/mapping';
import { readTabular } from '../../shared/platform/files/tabular';
import { readPartnerInventory, readReferenceInventory, type InventoryRow } from '../../shared/mapping';

const DATA_DIRECTORY = path.resolve(import.meta.dirname, '../../../shared/data/poi-matching-singapore');

export interface SingaporeSet {
  reference: ReferenceHotel[];
  partners: PartnerHotel[];
  truth: Map<string, Set<string>>;
}

export async function loadSingaporeSet(): Promise<SingaporeSet> {
  const file = (name: string) => readFileSync(path.join(DATA_DIRECTORY, name));
  const truth = new Map<string, Set<string>>();
  for await (const row of readTabular(file('truth.csv'), 'csv')) {
    if ('error' in row) throw new Error(`truth.csv line ${row.line}: ${row.error}`);
    const { partnerId, referenceId } = row.record as { partnerId: string; referenceId: string };
    truth.set(partnerId, (truth.get(partnerId) ?? new Set<string>()).add(referenceId));
  }
  return {
    reference: await load(readReferenceInventory(file('reference.csv'), 'csv')),
    partners: await load(readPartnerInventory(file('partner.csv'), 'csv')),
    truth,
  };
}

/** The set is clean: a bad row is a bug in the reader, so it stops the benchmark. */
async function load<T>(rows: AsyncIterable<InventoryRow<T>>): Promise<T[]> {
  const hotels: T[] = [];
  for await (const row of rows) {
    if ('error' in row) throw new Error(`line ${row.line}: ${row.error}`);
    hotels.push(row.hotel);
  }
  return hotels;
}
