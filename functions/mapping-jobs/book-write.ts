import { mappingBookWriteQueue, writeJobIntoBook } from '../../shared/mapping-jobs';
import { queueWorker } from '../../shared/platform/queue/worker';

export const handler = queueWorker(mappingBookWriteQueue, writeJobIntoBook);
