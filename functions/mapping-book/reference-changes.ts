import { announceReferencePublication, referenceChangeQueue } from '../../shared/mapping-book';
import { queueWorker } from '../../shared/platform/queue/worker';

export const handler = queueWorker(referenceChangeQueue, announceReferencePublication);
