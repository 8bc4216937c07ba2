import { abandonJobBookWrite, mappingBookWriteQueue } from '../../shared/mapping-jobs';
import { deadLetterWorker } from '../../shared/platform/queue/worker';

export const handler = deadLetterWorker(mappingBookWriteQueue, abandonJobBookWrite);
