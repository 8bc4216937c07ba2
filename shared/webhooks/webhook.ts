/**
 * A webhook: where an organization's events go. One record serves both APIs (the contract's rule 7):
 * a legacy export webhook (POST /export-webhooks) is a webhook of kind EXPORT_WEBHOOK that receives
 * MAPPING_COMPLETED as the unsigned legacy `mapping.completed` call, once, with the partner's own
 * header; a subscription (POST /webhook-subscriptions) receives the event types it chose, signed
 * (Standard Webhooks), retried, with a delivery history.
 */
import type { EventType } from '../events';

export const WEBHOOK_KINDS = ['SUBSCRIPTION', 'EXPORT_WEBHOOK'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export const WEBHOOK_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** Webhooks one organization may have (both kinds together): lists need no pages. */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 20;

/** After a rotation, deliveries are signed with the old secret too for this long (as Svix does). */
export const PREVIOUS_SECRET_GRACE_HOURS = 24;
/** Secrets that sign at once: the current one and those of up to two rotations within a grace period. */
export const MAX_LIVE_SECRETS = 3;

export interface SealedSigningSecret {
  /** The `whsec_…` secret, encrypted (platform/secrets). */
  sealed: string;
  createdAt: string;
  /** Set on the previous secret at a rotation: deliveries stop carrying its signature then. */
  expiresAt?: string;
}

export interface Webhook {
  id: string;
  organizationId: string;
  kind: WebhookKind;
  url: string;
  status: WebhookStatus;
  events: EventType[];
  /** The subscription's description; the legacy `name`. */
  description?: string;
  createdAt: string;
  updatedAt: string;
  /** Counts writes: an edit saves only over the revision it read (two edits never overwrite each other). */
  revision: number;
  /** Subscriptions: the current secret first, then earlier ones during their grace periods. */
  signingSecrets?: SealedSigningSecret[];
  /** Legacy: the partner's header, its value encrypted and shown only as a hint. */
  apiKeyName?: string;
  apiKeyValueSealed?: string;
  apiKeyValueHint?: string;
  additionalHeaders?: Record<string, string>;
}

/** What the secret's encryption is bound to: a sealed value copied to another record will not open. */
export function secretContext(webhook: Pick<Webhook, 'organizationId' | 'id'>, purpose: 'signing-secret' | 'api-key-value') {
  return { organizationId: webhook.organizationId, webhookId: webhook.id, purpose };
}

/** The signing secrets still valid at `now`, current first. */
export function liveSigningSecrets(webhook: Webhook, now: Date): SealedSigningSecret[] {
  return (webhook.signingSecrets ?? []).filter((secret) => !secret.expiresAt || new Date(secret.expiresAt) > now);
}

/** `…abcd`: enough for a partner to recognise a value, never enough to use it. */
export function hintOf(value: string): string {
  return value.length <= 8 ? '…' : `…${value.slice(-4)}`;
}
