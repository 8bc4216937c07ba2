/**
 * The matching index a worker maps against, loaded from the bucket once per container. One is
 * kept (loading a million hotels with 2.5 million supplier codes peaks at about 0.75 GB): a
 * container that gets a chunk of a job pinned to another publication loads that one in its place.
 */
import { deserializeMatchingIndex, type MatchingIndex } from '../mapping';
import { objectStoreOf } from '../platform/objects/services';
import { service } from '../platform/runtime';

const KEPT = 1;

export const matchingIndexesOf = /* @__PURE__ */ service((runtime) => {
  const loaded = new Map<string, Promise<MatchingIndex>>();
  return {
    load(key: string): Promise<MatchingIndex> {
      let index = loaded.get(key);
      if (!index) {
        index = objectStoreOf(runtime)
          .get(key)
          .then((bytes) => {
            if (!bytes) throw new Error(`The matching index ${key} is missing.`);
            return deserializeMatchingIndex(bytes);
          });
        index.catch(() => loaded.delete(key));
        loaded.set(key, index);
        while (loaded.size > KEPT) loaded.delete(loaded.keys().next().value!);
      }
      return index;
    },
  };
});
