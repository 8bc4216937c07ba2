import { failOverdueJob, mappingDeadlineQueue } from '../../shared/mapping-jobs';
import { deadLetterWorker } from '../../shared/platform/queue/worker';

export const handler = deadLetterWorker(mappingDeadlineQueue, failOverdueJob);
