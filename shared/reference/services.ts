/** The reference inventory: its store, the warm published index, and the publication ports. */
import { randomUUID } from 'node:crypto';
import { PublishedReference } from './published-reference';
import { ReferenceStore } from './store';
import { extension } from '../platform/runtime';
import { objectStoreOf } from '../platform/objects/services';

export const referenceOf = extension((deps) => {
  const store = new ReferenceStore(deps.table);
  const objects = objectStoreOf(deps);
  return {
    store,
    /** The current publication's index and statistics, kept warm per container. */
    published: new PublishedReference(store, objects),
    /** What the publication and duplicate rules work through. */
    ports: { store, objects, clock: deps.clock, events: deps.events, newId: randomUUID },
  };
});
