import { abandonFileAttempt, fileDeliveryQueue } from '../../shared/file-deliveries';
import { deadLetterWorker } from '../../shared/platform/queue/worker';

export const handler = deadLetterWorker(fileDeliveryQueue, abandonFileAttempt);
