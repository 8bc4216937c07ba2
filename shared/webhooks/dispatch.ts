/**
 * Delivering events: each event becomes one delivery per matching webhook, and each delivery is
 * sent by attempts on the webhook-deliveries queue. A subscription's failed attempt is retried
 * 1, 5 and 30 minutes after the failure (SQS delays for the first two, a one-time schedule for the
 * third), then the delivery is dead-lettered; a legacy export webhook gets one unsigned attempt.
 *
 * An attempt is claimed in the table before it is sent and recorded after, so a message delivered
 * twice sends once. Every way an attempt can fail (the receiver, the service itself, the queue for
 * the next attempt) ends recorded, retried or dead-lettered: no delivery waits forever.
 */
import type { Clock } from '../platform/clock';
import { currentCorrelationId, withCorrelationId } from '../platform/correlation';
import { conflict } from '../platform/errors';
import type { DomainEvent } from '../platform/events/events';
import { describeError, log } from '../platform/logging';
import { recordCount } from '../platform/metrics';
import { MAX_QUEUE_DELAY_SECONDS, visibilityTimeoutSeconds, type Queue, type Scheduler } from '../platform/queue/queue';
import { isLaterReceive, type MessageReceive } from '../platform/queue/worker';
import type { SecretBox } from '../platform/secrets/secret-box';
import { isEventType, planAllowsEvent, type EventType } from '../events';
import type { PlanType } from '../organizations';
import {
  deliveryIdOf,
  eventPayload,
  legacyPayload,
  MAX_ATTEMPTS,
  RETRY_DELAYS_SECONDS,
  STALE_CLAIM_SECONDS,
  STUCK_AFTER_SECONDS,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
} from './delivery';
import { webhookDeliveryQueue, type DeliveryMessage } from './queues';
import { requestOf } from './request';
import type { AttemptOutcome, WebhookSender } from './sender';
import type { DeliveryStore, WebhookStore } from './store';
import type { Webhook } from './webhook';

/** What delivery counts (the dashboard and an alarm read these names: infra/observability.ts). */
export const WEBHOOK_METRICS = { webhookAttempts: 'WebhookAttempts', deliveriesDeadLettered: 'DeliveriesDeadLettered' } as const;

/** An event of a type the catalogue knows (shared/events). */
export type KnownEvent = DomainEvent & { type: EventType };

export interface DeliveryPorts {
  webhooks: Pick<WebhookStore, 'get' | 'list'>;
  deliveries: DeliveryStore;
  secrets: SecretBox;
  sender: WebhookSender;
  queue: Queue<DeliveryMessage>;
  scheduler: Scheduler;
  /** The organization's plan, for the event types it may receive. */
  planOf(organizationId: string): Promise<PlanType | undefined>;
  clock: Clock;
}

export type StartPorts = Pick<DeliveryPorts, 'deliveries' | 'queue' | 'clock'>;
type AttemptPorts = Omit<DeliveryPorts, 'planOf'>;

/** One delivery per active webhook of the organization that takes the event and whose plan allows it. */
export async function fanOut(ports: Pick<DeliveryPorts, 'webhooks' | 'deliveries' | 'queue' | 'clock' | 'planOf'>, published: DomainEvent) {
  const type = published.type;
  if (!isEventType(type)) {
    log('warn', 'event of no known type: nothing delivered', { eventId: published.id, eventType: type });
    return;
  }
  const event = { ...published, type };
  const webhooks = (await ports.webhooks.list(event.organizationId)).filter(
    (webhook) => webhook.status === 'ACTIVE' && webhook.events.includes(event.type),
  );
  if (webhooks.length === 0) return;
  const plan = await ports.planOf(event.organizationId);
  for (const webhook of webhooks) {
    // A plan that no longer includes the type (a downgrade) stops its deliveries, not the subscription.
    if (webhook.kind === 'SUBSCRIPTION' && !(plan && planAllowsEvent(plan, event.type))) {
      log('info', 'webhook event not on the plan', { webhookId: webhook.id, eventType: event.type, plan });
      continue;
    }
    await startDelivery(ports, webhook, event, { test: false });
  }
}

