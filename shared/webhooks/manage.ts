/** Creating and changing webhooks through either API: destination checks, plan gating, sealed secrets. */
import type { Clock } from '../platform/clock';
import { conflict, forbidden, invalidInput, limitReached, notFound } from '../platform/errors';
import { lowestPlanName, planAllowsEvent, type EventType } from '../events';
import type { SecretBox } from '../platform/secrets/secret-box';
import { PLAN_LIMITS, type PlanType } from '../organizations';
import { newSigningSecret } from './signing';
import type { WebhookStore } from './store';
import {
  hintOf,
  liveSigningSecrets,
  MAX_LIVE_SECRETS,
  MAX_WEBHOOKS_PER_ORGANIZATION,
  PREVIOUS_SECRET_GRACE_HOURS,
  secretContext,
  type Webhook,
  type WebhookKind,
  type WebhookStatus,
} from './webhook';

export interface ManagePorts {
  webhooks: WebhookStore;
  secrets: SecretBox;
  /** Why a URL may not receive webhooks (scheme, address after DNS resolution), or undefined. */
  destinationProblem(url: string): Promise<string | undefined>;
  planOf(organizationId: string): Promise<PlanType>;
  clock: Clock;
  newId(): string;
}

export interface LegacyFields {
  name?: string | null;
  webhookUrl?: string;
  apiKeyName?: string | null;
  apiKeyValue?: string | null;
  additionalHeaders?: Record<string, string> | null;
  status?: WebhookStatus;
}

export interface SubscriptionFields {
  url?: string;
  events?: EventType[];
  status?: WebhookStatus;
  description?: string | null;
}

export async function createLegacyWebhook(
  ports: ManagePorts,
  organizationId: string,
  input: LegacyFields & { webhookUrl: string },
): Promise<Webhook> {
  const now = ports.clock.now().toISOString();
  const blank: Webhook = {
    id: ports.newId(),
    organizationId,
    kind: 'EXPORT_WEBHOOK',
    url: input.webhookUrl,
    status: 'ACTIVE',
    events: ['MAPPING_COMPLETED'],
    createdAt: now,
    updatedAt: now,
    revision: 1,
  };
  const webhook = await applyLegacy(ports, blank, input);
  await createWithinLimit(ports, webhook);
  return webhook;
}

/** Every field sent overwrites the stored one; a field left out keeps its value; null clears it. */
export async function replaceLegacyWebhook(ports: ManagePorts, organizationId: string, id: string, input: LegacyFields): Promise<Webhook> {
  const current = await ports.webhooks.get(organizationId, id);
  if (current?.kind !== 'EXPORT_WEBHOOK') throw notFound(`Your organization has no export webhook ${id}.`);
  const webhook = await applyLegacy(ports, { ...current, updatedAt: ports.clock.now().toISOString() }, input);
  return save(ports, webhook);
}

async function applyLegacy(ports: ManagePorts, webhook: Webhook, input: LegacyFields): Promise<Webhook> {
  const next: Webhook = { ...webhook };
  if (input.webhookUrl !== undefined) next.url = await checkedUrl(ports, 'webhookUrl', input.webhookUrl);
  if (input.name !== undefined) next.description = input.name ?? undefined;
  if (input.status !== undefined) next.status = input.status;
  if (input.additionalHeaders !== undefined) next.additionalHeaders = input.additionalHeaders ?? undefined;
  if (input.apiKeyName === null || input.apiKeyValue === null) {
    // The header and its value go together: null on either clears both.
    next.apiKeyName = next.apiKeyValueSealed = next.apiKeyValueHint = undefined;
  } else {
    if (input.apiKeyName !== undefined) next.apiKeyName = input.apiKeyName;
    if (input.apiKeyValue !== undefined) {
      next.apiKeyValueSealed = await ports.secrets.seal(input.apiKeyValue, secretContext(next, 'api-key-value'));
      next.apiKeyValueHint = hintOf(input.apiKeyValue);
    }
  }
  if (Boolean(next.apiKeyName) !== Boolean(next.apiKeyValueSealed)) {
    throw invalidInput('apiKeyName and apiKeyValue go together: send both, or null to clear both.');
  }
  const taken = new Set(Object.keys(next.additionalHeaders ?? {}).map((name) => name.toLowerCase()));
  if (next.apiKeyName && taken.has(next.apiKeyName.toLowerCase())) {
    throw invalidInput(`additionalHeaders: ${next.apiKeyName} is already the apiKeyName header.`);
  }
  return next;
}

export async function createSubscription(
  ports: ManagePorts,
  organizationId: string,
  input: SubscriptionFields & { url: string; events: EventType[] },
): Promise<{ webhook: Webhook; secret: string }> {
  await checkPlanAllows(ports, organizationId, input.events);
  const now = ports.clock.now().toISOString();
  const id = ports.newId();
  const secret = newSigningSecret();
  const webhook: Webhook = {
    id,
    organizationId,
    kind: 'SUBSCRIPTION',
    url: await checkedUrl(ports, 'url', input.url),
    status: input.status ?? 'ACTIVE',
    events: unique(input.events),
    ...(input.description && { description: input.description }),
    signingSecrets: [{ sealed: await ports.secrets.seal(secret, secretContext({ organizationId, id }, 'signing-secret')), createdAt: now }],
    createdAt: now,
    updatedAt: now,
    revision: 1,
  };
  await createWithinLimit(ports, webhook);
  return { webhook, secret };
}

