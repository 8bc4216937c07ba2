/**
 * The matching index a worker maps against, loaded from the bucket once per container, its file
 * read in parts at once. One is
 * kept (loading a million hotels with 2.5 million supplier codes peaks at about 0.75 GB): a
 * container that gets a chunk of a job pinned to another publication loads that one in its place.
 */
import { deserializeMatchingIndex, type MatchingIndex } from '../mapping';
import type { ObjectStore } from '../platform/objects/object-store';
import { objectStoreOf } from '../platform/objects/services';
import { service } from '../platform/runtime';

const KEPT = 1;

/** An index file is read in parts this large, several at once: one S3 stream is several times slower than the bucket. */
const READ_PART_BYTES = 16 * 2 ** 20;
const PARTS_AT_ONCE = 8;

/** The index file's bytes, read in parts at once into one buffer (each part let go once copied). */
export async function readIndexFile(objects: Pick<ObjectStore, 'get' | 'size'>, key: string, partBytes = READ_PART_BYTES): Promise<Buffer> {
  const size = await objects.size(key);
  if (size === undefined) throw new Error(`The matching index ${key} is missing.`);
  const whole = Buffer.allocUnsafe(size);
  let next = 0;
  const reader = async () => {
    for (let start = next; start < size; start = next) {
      next += partBytes;
      const length = Math.min(partBytes, size - start);
      const part = await objects.get(key, { start, length });
      if (part?.length !== length) throw new Error(`The matching index ${key} changed or went while it was read.`);
      part.copy(whole, start);
    }
  };
  await Promise.all(Array.from({ length: PARTS_AT_ONCE }, reader));
  return whole;
}

export const matchingIndexesOf = /* @__PURE__ */ service((runtime) => {
  const loaded = new Map<string, Promise<MatchingIndex>>();
  return {
    load(key: string): Promise<MatchingIndex> {
      let index = loaded.get(key);
      if (!index) {
        index = readIndexFile(objectStoreOf(runtime), key).then(deserializeMatchingIndex);
        index.catch(() => loaded.delete(key));
        loaded.set(key, index);
        while (loaded.size > KEPT) loaded.delete(loaded.keys().next().value!);
      }
      return index;
    },
  };
});
