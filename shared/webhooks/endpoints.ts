/** The webhook endpoints: legacy export webhooks, subscriptions, their deliveries and test events. */
import { randomUUID } from 'node:crypto';
import { invalidInput, notFound, rateLimited } from '../platform/errors';
import { rateLimiterOf } from '../platform/rate-limits';
import type { Runtime } from '../platform/runtime';
import type { Implementation } from '../platform/http/endpoint';
import { subscriptionDeliveryStatus } from './delivery';
import { redeliver as redeliverDelivery, startDelivery } from './dispatch';
import * as manage from './manage';
import { legacyWebhookRoutes, subscriptionRoutes } from './routes';
import { sampleData } from '../events';
import { managePorts, startPorts } from './services';
import { deliveryStoreOf, webhookStoreOf } from './store';
import { deliveryDetailView, deliveryView, legacyWebhookView, subscriptionView } from './views';

/** Test events per organization and minute: each holds a delivery worker up to 10 s. */
const TEST_EVENT_RATE = { bucket: 'webhook-test', limit: 10, windowSeconds: 60 };

type Legacy = typeof legacyWebhookRoutes;
type Subscriptions = typeof subscriptionRoutes;

export const createLegacyWebhook: Implementation<Legacy['createLegacyWebhook']> = async ({ principal, body }, runtime) => {
  const webhook = await manage.createLegacyWebhook(managePorts(runtime), principal.organizationId, body);
  return { status: 201, json: legacyWebhookView(webhook) };
};

export const listLegacyWebhooks: Implementation<Legacy['listLegacyWebhooks']> = async ({ principal, query }, runtime) => {
  const webhooks = (await webhookStoreOf(runtime).list(principal.organizationId)).filter(
    (webhook) => webhook.kind === 'EXPORT_WEBHOOK' && (!query.activeOnly || webhook.status === 'ACTIVE'),
  );
  return { status: 200, json: { webhooks: webhooks.map(legacyWebhookView), total: webhooks.length } };
};

export const getLegacyWebhook: Implementation<Legacy['getLegacyWebhook']> = async ({ principal, params }, runtime) => {
  const webhook = await webhookStoreOf(runtime).get(principal.organizationId, params.id);
  if (webhook?.kind !== 'EXPORT_WEBHOOK') throw notFound(`Your organization has no export webhook ${params.id}.`);
  return { status: 200, json: legacyWebhookView(webhook) };
};

export const replaceLegacyWebhook: Implementation<Legacy['replaceLegacyWebhook']> = async ({ principal, params, body }, runtime) => {
  const webhook = await manage.replaceLegacyWebhook(managePorts(runtime), principal.organizationId, params.id, body);
  return { status: 200, json: legacyWebhookView(webhook) };
};

export const deleteLegacyWebhook: Implementation<Legacy['deleteLegacyWebhook']> = async ({ principal, params }, runtime) => {
  await manage.deleteWebhook({ webhooks: webhookStoreOf(runtime) }, principal.organizationId, params.id, 'EXPORT_WEBHOOK');
  return { status: 204 };
};

export const createWebhookSubscription: Implementation<Subscriptions['createWebhookSubscription']> = async (
  { principal, body },
  runtime,
) => {
  const { webhook, secret } = await manage.createSubscription(managePorts(runtime), principal.organizationId, body);
  return { status: 201, json: { ...subscriptionView(webhook), secret } };
};

export const listWebhookSubscriptions: Implementation<Subscriptions['listWebhookSubscriptions']> = async ({ principal }, runtime) => {
  const webhooks = await webhookStoreOf(runtime).list(principal.organizationId);
  return { status: 200, json: { subscriptions: webhooks.map(subscriptionView), total: webhooks.length } };
};

export const getWebhookSubscription: Implementation<Subscriptions['getWebhookSubscription']> = async ({ principal, params }, runtime) => {
  const webhook = await manage.requireWebhook({ webhooks: webhookStoreOf(runtime) }, principal.organizationId, params.id);
  return { status: 200, json: subscriptionView(webhook) };
};