/**
 * Changes a webhook through the subscription API: fields sent overwrite, fields left out stay.
 * A legacy export webhook keeps its single event type; its description is its name.
 */
export async function updateSubscription(
  ports: ManagePorts,
  organizationId: string,
  id: string,
  input: SubscriptionFields,
): Promise<Webhook> {
  const current = await requireWebhook(ports, organizationId, id);
  const next: Webhook = { ...current, updatedAt: ports.clock.now().toISOString() };
  if (input.events !== undefined) {
    if (current.kind === 'EXPORT_WEBHOOK' && (input.events.length !== 1 || input.events[0] !== 'MAPPING_COMPLETED')) {
      throw invalidInput(
        'events: a legacy export webhook receives MAPPING_COMPLETED only; create a webhook subscription for other events.',
      );
    }
    await checkPlanAllows(ports, organizationId, input.events);
    next.events = unique(input.events);
  }
  if (input.url !== undefined) next.url = await checkedUrl(ports, 'url', input.url);
  if (input.status !== undefined) next.status = input.status;
  if (input.description !== undefined) next.description = input.description ?? undefined;
  return save(ports, next);
}

/** A new signing secret; each earlier one still live keeps signing alongside it for 24 hours. */
export async function rotateSigningSecret(
  ports: ManagePorts,
  organizationId: string,
  id: string,
): Promise<{ webhook: Webhook; secret: string; previousSecretExpiresAt: string }> {
  const current = await requireWebhook(ports, organizationId, id);
  if (current.kind !== 'SUBSCRIPTION') throw legacyHasNoSigning();
  const now = ports.clock.now();
  const previousSecretExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_HOURS * 3_600_000).toISOString();
  const secret = newSigningSecret();
  const live = liveSigningSecrets(current, now);
  if (live.length >= MAX_LIVE_SECRETS) {
    throw conflict(
      `${MAX_LIVE_SECRETS} secrets already sign this subscription's deliveries; rotate again after ${live.at(-1)!.expiresAt}.`,
    );
  }
  const [currentSecret, ...earlier] = live;
  const webhook: Webhook = {
    ...current,
    updatedAt: now.toISOString(),
    signingSecrets: [
      { sealed: await ports.secrets.seal(secret, secretContext(current, 'signing-secret')), createdAt: now.toISOString() },
      ...(currentSecret ? [{ ...currentSecret, expiresAt: previousSecretExpiresAt }] : []),
      ...earlier,
    ],
  };
  return { webhook: await save(ports, webhook), secret, previousSecretExpiresAt };
}

export async function deleteWebhook(
  ports: Pick<ManagePorts, 'webhooks'>,
  organizationId: string,
  id: string,
  kind?: WebhookKind,
): Promise<void> {
  const current = await ports.webhooks.get(organizationId, id);
  if (!current || (kind && current.kind !== kind)) throw notFound(missing(id, kind));
  await ports.webhooks.delete(organizationId, id);
}

export async function requireWebhook(ports: Pick<ManagePorts, 'webhooks'>, organizationId: string, id: string): Promise<Webhook> {
  const webhook = await ports.webhooks.get(organizationId, id);
  if (!webhook) throw notFound(missing(id));
  return webhook;
}

export function legacyHasNoSigning() {
  return conflict(
    'A legacy export webhook is not signed and has no test events or delivery retries; create a webhook subscription instead.',
  );
}

/** 403 naming the cheapest plan that includes a type the organization's plan does not. */
export async function checkPlanAllows(
  ports: Pick<ManagePorts, 'planOf'>,
  organizationId: string,
  events: readonly EventType[],
): Promise<void> {
  const plan = await ports.planOf(organizationId);
  const gated = events.find((type) => !planAllowsEvent(plan, type));
  if (gated) {
    throw forbidden(
      `${gated} events need the ${lowestPlanName(gated)} plan or higher; your organization is on ${PLAN_LIMITS[plan].displayName}. ` +
        'See GET /api/v1/billing/plans.',
    );
  }
}

async function createWithinLimit(ports: Pick<ManagePorts, 'webhooks'>, webhook: Webhook): Promise<void> {
  if (!(await ports.webhooks.create(webhook))) {
    throw limitReached(`An organization may have at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks; delete one first.`);
  }
}

async function checkedUrl(ports: Pick<ManagePorts, 'destinationProblem'>, field: string, url: string): Promise<string> {
  const problem = await ports.destinationProblem(url);
  if (problem) throw invalidInput(`${field}: ${problem}`);
  return url;
}

/** Saves over the revision that was read: 409 when another request changed it meanwhile. */
async function save(ports: Pick<ManagePorts, 'webhooks'>, webhook: Webhook): Promise<Webhook> {
  if (await ports.webhooks.replace(webhook)) return { ...webhook, revision: webhook.revision + 1 };
  if (!(await ports.webhooks.get(webhook.organizationId, webhook.id))) throw notFound(missing(webhook.id));
  throw conflict(`Webhook ${webhook.id} was changed by another request meanwhile; read it again and retry.`);
}

function missing(id: string, kind?: WebhookKind): string {
  return `Your organization has no ${kind === 'EXPORT_WEBHOOK' ? 'export webhook' : 'webhook subscription'} ${id}.`;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
