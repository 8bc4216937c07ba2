/** The workers of the event and delivery queues. */
import type { SQSRecord } from 'aws-lambda';
import type { DomainEvent } from '../platform/events/events';
import { receiveOf } from '../platform/queue/worker';
import type { Runtime } from '../platform/runtime';
import { abandonAttempt, attemptDelivery, fanOut } from './dispatch';
import type { DeliveryMessage } from './queues';
import { deliveryPorts } from './services';

export function deliverEvent(event: DomainEvent, runtime: Runtime): Promise<void> {
  return fanOut(deliveryPorts(runtime), event);
}

export function attemptWebhookDelivery(message: DeliveryMessage, runtime: Runtime, record: SQSRecord): Promise<void> {
  return attemptDelivery(deliveryPorts(runtime), message, receiveOf(record));
}

export function abandonWebhookAttempt(message: DeliveryMessage, runtime: Runtime): Promise<void> {
  return abandonAttempt(deliveryPorts(runtime), message);
}