export const updateWebhookSubscription: Implementation<Subscriptions['updateWebhookSubscription']> = async (
  { principal, params, body },
  runtime,
) => {
  const webhook = await manage.updateSubscription(managePorts(runtime), principal.organizationId, params.id, body);
  return { status: 200, json: subscriptionView(webhook) };
};

export const deleteWebhookSubscription: Implementation<Subscriptions['deleteWebhookSubscription']> = async (
  { principal, params },
  runtime,
) => {
  await manage.deleteWebhook({ webhooks: webhookStoreOf(runtime) }, principal.organizationId, params.id);
  return { status: 204 };
};

export const rotateSigningSecret: Implementation<Subscriptions['rotateSigningSecret']> = async ({ principal, params }, runtime) => {
  const { secret, previousSecretExpiresAt } = await manage.rotateSigningSecret(managePorts(runtime), principal.organizationId, params.id);
  return { status: 200, json: { secret, previousSecretExpiresAt } };
};

export const listDeliveries: Implementation<Subscriptions['listDeliveries']> = async ({ principal, params, query }, runtime) => {
  await manage.requireWebhook({ webhooks: webhookStoreOf(runtime) }, principal.organizationId, params.id);
  const page = await deliveryStoreOf(runtime).list(principal.organizationId, params.id, {
    status: query.status,
    limit: query.limit ?? 20,
    cursor: query.cursor,
  });
  return { status: 200, json: { deliveries: page.deliveries.map(deliveryView), nextCursor: page.nextCursor } };
};

export const getDelivery: Implementation<Subscriptions['getDelivery']> = async ({ principal, params }, runtime) => {
  return { status: 200, json: deliveryDetailView(await requireDelivery(runtime, principal.organizationId, params)) };
};

export const redeliver: Implementation<Subscriptions['redeliver']> = async ({ principal, params }, runtime) => {
  const delivery = await requireDelivery(runtime, principal.organizationId, params);
  return { status: 202, json: deliveryView(await redeliverDelivery(startPorts(runtime), delivery)) };
};

export const sendTestEvent: Implementation<Subscriptions['sendTestEvent']> = async ({ principal, params, body }, runtime) => {
  const webhook = await manage.requireWebhook({ webhooks: webhookStoreOf(runtime) }, principal.organizationId, params.id);
  if (webhook.kind !== 'SUBSCRIPTION') throw manage.legacyHasNoSigning();
  if (!webhook.events.includes(body.eventType)) {
    throw invalidInput(`eventType: this subscription receives ${webhook.events.join(', ')}, not ${body.eventType}.`);
  }
  // A plan that lost the type (a downgrade) gets no test events of it either.
  await manage.checkPlanAllows(managePorts(runtime), webhook.organizationId, [body.eventType]);
  if (!(await rateLimiterOf(runtime).tryConsume(webhook.organizationId, TEST_EVENT_RATE, runtime.clock.now()))) {
    throw rateLimited(`At most ${TEST_EVENT_RATE.limit} test events per minute; try again shortly.`);
  }
  const occurredAt = runtime.clock.now().toISOString();
  const event = {
    id: randomUUID(),
    type: body.eventType,
    organizationId: webhook.organizationId,
    occurredAt,
    data: sampleData(body.eventType, occurredAt),
  };
  const delivery = await startDelivery(startPorts(runtime), webhook, event, { test: true });
  return { status: 202, json: { deliveryId: delivery.id, eventId: event.id, status: subscriptionDeliveryStatus(delivery.status) } };
};

async function requireDelivery(runtime: Runtime, organizationId: string, params: { id: string; deliveryId: string }) {
  await manage.requireWebhook({ webhooks: webhookStoreOf(runtime) }, organizationId, params.id);
  const delivery = await deliveryStoreOf(runtime).get(organizationId, params.deliveryId);
  if (!delivery || delivery.webhookId !== params.id || delivery.kind !== 'SUBSCRIPTION') {
    throw notFound(`Subscription ${params.id} has no delivery ${params.deliveryId}.`);
  }
  return delivery;
}