/** Creates the delivery of an event to a webhook (once, however often asked) and queues its first attempt. */
export async function startDelivery(ports: StartPorts, webhook: Webhook, event: KnownEvent, options: { test: boolean }): Promise<Delivery> {
  const now = ports.clock.now().toISOString();
  const correlationId = event.correlationId ?? currentCorrelationId();
  const delivery: Delivery = {
    id: deliveryIdOf(event.id, webhook.id),
    organizationId: webhook.organizationId,
    webhookId: webhook.id,
    kind: webhook.kind,
    eventId: event.id,
    eventType: event.type,
    test: options.test,
    payload: webhook.kind === 'EXPORT_WEBHOOK' ? legacyPayload(event) : eventPayload(event, options.test),
    status: 'PENDING',
    attempts: [],
    claimedAttempts: 0,
    roundStart: 0,
    createdAt: now,
    updatedAt: now,
    ...(correlationId !== undefined && { correlationId }),
  };
  const current = (await ports.deliveries.create(delivery))
    ? delivery
    : (await ports.deliveries.get(delivery.organizationId, delivery.id))!;
  // Queued again when an earlier run stopped before its first attempt was claimed: the claim keeps it single.
  if (current.claimedAttempts === 0) await underDeliveryWork(current, () => ports.queue.send(messageFor(current, 1)));
  return current;
}

/** A delivery's attempts, and the messages that queue them, belong to the work that caused its event (platform/correlation.ts). */
function underDeliveryWork<T>(delivery: Delivery, work: () => Promise<T>): Promise<T> {
  return withCorrelationId(delivery.correlationId ?? delivery.eventId, work);
}

/** Makes attempt `message.attempt` of a delivery, at most once, records it and queues what follows. */
export async function attemptDelivery(ports: AttemptPorts, message: DeliveryMessage, receive?: MessageReceive): Promise<void> {
  const delivery = await ports.deliveries.get(message.organizationId, message.deliveryId);
  if (!delivery) {
    log('warn', 'webhook delivery not found', { deliveryId: message.deliveryId });
    return;
  }
  // Under the delivery's correlation id, however the message came (a retry the scheduler queued carries no attribute).
  await underDeliveryWork(delivery, () => attemptOf(ports, delivery, message.attempt, receive));
}

async function attemptOf(ports: AttemptPorts, delivery: Delivery, number: number, receive: MessageReceive | undefined): Promise<void> {
  if (delivery.attempts.length >= number) {
    // Recorded already: a redelivered message only makes sure the next attempt is queued.
    if (delivery.status === 'RETRYING' && delivery.attempts.length === number) await queueNext(ports, delivery, number);
    return;
  }
  const now = ports.clock.now();
  const attempt = (outcome: AttemptOutcome): DeliveryAttempt => ({ number, attemptedAt: now.toISOString(), ...outcome });
  if (delivery.claimedAttempts >= number) {
    const claimedFor = now.getTime() - new Date(delivery.claimedAt ?? 0).getTime();
    const claimantGone = receive !== undefined && isLaterReceive(receive, delivery.claimedBy);
    if (claimedFor < STALE_CLAIM_SECONDS * 1000 && !claimantGone) {
      throw new Error(`Attempt ${number} of webhook delivery ${delivery.id} is in flight elsewhere; the message is tried again later.`);
    }
    // The worker that claimed it stopped before recording: whether it sent is unknown, so it counts as failed.
    const lost = attempt({
      succeeded: false,
      durationMs: 0,
      error: 'The outcome of this attempt was lost (its worker stopped before recording it).',
    });
    return finishAttempt(ports, delivery, lost, { last: false });
  }
  if (!(await ports.deliveries.claim(delivery, number, now.toISOString(), receive))) return;
  let outcome: AttemptOutcome;
  let last = false;
  try {
    const webhook = await ports.webhooks.get(delivery.organizationId, delivery.webhookId);
    const stopped = !webhook
      ? 'the webhook was deleted'
      : webhook.status === 'INACTIVE' && !delivery.test
        ? 'the webhook is INACTIVE'
        : undefined;
    // Nothing more is tried for a paused or deleted webhook: a redelivery sends it once it is active again.
    last = stopped !== undefined;
    outcome =
      stopped || !webhook
        ? { succeeded: false, durationMs: 0, error: `Not sent: ${stopped}.` }
        : await ports.sender.send(await requestOf(ports.secrets, webhook, delivery, now));
  } catch (error) {
    // The service failed (reading the webhook, opening its secret): recorded and retried like a receiver's failure.
    log('error', 'webhook attempt failed inside the service', { deliveryId: delivery.id, attempt: number, ...describeError(error) });
    outcome = { succeeded: false, durationMs: 0, error: 'Not sent: the service failed to prepare the request; it is retried.' };
  }
  await finishAttempt(ports, delivery, attempt(outcome), { last });
}

