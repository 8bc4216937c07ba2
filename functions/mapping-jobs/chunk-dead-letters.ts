import { failJobOfDeadChunk, mappingChunkQueue } from '../../shared/mapping-jobs';
import { deadLetterWorker } from '../../shared/platform/queue/worker';

export const handler = deadLetterWorker(mappingChunkQueue, failJobOfDeadChunk);
