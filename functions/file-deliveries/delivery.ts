import { deliverFile, fileDeliveryQueue } from '../../shared/file-deliveries';
import { queueWorker } from '../../shared/platform/queue/worker';

export const handler = queueWorker(fileDeliveryQueue, deliverFile);
