import { queueWorker } from '../../shared/platform/queue/worker';
import { deliverEvent, domainEventQueue } from '../../shared/webhooks';

export const handler = queueWorker(domainEventQueue, deliverEvent);
