/** The runtime's reference inventory: its store, the warm published index, and the publication ports. */
import { randomUUID } from 'node:crypto';
import { eventOutboxOf } from '../platform/events/outbox';
import { objectStoreOf } from '../platform/objects/services';
import { queueOf } from '../platform/queue/services';
import { service } from '../platform/runtime';
import { referencePublicationQueue } from './queue';
import { tableOf } from '../platform/table';
import { PublishedReference } from './published-reference';
import { ReferenceStore } from './store';

/** The reference inventory's records and current publication, for functions that touch no file. */
export const referenceStoreOf = /* @__PURE__ */ service((runtime) => new ReferenceStore(tableOf(runtime)));

export const referenceOf = /* @__PURE__ */ service((runtime) => {
  const store = referenceStoreOf(runtime);
  const objects = objectStoreOf(runtime);
  return {
    store,
    /** The current publication's index and statistics, kept warm per container. */
    published: new PublishedReference(store, objects),
    /** What the publication and duplicate rules work through. */
    ports: {
      store,
      objects,
      clock: runtime.clock,
      events: eventOutboxOf(runtime),
      newId: randomUUID,
      requestRepublication: (reportId: string) => queueOf(runtime, referencePublicationQueue).send({ reportId }),
    },
  };
});
