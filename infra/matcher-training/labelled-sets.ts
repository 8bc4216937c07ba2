/**
 * The labelled POI matching sets in ../shared/data (see its README): each a reference and a
 * partner inventory and the labelled pairs, as partner id -> reference ids. (The judged
 * non-matches are not read: every pair not labelled a match counts as wrong.)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  readPartnerInventory,
  readReferenceInventory,
  type InventoryRow,
  type PartnerHotel,
  type ReferenceHotel,
} from '../../shared/mapping';
import { readTabular } from '../../shared/platform/files/tabular';

export const LABELLED_SETS_DIRECTORY = fileURLToPath(new URL('../../../shared/data', import.meta.url));

/** The four sets, in the order every report lists them. */
export const LABELLED_SET_NAMES = ['singapore', 'toronto-foursquare', 'toronto-yelp', 'pittsburgh-yelp'] as const;
export type LabelledSetName = (typeof LABELLED_SET_NAMES)[number];

export interface LabelledSet {
  name: string;
  reference: ReferenceHotel[];
  partners: PartnerHotel[];
  /** Partner id -> the reference ids labelled the same place. */
  truth: Map<string, Set<string>>;
}

export function labelledSetDirectory(name: string, directory = LABELLED_SETS_DIRECTORY): string {
  return path.join(directory, `poi-matching-${name}`);
}

export function labelledSetsPresent(directory = LABELLED_SETS_DIRECTORY): boolean {
  return LABELLED_SET_NAMES.every((name) => existsSync(path.join(labelledSetDirectory(name, directory), 'truth.csv')));
}

export async function loadLabelledSet(name: string, directory = LABELLED_SETS_DIRECTORY): Promise<LabelledSet> {
  const folder = labelledSetDirectory(name, directory);
  const file = (fileName: string) => readFileSync(path.join(folder, fileName));
  return {
    name,
    reference: await hotelsOf(readReferenceInventory(file('reference.csv'), 'csv')),
    partners: await hotelsOf(readPartnerInventory(file('partner.csv'), 'csv')),
    truth: await pairsOf(file('truth.csv')),
  };
}

export async function loadLabelledSets(
  names: readonly string[] = LABELLED_SET_NAMES,
  directory = LABELLED_SETS_DIRECTORY,
): Promise<LabelledSet[]> {
  const sets: LabelledSet[] = [];
  for (const name of names) sets.push(await loadLabelledSet(name, directory));
  return sets;
}

async function pairsOf(csv: Buffer): Promise<Map<string, Set<string>>> {
  const pairs = new Map<string, Set<string>>();
  for await (const row of readTabular(csv, 'csv')) {
    if ('error' in row) throw new Error(`line ${row.line}: ${row.error}`);
    const { partnerId, referenceId } = row.record as { partnerId: string; referenceId: string };
    pairs.set(partnerId, (pairs.get(partnerId) ?? new Set<string>()).add(referenceId));
  }
  return pairs;
}

/** The sets are clean: a bad row is a bug in the reader, so it stops the run. */
async function hotelsOf<T>(rows: AsyncIterable<InventoryRow<T>>): Promise<T[]> {
  const hotels: T[] = [];
  for await (const row of rows) {
    if ('error' in row) throw new Error(`line ${row.line}: ${row.error}`);
    hotels.push(row.hotel);
  }
  return hotels;
}
