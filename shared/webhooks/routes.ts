import { defineRoute, type RouteDefinition } from '../platform/http/route';
import { errors } from '../platform/http/responses';
import { ErrorResponse } from '../platform/http/schemas';
import * as schemas from './schemas';

const LEGACY_TAG = 'Export webhooks (deprecated)';
const TAG = 'Webhook subscriptions';
const SUCCESSOR = '/api/v1/webhook-subscriptions';
const deprecated = { since: '2026-11-23', successor: SUCCESSOR };
const LEGACY_NOTE =
  'Deprecated: use /api/v1/webhook-subscriptions (signed, retried, with delivery history). Answers carry `Deprecation` and ' +
  '`Link: </api/v1/webhook-subscriptions>; rel="successor-version"`. ';
const urlRules =
  'webhookUrl must be https:// and resolve to a public address: private, loopback, link-local, multicast and cloud-metadata ' +
  'addresses are refused, now and again after DNS resolution on every delivery.';

const saveErrors = {
  400: { description: 'Invalid body, a URL that may not receive webhooks, or the limit of 20 webhooks reached', schema: ErrorResponse },
  401: errors[401],
  413: errors[413],
  415: errors[415],
} as const;
const notFound = { 404: { description: 'Your organization has no webhook with this id', schema: ErrorResponse } } as const;
const changedMeanwhile = {
  409: { description: 'Another request changed the webhook meanwhile: read it again and retry', schema: ErrorResponse },
} as const;

export const legacyWebhookRoutes = {
  createLegacyWebhook: defineRoute({
    method: 'POST',
    path: '/api/v1/export-webhooks',
    handler: 'webhooks/legacy/create',
    idempotent: true,
    auth: 'required',
    tag: LEGACY_TAG,
    deprecated,
    summary: 'Register a webhook for mapping.completed (deprecated)',
    description:
      LEGACY_NOTE +
      urlRules +
      ' Each completed mapping job is POSTed once as `{"event": "mapping.completed", "timestamp", "mappingJobId", ' +
      '"partnerInventoryId", "mode", "status", "counts", "createdAt", "completedAt"}`, unsigned and without retries, with ' +
      '`apiKeyName: apiKeyValue` and additionalHeaders. apiKeyValue is stored encrypted and never returned.',
    body: {
      kind: 'json',
      schema: schemas.CreateLegacyWebhookRequest,
      example: {
        webhookUrl: 'https://hooks.partner.example/mapping-completed',
        name: 'Mapping done',
        apiKeyName: 'X-Partner-Key',
        apiKeyValue: 'partner-secret-value',
        status: 'ACTIVE',
      },
    },
    responses: { 201: { description: 'The webhook', schema: schemas.LegacyWebhookView }, ...saveErrors },
    access: { table: 'readwrite', secrets: 'seal' },
  }),
  listLegacyWebhooks: defineRoute({
    method: 'GET',
    path: '/api/v1/export-webhooks',
    handler: 'webhooks/legacy/list',
    auth: 'required',
    tag: LEGACY_TAG,
    deprecated,
    summary: "List the organization's export webhooks (deprecated)",
    description: LEGACY_NOTE + 'Newest first.',
    query: schemas.LegacyListQuery,
    responses: { 200: { description: 'The webhooks', schema: schemas.LegacyWebhookList }, 400: errors[400], 401: errors[401] },
    access: { table: 'read' },
  }),
  getLegacyWebhook: defineRoute({
    method: 'GET',
    path: '/api/v1/export-webhooks/{id}',
    handler: 'webhooks/legacy/get',
    auth: 'required',
    tag: LEGACY_TAG,
    deprecated,
    summary: 'One export webhook (deprecated)',
    description: LEGACY_NOTE,
    params: schemas.WebhookIdParams,
    responses: { 200: { description: 'The webhook', schema: schemas.LegacyWebhookView }, 400: errors[400], 401: errors[401], ...notFound },
    access: { table: 'read' },
  }),
  replaceLegacyWebhook: defineRoute({
    method: 'PUT',
    path: '/api/v1/export-webhooks/{id}',
    handler: 'webhooks/legacy/replace',
    auth: 'required',
    tag: LEGACY_TAG,
    deprecated,
    summary: 'Change an export webhook (deprecated)',
    description:
      LEGACY_NOTE +
      'Every field in the body overwrites the current value; a field left out keeps its value (so apiKeyValue need not be ' +
      'sent again); null clears name, apiKeyName with apiKeyValue, or additionalHeaders. status INACTIVE pauses deliveries. ' +
      urlRules,
    params: schemas.WebhookIdParams,
    body: {
      kind: 'json',
      schema: schemas.ReplaceLegacyWebhookRequest,
      example: { webhookUrl: 'https://hooks.partner.example/mapping-completed', name: 'Mapping done', status: 'INACTIVE' },
    },
    responses: {
      200: { description: 'The webhook as replaced', schema: schemas.LegacyWebhookView },
      ...saveErrors,
      ...notFound,
      ...changedMeanwhile,
    },
    access: { table: 'readwrite', secrets: 'seal' },
  }),
  deleteLegacyWebhook: defineRoute({
    method: 'DELETE',
    path: '/api/v1/export-webhooks/{id}',
    handler: 'webhooks/legacy/delete',
    auth: 'required',
    tag: LEGACY_TAG,
    deprecated,
    summary: 'Delete an export webhook, permanently (deprecated)',
    description: LEGACY_NOTE,
    params: schemas.WebhookIdParams,
    responses: { 204: { description: 'Deleted' }, 400: errors[400], 401: errors[401], ...notFound },
    access: { table: 'readwrite' },
  }),
} satisfies Record<string, RouteDefinition>;

