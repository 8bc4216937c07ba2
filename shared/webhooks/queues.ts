/** The webhooks capability's queues: the recorded events it turns into deliveries, and the attempts of each delivery. */
import * as v from 'valibot';
import { domainEventMessages } from '../platform/events/outbox';
import { defineQueue } from '../platform/queue/queue';

/** Every recorded event (the outbox relay's queue), turned into one delivery per matching webhook. */
export const domainEventQueue = defineQueue({
  ...domainEventMessages,
  handler: 'webhooks/domain-events',
  description: 'Turns each published event into one delivery per matching webhook',
  maxReceiveCount: 5,
  batchSize: 10,
  access: { table: 'readwrite', sendsTo: ['webhook-deliveries'] },
  lambda: { memoryMb: 256, timeoutSeconds: 30 },
  concurrency: { max: 5 },
});

/** One message per attempt of a delivery. */
export const webhookDeliveryQueue = defineQueue({
  name: 'webhook-deliveries',
  handler: 'webhooks/delivery',
  deadLetterHandler: 'webhooks/delivery-dead-letters',
  description: 'Sends one attempt of a webhook delivery and queues the retry that follows a failure',
  schema: v.object({ organizationId: v.string(), deliveryId: v.string(), attempt: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  maxReceiveCount: 5,
  // One attempt per invocation: a slow receiver holds up nobody else's delivery.
  batchSize: 1,
  access: { table: 'readwrite', sendsTo: ['webhook-deliveries'], schedules: ['webhook-deliveries'], secrets: 'open' },
  // It only records the abandoned attempt.
  deadLetterAccess: { table: 'readwrite' },
  // An attempt waits at most 10 s for the receiver.
  lambda: { memoryMb: 256, timeoutSeconds: 30 },
  // Slow receivers may hold a worker each: at most this many, so they never starve the API's functions.
  concurrency: { max: 20 },
});

export type DeliveryMessage = v.InferOutput<typeof webhookDeliveryQueue.schema>;
