/**
 * Delivering events: each event becomes one delivery per matching webhook, and each delivery is
 * sent by attempts on the webhook-deliveries queue. A subscription's failed attempt is retried
 * 1, 5 and 30 minutes after the failure (SQS delays for the first two, a one-time schedule for the
 * third), then the delivery is dead-lettered; a legacy export webhook gets one unsigned attempt.
 */
import type { Clock } from '../platform/clock';
import { conflict, notFound } from '../platform/errors';
import type { DomainEvent } from '../platform/events/events';
import { log } from '../platform/logging';
import { MAX_QUEUE_DELAY_SECONDS, type Queue, type Scheduler } from '../platform/queue/queue';
import type { SecretBox } from '../platform/secrets/secret-box';
import { PLAN_LIMITS, type PlanType } from '../organizations';
import { webhookDeliveryQueue, type DeliveryMessage } from './queues';
import type { AttemptOutcome, WebhookRequest, WebhookSender } from './sender';
import { signatureHeaders } from './signing';
import type { DeliveryStore, WebhookStore } from './store';
import { liveSigningSecrets, secretContext, type Webhook } from './webhook';
import {
  deliveryIdOf,
  eventPayload,
  legacyPayload,
  RETRY_DELAYS_SECONDS,
  STALE_CLAIM_SECONDS,
  USER_AGENT,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
} from './delivery';

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

/** One delivery per active webhook of the organization that takes the event and whose plan allows it. */
export async function fanOut(ports: Pick<DeliveryPorts, 'webhooks' | 'deliveries' | 'queue' | 'clock' | 'planOf'>, event: DomainEvent) {
  const webhooks = (await ports.webhooks.list(event.organizationId)).filter(
    (webhook) => webhook.status === 'ACTIVE' && webhook.events.includes(event.type),
  );
  if (webhooks.length === 0) return;
  const plan = await ports.planOf(event.organizationId);
  for (const webhook of webhooks) {
    // A plan that no longer includes the type (a downgrade) stops its deliveries, not the subscription.
    if (webhook.kind === 'SUBSCRIPTION' && !(plan && PLAN_LIMITS[plan].webhookEvents.includes(event.type))) {
      log('info', 'webhook event not on the plan', { webhookId: webhook.id, eventType: event.type, plan });
      continue;
    }
    await startDelivery(ports, webhook, event, { test: false });
  }
}

/** Creates the delivery of an event to a webhook (once, however often asked) and queues its first attempt. */
export async function startDelivery(ports: StartPorts, webhook: Webhook, event: DomainEvent, options: { test: boolean }): Promise<Delivery> {
  const now = ports.clock.now().toISOString();
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
  };
  const current = (await ports.deliveries.create(delivery)) ? delivery : (await ports.deliveries.get(delivery.organizationId, delivery.id))!;
  // Queued again when an earlier run stopped before its first attempt was claimed: the claim keeps it single.
  if (current.claimedAttempts === 0) await ports.queue.send(messageFor(current, 1));
  return current;
}

/** Makes attempt `message.attempt` of a delivery, at most once, records it and queues what follows. */
export async function attemptDelivery(ports: Omit<DeliveryPorts, 'planOf'>, message: DeliveryMessage): Promise<void> {
  const delivery = await ports.deliveries.get(message.organizationId, message.deliveryId);
  const number = message.attempt;
  if (!delivery) {
    log('warn', 'webhook delivery not found', { deliveryId: message.deliveryId });
    return;
  }
  if (delivery.attempts.length >= number) {
    // Recorded already: a redelivered message only makes sure the next attempt is queued.
    if (delivery.status === 'RETRYING' && delivery.attempts.length === number) await queueNext(ports, delivery, number);
    return;
  }
  const now = ports.clock.now();
  const attempt = (outcome: AttemptOutcome): DeliveryAttempt => ({ number, attemptedAt: now.toISOString(), ...outcome });
  if (delivery.claimedAttempts >= number) {
    const claimedFor = now.getTime() - new Date(delivery.claimedAt ?? 0).getTime();
    if (claimedFor < STALE_CLAIM_SECONDS * 1000) {
      throw new Error(`Attempt ${number} of webhook delivery ${delivery.id} is in flight elsewhere; the message is tried again later.`);
    }
    const lost = attempt({ succeeded: false, durationMs: 0, error: 'The outcome of this attempt was lost (its worker stopped before recording it).' });
    return finishAttempt(ports, delivery, lost, { last: false });
  }
  if (!(await ports.deliveries.claim(delivery, number, now.toISOString()))) return;
  const webhook = await ports.webhooks.get(delivery.organizationId, delivery.webhookId);
  const stopped = !webhook ? 'the webhook was deleted' : webhook.status === 'INACTIVE' && !delivery.test ? 'the webhook is INACTIVE' : undefined;
  if (stopped || !webhook) {
    // Nothing more is tried: a redelivery sends it once the webhook is active again.
    return finishAttempt(ports, delivery, attempt({ succeeded: false, durationMs: 0, error: `Not sent: ${stopped}.` }), { last: true });
  }
  const outcome = await ports.sender.send(await requestOf(ports.secrets, webhook, delivery, now));
  await finishAttempt(ports, delivery, attempt(outcome), { last: false });
}