export const subscriptionRoutes = {
  createWebhookSubscription: defineRoute({
    method: 'POST',
    path: '/api/v1/webhook-subscriptions',
    handler: 'webhooks/subscriptions/create',
    idempotent: 'sealed',
    auth: 'required',
    tag: TAG,
    summary: 'Subscribe a URL to event types; the signing secret is shown only in this answer',
    description:
      'Deliveries are signed (Standard Webhooks and X-Webhook-Signature), retried 1, 5 and 30 minutes after a failed attempt, ' +
      'then dead-lettered; see the README (Webhooks) for the payload and how to verify it. The url must be https:// and resolve ' +
      'to a public address. Event types beyond your plan answer 403 naming the plan that includes them.',
    body: {
      kind: 'json',
      schema: schemas.CreateSubscriptionRequest,
      example: {
        url: 'https://hooks.partner.example/hotel-mapping',
        events: ['MAPPING_COMPLETED', 'MAPPING_ERROR_RESOLVED'],
        description: 'Production receiver',
      },
    },
    responses: {
      201: { description: 'The subscription and its signing secret', schema: schemas.CreatedSubscription },
      ...saveErrors,
      403: { description: 'An event type your plan does not include', schema: ErrorResponse },
    },
    // The signing secret is sealed; a repeated create (Idempotency-Key) opens its kept answer.
    access: { table: 'readwrite', secrets: 'both' },
  }),
  listWebhookSubscriptions: defineRoute({
    method: 'GET',
    path: '/api/v1/webhook-subscriptions',
    handler: 'webhooks/subscriptions/list',
    auth: 'required',
    tag: TAG,
    summary: "List the organization's webhooks, legacy export webhooks included (newest first)",
    description: 'Each webhook with its URL, events and status; never a secret. Legacy export webhooks are listed too, under the same ids.',
    responses: { 200: { description: 'Every webhook (at most 20)', schema: schemas.SubscriptionList }, 401: errors[401] },
    access: { table: 'read' },
  }),
  getWebhookSubscription: defineRoute({
    method: 'GET',
    path: '/api/v1/webhook-subscriptions/{id}',
    handler: 'webhooks/subscriptions/get',
    auth: 'required',
    tag: TAG,
    summary: 'One webhook subscription (or legacy export webhook, by the same id)',
    description: "The subscription's URL, events, status and description; its secrets are never shown again after they were made.",
    params: schemas.WebhookIdParams,
    responses: {
      200: { description: 'The subscription', schema: schemas.SubscriptionView },
      400: errors[400],
      401: errors[401],
      ...notFound,
    },
    access: { table: 'read' },
  }),
  updateWebhookSubscription: defineRoute({
    method: 'PUT',
    path: '/api/v1/webhook-subscriptions/{id}',
    handler: 'webhooks/subscriptions/update',
    auth: 'required',
    tag: TAG,
    summary: 'Change a subscription: fields sent overwrite, fields left out stay',
    description:
      'status INACTIVE pauses deliveries (a retry due meanwhile is dead-lettered; redeliver it later). A legacy export webhook ' +
      'keeps MAPPING_COMPLETED as its only event type.',
    params: schemas.WebhookIdParams,
    body: { kind: 'json', schema: schemas.UpdateSubscriptionRequest, example: { events: ['MAPPING_COMPLETED'], status: 'ACTIVE' } },
    responses: {
      200: { description: 'The subscription as changed', schema: schemas.SubscriptionView },
      ...saveErrors,
      403: { description: 'An event type your plan does not include', schema: ErrorResponse },
      ...notFound,
      ...changedMeanwhile,
    },
    access: { table: 'readwrite' },
  }),
  deleteWebhookSubscription: defineRoute({
    method: 'DELETE',
    path: '/api/v1/webhook-subscriptions/{id}',
    handler: 'webhooks/subscriptions/delete',
    auth: 'required',
    tag: TAG,
    summary: 'Delete a subscription (or legacy export webhook), permanently',
    description: 'Its pending retries end dead-lettered; nothing more is sent to it.',
    params: schemas.WebhookIdParams,
    responses: { 204: { description: 'Deleted' }, 400: errors[400], 401: errors[401], ...notFound },
    access: { table: 'readwrite' },
  }),
  rotateSigningSecret: defineRoute({
    method: 'POST',
    path: '/api/v1/webhook-subscriptions/{id}/rotate-secret',
    handler: 'webhooks/subscriptions/rotate-secret',
    auth: 'required',
    tag: TAG,
    summary: 'Replace the signing secret; the old one keeps signing alongside for 24 hours',
    description:
      'Answers the new secret once. Both secrets sign every delivery for 24 hours (one signature each in `webhook-signature`), so receivers can switch without missing one; at most three secrets sign at once (409 beyond).',
    params: schemas.WebhookIdParams,
    responses: {
      200: { description: 'The new secret, shown only here', schema: schemas.RotatedSecret },
      400: errors[400],
      401: errors[401],
      ...notFound,
      409: {
        description:
          'A legacy export webhook has no signing secret; three secrets already sign; or another request changed the subscription meanwhile',
        schema: ErrorResponse,
      },
    },
    access: { table: 'readwrite', secrets: 'seal' },
  }),
  listDeliveries: defineRoute({
    method: 'GET',
    path: '/api/v1/webhook-subscriptions/{id}/deliveries',
    handler: 'webhooks/subscriptions/deliveries',
    auth: 'required',
    tag: TAG,
    summary: "A subscription's deliveries, newest first, kept 30 days",
    description: 'Filter by status; pass nextCursor as cursor for the next page. Legacy export webhooks keep no history.',
    params: schemas.WebhookIdParams,
    query: schemas.DeliveryListQuery,
    responses: {
      200: { description: 'A page of deliveries', schema: schemas.DeliveryList },
      400: errors[400],
      401: errors[401],
      ...notFound,
    },
    access: { table: 'read' },
  }),
  getDelivery: defineRoute({
    method: 'GET',
    path: '/api/v1/webhook-subscriptions/{id}/deliveries/{deliveryId}',
    handler: 'webhooks/subscriptions/delivery',
    auth: 'required',
    tag: TAG,
    summary: 'One delivery with its payload and every attempt',
    description:
      "The exact body every attempt sent, and each attempt's time, outcome, status code, duration and the first 1,024 bytes of the receiver's answer.",
    params: schemas.DeliveryParams,
    responses: {
      200: { description: 'The delivery', schema: schemas.DeliveryDetail },
      400: errors[400],
      401: errors[401],
      404: { description: 'No such subscription or delivery in your organization', schema: ErrorResponse },
    },
    access: { table: 'read' },
  }),
  redeliver: defineRoute({
    method: 'POST',
    path: '/api/v1/webhook-subscriptions/{id}/deliveries/{deliveryId}/redeliver',
    handler: 'webhooks/subscriptions/redeliver',
    auth: 'required',
    tag: TAG,
    summary: 'Send a dead-lettered delivery again, with a fresh round of retries',
    description:
      'A dead-lettered delivery, or one stuck (nothing under way and nothing due for 15 minutes), is sent again with a new round of retries (1, 5 and 30 minutes). 409 otherwise, while an attempt is under way, and after 16 attempts in all.',
    params: schemas.DeliveryParams,
    responses: {
      202: { description: 'Queued; follow it with GET …/deliveries/{deliveryId}', schema: schemas.DeliveryView },
      400: errors[400],
      401: errors[401],
      404: { description: 'No such subscription or delivery in your organization', schema: ErrorResponse },
      409: { description: 'The delivery is not dead-lettered', schema: ErrorResponse },
    },
    access: { table: 'readwrite', sendsTo: ['webhook-deliveries'] },
  }),
  sendTestEvent: defineRoute({
    method: 'POST',
    path: '/api/v1/webhook-subscriptions/{id}/test',
    handler: 'webhooks/subscriptions/test',
    idempotent: true,
    auth: 'required',
    tag: TAG,
    summary: 'Send a synthetic event of a subscribed type through the same signed, retried path',
    description: 'The payload has `"test": true` and sample data. Sent even when the subscription is INACTIVE.',
    params: schemas.WebhookIdParams,
    body: { kind: 'json', schema: schemas.TestEventRequest, example: { eventType: 'MAPPING_COMPLETED' } },
    responses: {
      202: { description: 'Queued; follow it with GET …/deliveries/{deliveryId}', schema: schemas.TestEventAccepted },
      400: {
        description: 'Invalid body, an event type the subscription does not receive, or more than 10 test events a minute',
        schema: ErrorResponse,
      },
      403: { description: 'An event type your plan no longer includes', schema: ErrorResponse },
      401: errors[401],
      ...notFound,
      409: { description: 'A legacy export webhook has no test events', schema: ErrorResponse },
      413: errors[413],
      415: errors[415],
    },
    access: { table: 'readwrite', sendsTo: ['webhook-deliveries'] },
  }),
} satisfies Record<string, RouteDefinition>;