async function finishAttempt(ports: AttemptPorts, delivery: Delivery, attempt: DeliveryAttempt, options: { last: boolean }): Promise<void> {
  const retryDelay = options.last ? undefined : RETRY_DELAYS_SECONDS[attempt.number - delivery.roundStart - 1];
  const status: DeliveryStatus = attempt.succeeded
    ? 'SUCCEEDED'
    : delivery.kind === 'EXPORT_WEBHOOK'
      ? 'FAILED'
      : retryDelay === undefined
        ? 'DEAD_LETTERED'
        : 'RETRYING';
  const nextAttemptAt = status === 'RETRYING' ? new Date(ports.clock.now().getTime() + retryDelay! * 1000).toISOString() : undefined;
  if (!(await ports.deliveries.record(delivery, attempt, status, nextAttemptAt))) return;
  const fields = {
    deliveryId: delivery.id,
    webhookId: delivery.webhookId,
    eventType: delivery.eventType,
    attempt: attempt.number,
    status,
    statusCode: attempt.statusCode,
    durationMs: attempt.durationMs,
    error: attempt.error,
  };
  if (delivery.kind === 'EXPORT_WEBHOOK' && !attempt.succeeded) log('warn', 'legacy export webhook failed', fields);
  else log('info', 'webhook attempt', fields);
  recordCount(WEBHOOK_METRICS.webhookAttempts, 1, { outcome: attempt.succeeded ? 'succeeded' : 'failed' });
  if (status === 'DEAD_LETTERED') recordCount(WEBHOOK_METRICS.deliveriesDeadLettered);
  if (status === 'RETRYING') await queueNext(ports, { ...delivery, nextAttemptAt }, attempt.number);
}

/** The next attempt: an SQS delay up to 15 minutes, a one-time schedule beyond. */
async function queueNext(ports: Pick<DeliveryPorts, 'queue' | 'scheduler' | 'clock'>, delivery: Delivery, number: number): Promise<void> {
  const at = new Date(delivery.nextAttemptAt!);
  const message = messageFor(delivery, number + 1);
  const delaySeconds = Math.max(0, Math.ceil((at.getTime() - ports.clock.now().getTime()) / 1000));
  if (delaySeconds <= MAX_QUEUE_DELAY_SECONDS) await ports.queue.send(message, { delaySeconds });
  else await ports.scheduler.schedule({ name: `webhook-${delivery.id}-${number + 1}`, at, queue: webhookDeliveryQueue, message });
}

/**
 * Sends a delivery again with a fresh round of retries: one that is dead-lettered, or one stuck
 * (no attempt under way and none due for 15 minutes, e.g. its next message was lost).
 */