async function finishAttempt(
  ports: Omit<DeliveryPorts, 'planOf'>,
  delivery: Delivery,
  attempt: DeliveryAttempt,
  options: { last: boolean },
): Promise<void> {
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

/** A dead-lettered delivery, sent again with a fresh round of retries. */
export async function redeliver(ports: StartPorts, delivery: Delivery): Promise<Delivery> {
  if (delivery.status !== 'DEAD_LETTERED') {
    throw conflict(`Only a dead-lettered delivery can be redelivered; this one is ${delivery.status}.`);
  }
  const now = ports.clock.now().toISOString();
  if (!(await ports.deliveries.redeliver(delivery, now))) throw conflict('The delivery was redelivered by another request.');
  await ports.queue.send(messageFor(delivery, delivery.attempts.length + 1));
  const updated = await ports.deliveries.get(delivery.organizationId, delivery.id);
  if (!updated) throw notFound(`No delivery has the id ${delivery.id}.`);
  return updated;
}

/** The HTTP request of an attempt: the partner's headers on legacy webhooks, signatures on subscriptions. */
async function requestOf(secrets: SecretBox, webhook: Webhook, delivery: Delivery, now: Date): Promise<WebhookRequest> {
  const ours = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  if (webhook.kind === 'EXPORT_WEBHOOK') {
    const apiKey =
      webhook.apiKeyName && webhook.apiKeyValueSealed
        ? { [webhook.apiKeyName]: await secrets.open(webhook.apiKeyValueSealed, secretContext(webhook, 'api-key-value')) }
        : {};
    return { url: webhook.url, headers: { ...webhook.additionalHeaders, ...apiKey, ...ours }, body: delivery.payload };
  }
  const keys = await Promise.all(
    liveSigningSecrets(webhook, now).map((secret) => secrets.open(secret.sealed, secretContext(webhook, 'signing-secret'))),
  );
  return { url: webhook.url, headers: { ...ours, ...signatureHeaders(delivery.eventId, now, delivery.payload, keys) }, body: delivery.payload };
}

function messageFor(delivery: Pick<Delivery, 'organizationId' | 'id'>, attempt: number): DeliveryMessage {
  return { organizationId: delivery.organizationId, deliveryId: delivery.id, attempt };
}

/**
 * An attempt whose message failed every time it was processed (the table, KMS or the queue kept
 * failing): the delivery ends dead-lettered, visible in its history, and can be redelivered.
 */
export async function abandonAttempt(ports: Pick<DeliveryPorts, 'deliveries' | 'clock'>, message: DeliveryMessage): Promise<void> {
  const delivery = await ports.deliveries.get(message.organizationId, message.deliveryId);
  if (!delivery || delivery.attempts.length >= message.attempt) return;
  const now = ports.clock.now().toISOString();
  if (delivery.claimedAttempts < message.attempt && !(await ports.deliveries.claim(delivery, message.attempt, now))) return;
  const attempt: DeliveryAttempt = {
    number: message.attempt,
    attemptedAt: now,
    succeeded: false,
    durationMs: 0,
    error: 'The attempt could not be completed: the service failed while processing it.',
  };
  await ports.deliveries.record(delivery, attempt, delivery.kind === 'EXPORT_WEBHOOK' ? 'FAILED' : 'DEAD_LETTERED', undefined);
  log('error', 'webhook attempt abandoned', { deliveryId: delivery.id, webhookId: delivery.webhookId, attempt: message.attempt });
}
