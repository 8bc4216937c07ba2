/** A delivery: one event for one webhook, sent by attempts. The body is fixed when it is created. */
import { createHash } from 'node:crypto';
import type { EventType } from '../events';
import type { DomainEvent } from '../platform/events/events';
import type { MessageReceive } from '../platform/queue/worker';
import { webhookDeliveryQueue } from './queues';
import type { WebhookKind } from './webhook';

export const DELIVERY_STATUSES = ['PENDING', 'RETRYING', 'SUCCEEDED', 'FAILED', 'DEAD_LETTERED'] as const;
/** FAILED ends a legacy delivery's single attempt; subscriptions end SUCCEEDED or DEAD_LETTERED. */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** The statuses a subscription's history shows (legacy deliveries keep none). */
export const SUBSCRIPTION_DELIVERY_STATUSES = ['PENDING', 'RETRYING', 'SUCCEEDED', 'DEAD_LETTERED'] as const;
export type SubscriptionDeliveryStatus = (typeof SUBSCRIPTION_DELIVERY_STATUSES)[number];

/** A delivery's status as a subscription's history shows it: every attempt failed is DEAD_LETTERED there. */
export function subscriptionDeliveryStatus(status: DeliveryStatus): SubscriptionDeliveryStatus {
  return status === 'FAILED' ? 'DEAD_LETTERED' : status;
}

/** Waits before each retry, counted from the failed attempt (the contract's schedule). */
export const RETRY_DELAYS_SECONDS = [60, 300, 1_800] as const;
export const DELIVERY_HISTORY_DAYS = 30;
/** A claimed attempt unrecorded for this long was lost with its worker (four times its timeout). */
export const STALE_CLAIM_SECONDS = 4 * webhookDeliveryQueue.lambda.timeoutSeconds;
/** A delivery with nothing under way and nothing due for this long can be redelivered. */
export const STUCK_AFTER_SECONDS = 15 * 60;
/** Attempts one delivery may have (its history is one table item): four rounds of four. */
export const MAX_ATTEMPTS = 16;
export const USER_AGENT = 'HotelMapping-Webhooks/1';

export interface DeliveryAttempt {
  number: number;
  attemptedAt: string;
  succeeded: boolean;
  statusCode?: number;
  durationMs: number;
  /** The first 1,024 bytes of the receiver's answer. */
  responseBody?: string;
  error?: string;
}

export interface Delivery {
  id: string;
  organizationId: string;
  webhookId: string;
  kind: WebhookKind;
  eventId: string;
  eventType: EventType;
  /** Sent by POST /webhook-subscriptions/{id}/test. */
  test: boolean;
  /** The body exactly as every attempt sends it. */
  payload: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Attempts handed to a sender so far; an attempt is claimed once. */
  claimedAttempts: number;
  claimedAt?: string;
  /** The receive of the queue message that claimed the last attempt: a later receive of it finds that attempt lost. */
  claimedBy?: MessageReceive;
  /** Attempts made before the current round (a manual redelivery starts a new round of retries). */
  roundStart: number;
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
  /** The work that caused the event (platform/correlation.ts): every attempt logs under it, however it is queued. */
  correlationId?: string;
}

/** What a subscription receives (partner's guide, Webhooks): the event's id, type, time, organization and data. */
export function eventPayload(event: DomainEvent, test: boolean): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: event.occurredAt,
    organizationId: event.organizationId,
    ...(test && { test: true }),
    data: event.data,
  });
}

/** The legacy `mapping.completed` call: the job's fields at the top level. */
export function legacyPayload(event: DomainEvent): string {
  const { export: _export, deliveries: _deliveries, ...contractFields } = event.data;
  return JSON.stringify({ event: 'mapping.completed', timestamp: event.occurredAt, ...contractFields });
}

/** The same event to the same webhook is one delivery: its id is derived from both (UUID-shaped). */
export function deliveryIdOf(eventId: string, webhookId: string): string {
  const hex = createHash('sha256').update(`${eventId}\n${webhookId}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