export async function redeliver(ports: StartPorts, delivery: Delivery): Promise<Delivery> {
  const now = ports.clock.now();
  if (!(delivery.status === 'DEAD_LETTERED' || isStuck(delivery, now))) {
    if (delivery.claimedAttempts > delivery.attempts.length) {
      throw conflict(
        `Attempt ${delivery.claimedAttempts} of this delivery is under way; if its worker stopped, the attempt is recorded as lost and retried ` +
          `within ${Math.ceil(visibilityTimeoutSeconds(webhookDeliveryQueue) / 60)} minutes.`,
      );
    }
    throw conflict(`Only a dead-lettered delivery can be redelivered; this one is ${delivery.status}.`);
  }
  if (delivery.attempts.length + RETRY_DELAYS_SECONDS.length + 1 > MAX_ATTEMPTS) {
    throw conflict(`This delivery has had ${delivery.attempts.length} attempts; send a test event or wait for the next event instead.`);
  }
  const at = now.toISOString();
  if (!(await ports.deliveries.redeliver(delivery, at))) throw conflict('The delivery was redelivered by another request.');
  try {
    await underDeliveryWork(delivery, () => ports.queue.send(messageFor(delivery, delivery.attempts.length + 1)));
  } catch (error) {
    // Not queued: left as it was, so the partner can simply ask again.
    await ports.deliveries.undoRedelivery(delivery, at);
    throw error;
  }
  return { ...delivery, status: 'PENDING', roundStart: delivery.attempts.length, nextAttemptAt: undefined, updatedAt: at };
}

/** Not dead-lettered, yet nothing is under way and nothing is due: its next message went missing. */
function isStuck(delivery: Delivery, now: Date): boolean {
  if (delivery.status !== 'PENDING' && delivery.status !== 'RETRYING') return false;
  if (delivery.claimedAttempts !== delivery.attempts.length) return false;
  const due = new Date(delivery.nextAttemptAt ?? delivery.updatedAt).getTime();
  return now.getTime() - due > STUCK_AFTER_SECONDS * 1000;
}

function messageFor(delivery: Pick<Delivery, 'organizationId' | 'id'>, attempt: number): DeliveryMessage {
  return { organizationId: delivery.organizationId, deliveryId: delivery.id, attempt };
}

/**
 * A message that failed every time it was processed (the table, the queue or the scheduler kept
 * failing): the delivery ends dead-lettered, visible in its history, and can be redelivered.
 */
export async function abandonAttempt(ports: Pick<DeliveryPorts, 'deliveries' | 'clock'>, message: DeliveryMessage): Promise<void> {
  const delivery = await ports.deliveries.get(message.organizationId, message.deliveryId);
  if (!delivery) return;
  const now = ports.clock.now().toISOString();
  if (delivery.attempts.length >= message.attempt) {
    // The attempt was recorded but the next one could not be queued.
    if (
      delivery.status === 'RETRYING' &&
      delivery.attempts.length === message.attempt &&
      (await ports.deliveries.deadLetter(delivery, now))
    ) {
      log('error', 'webhook retry could not be queued', { deliveryId: delivery.id, attempt: message.attempt });
      recordCount(WEBHOOK_METRICS.deliveriesDeadLettered);
    }
    return;
  }
  if (delivery.claimedAttempts < message.attempt && !(await ports.deliveries.claim(delivery, message.attempt, now))) return;
  const attempt: DeliveryAttempt = {
    number: message.attempt,
    attemptedAt: now,
    succeeded: false,
    durationMs: 0,
    error: 'The attempt could not be completed: the service failed while processing it.',
  };
  const recorded = await ports.deliveries.record(
    delivery,
    attempt,
    delivery.kind === 'EXPORT_WEBHOOK' ? 'FAILED' : 'DEAD_LETTERED',
    undefined,
  );
  log('error', 'webhook attempt abandoned', { deliveryId: delivery.id, webhookId: delivery.webhookId, attempt: message.attempt });
  if (recorded) {
    recordCount(WEBHOOK_METRICS.webhookAttempts, 1, { outcome: 'failed' });
    if (delivery.kind === 'SUBSCRIPTION') recordCount(WEBHOOK_METRICS.deliveriesDeadLettered);
  }
}
