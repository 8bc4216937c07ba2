import { failOverdueJob, mappingDeadlineQueue } from '../../shared/mapping-jobs';
import { queueWorker } from '../../shared/platform/queue/worker';

export const handler = queueWorker(mappingDeadlineQueue, failOverdueJob);
