/**
 * A benchmark's published reference, built from its synthetic data set once and kept under
 * `stateDirectory` (the s3rver files and the publication's pointer): later runs restore the pointer
 * and skip the publication, which for a million hotels takes minutes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MappingDataset } from '../../infra/synthetic/mapping-dataset';
import { objectStoreOf } from '../../shared/platform/objects/services';
import type { Runtime } from '../../shared/platform/runtime';
import { importReferenceInventory, referencePortsOf, referenceStoreOf } from '../../shared/reference';
import type { CurrentReference } from '../../shared/reference/inventory';

/** Publishes the data set's reference (or restores it), and fills the data set's partner rows and their truth. */
export async function publishedBenchReference(
  runtime: Runtime,
  dataset: MappingDataset,
  stateDirectory: string,
  label: string,
): Promise<CurrentReference> {
  const reference = { store: referenceStoreOf(runtime), ports: referencePortsOf(runtime) };
  const pointerFile = join(stateDirectory, 'current.json');
  const saved = existsSync(pointerFile) ? (JSON.parse(readFileSync(pointerFile, 'utf8')) as CurrentReference) : undefined;
  if (saved && (await objectStoreOf(runtime).size(saved.artifacts.matchingIndexKey!)) !== undefined) {
    for (const _ of dataset.reference()); // fills the partner rows and their truth
    await reference.store.publish(saved, undefined);
    console.log(`reference: ${saved.hotelCount} hotels, published earlier (kept in ${stateDirectory})`);
    return saved;
  }
  const started = performance.now();
  async function* rows() {
    let line = 1;
    for (const hotel of dataset.reference()) yield { line: ++line, hotel };
  }
  // Only the artifacts matter to mapping: the hotel records (detail pages, duplicates) are left out,
  // as writing a million of them into DynamoDB Local would take half an hour.
  const ports = {
    ...reference.ports,
    store: {
      getCurrent: () => reference.store.getCurrent(),
      publish: reference.store.publish.bind(reference.store),
      listMerges: reference.store.listMerges.bind(reference.store),
      deleteHotels: async () => {},
    },
  };
  const summary = await importReferenceInventory(ports, rows(), label);
  const current = (await reference.store.getCurrent())!;
  writeFileSync(pointerFile, JSON.stringify(current));
  console.log(
    `reference: ${summary.hotelCount} hotels published in ${((performance.now() - started) / 1000).toFixed(1)} s (once; kept for later runs)`,
  );
  return current;
}
