import { domainEventQueue } from '../../shared/platform/events/outbox';
import { queueWorker } from '../../shared/platform/queue/worker';
import { deliverEvent } from '../../shared/webhooks';

export const handler = queueWorker(domainEventQueue, deliverEvent);
