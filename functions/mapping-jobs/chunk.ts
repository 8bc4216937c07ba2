import { mapJobChunk, mappingChunkQueue } from '../../shared/mapping-jobs';
import { queueWorker } from '../../shared/platform/queue/worker';

export const handler = queueWorker(mappingChunkQueue, mapJobChunk);
