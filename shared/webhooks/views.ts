/** What partners see of webhooks and deliveries: never a secret, only its hint. */
import { subscriptionDeliveryStatus, type Delivery, type DeliveryAttempt } from './delivery';
import type { EventPayload } from './payloads';
import type { Webhook } from './webhook';

export function legacyWebhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    name: webhook.description ?? null,
    webhookUrl: webhook.url,
    apiKeyName: webhook.apiKeyName ?? null,
    apiKeyValueHint: webhook.apiKeyValueHint ?? null,
    additionalHeaders: webhook.additionalHeaders ?? {},
    status: webhook.status,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

export function subscriptionView(webhook: Webhook) {
  return {
    id: webhook.id,
    kind: webhook.kind,
    url: webhook.url,
    events: webhook.events,
    status: webhook.status,
    description: webhook.description ?? null,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  };
}

function attemptView(attempt: DeliveryAttempt) {
  return {
    number: attempt.number,
    attemptedAt: attempt.attemptedAt,
    succeeded: attempt.succeeded,
    statusCode: attempt.statusCode ?? null,
    durationMs: attempt.durationMs,
    responseBody: attempt.responseBody ?? null,
    error: attempt.error ?? null,
  };
}

export function deliveryView(delivery: Delivery) {
  const last = delivery.attempts.at(-1);
  return {
    id: delivery.id,
    subscriptionId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    test: delivery.test,
    status: subscriptionDeliveryStatus(delivery.status),
    attemptCount: delivery.attempts.length,
    nextAttemptAt: delivery.nextAttemptAt ?? null,
    lastAttempt: last ? attemptView(last) : null,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}

export function deliveryDetailView(delivery: Delivery) {
  return { ...deliveryView(delivery), payload: JSON.parse(delivery.payload) as EventPayload, attempts: delivery.attempts.map(attemptView) };
}
