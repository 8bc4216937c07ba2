import * as v from 'valibot';
import { EVENT_TYPES } from '../events';
import { booleanParam, documentedWithJsonSchema, NextCursor, pageQuery, Text, Timestamp, Uuid } from '../platform/http/schemas';
import { SUBSCRIPTION_DELIVERY_STATUSES } from './delivery';
import { MAX_URL_LENGTH } from '../platform/network/destinations';
import { WEBHOOK_KINDS, WEBHOOK_STATUSES } from './webhook';
import { EVENT_PAYLOADS, webhookPayloadComponentSchemas } from './payloads';

/** Headers the service sets itself; a partner's header may not replace them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'x-webhook-signature',
]);

const HeaderName = v.pipe(
  v.string(),
  v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be an HTTP header name of at most 100 characters, without spaces'),
  v.check(
    (name) => !RESERVED_HEADERS.has(name.toLowerCase()) && !name.toLowerCase().startsWith('proxy-'),
    'is a header the service sets itself',
  ),
);
const HeaderValue = v.pipe(
  v.string(),
  v.maxLength(1000, 'must be at most 1,000 characters'),
  // Visible Latin-1 and tab only: no line break can start another header, and nothing HTTP
  // (or Node, which refuses it when sending) cannot carry.
  v.regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'must hold only printable Latin-1 characters (no line breaks or control characters)'),
);
/**
 * Credentials belong in apiKeyName/apiKeyValue, which is stored encrypted and never shown. A cookie
 * header of any name (Cookie2, Set-Cookie) carries a session as Cookie does.
 */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization)$|cookie|key|token|secret|passw|auth/i;
const AdditionalHeaders = v.pipe(
  // A JSON array would pass as a record (its indexes as keys): refused as what it is.
  v.custom<Record<string, string>>(
    (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
    'must be an object of header name -> value',
  ),
  documentedWithJsonSchema<Record<string, string>>({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 1000 },
    maxProperties: 20,
    description: 'Header name -> value, added to every delivery',
  }),
  v.record(
    v.pipe(
      HeaderName,
      v.check(
        (name) => !CREDENTIAL_HEADER.test(name),
        'looks like a credential: send it as apiKeyName and apiKeyValue, which are stored encrypted',
      ),
    ),
    HeaderValue,
  ),
  v.check((headers) => Object.keys(headers).length <= 20, 'at most 20 headers'),
  v.check(
    (headers) => new Set(Object.keys(headers).map((name) => name.toLowerCase())).size === Object.keys(headers).length,
    'names must differ (case-insensitively)',
  ),
  v.description('Header name -> value, added to every delivery'),
);
// No control characters: the URL parser would drop a line break silently and store another URL than it checks.
const WebhookUrl = v.pipe(
  Text({ maxLength: MAX_URL_LENGTH }),
  v.description('https:// URL on a public address (checked again after DNS resolution on every delivery)'),
);
const Label = (max: number) => Text({ maxLength: max });
const Status = v.pipe(
  v.picklist(WEBHOOK_STATUSES, 'must be ACTIVE or INACTIVE'),
  v.description('INACTIVE pauses deliveries; default ACTIVE'),
);
const EventTypes = v.pipe(
  v.array(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`)),
  v.minLength(1, 'must name at least one event type'),
  v.description(`Event types to receive: ${EVENT_TYPES.join(', ')} (which ones your plan allows: GET /api/v1/billing/plans)`),
);

const WebhookId = v.pipe(Uuid, v.description("The webhook's id"), v.examples(['7d1e4f2a-9b3c-4c8d-8e5f-1a2b3c4d5e6f']));
export const WebhookIdParams = v.object({ id: WebhookId });
export const DeliveryParams = v.object({
  id: WebhookId,
  deliveryId: v.pipe(
    Uuid,
    v.description("A delivery's id, from the delivery history or a test event"),
    v.examples(['c4a8e2f6-1b3d-4f5a-9c7e-0d2b4f6a8c1e']),
  ),
});

// Legacy export webhooks (deprecated).

const legacyFields = {
  name: v.optional(v.nullable(v.pipe(Label(100), v.description('A label')))),
  apiKeyName: v.optional(v.nullable(v.pipe(HeaderName, v.description('Header sent with apiKeyValue on every delivery')))),
  apiKeyValue: v.optional(
    v.nullable(v.pipe(HeaderValue, v.minLength(1, 'must not be empty'), v.description('Stored encrypted; never returned'))),
  ),
  additionalHeaders: v.optional(v.nullable(AdditionalHeaders)),
  status: v.optional(Status),
};

export const CreateLegacyWebhookRequest = v.strictObject({ webhookUrl: WebhookUrl, ...legacyFields });
export const ReplaceLegacyWebhookRequest = v.strictObject({ webhookUrl: v.optional(WebhookUrl), ...legacyFields });

export const LegacyWebhookView = v.object({
  id: v.pipe(Uuid, v.description('Also its id under /api/v1/webhook-subscriptions')),
  name: v.nullable(v.string()),
  webhookUrl: v.string(),
  apiKeyName: v.nullable(v.string()),
  apiKeyValueHint: v.pipe(v.nullable(v.string()), v.description('The last four characters of apiKeyValue, e.g. "…f00d"')),
  additionalHeaders: v.record(v.string(), v.string()),
  status: v.picklist(WEBHOOK_STATUSES),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const LegacyWebhookList = v.object({ webhooks: v.array(LegacyWebhookView), total: v.number() });

export const LegacyListQuery = v.strictObject({
  activeOnly: v.optional(v.pipe(booleanParam, v.description('true lists only ACTIVE webhooks; default false'), v.examples([true]))),
});

// Webhook subscriptions.

export const CreateSubscriptionRequest = v.strictObject({
  url: WebhookUrl,
  events: EventTypes,
  status: v.optional(Status),
  description: v.optional(v.nullable(Label(500))),
});

export const UpdateSubscriptionRequest = v.strictObject({
  url: v.optional(WebhookUrl),
  events: v.optional(EventTypes),
  status: v.optional(Status),
  description: v.optional(v.nullable(Label(500))),
});

export const SubscriptionView = v.object({
  id: Uuid,
  kind: v.pipe(
    v.picklist(WEBHOOK_KINDS),
    v.description('EXPORT_WEBHOOK: made through the deprecated /export-webhooks (unsigned, one attempt)'),
  ),
  url: v.string(),
  events: v.array(v.picklist(EVENT_TYPES)),
  status: v.picklist(WEBHOOK_STATUSES),
  description: v.nullable(v.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const CreatedSubscription = v.object({
  ...SubscriptionView.entries,
  secret: v.pipe(v.string(), v.description('The whsec_ signing secret. Shown only here and on rotation: store it safely.')),
});

export const SubscriptionList = v.object({ subscriptions: v.array(SubscriptionView), total: v.number() });

export const RotatedSecret = v.object({
  secret: v.pipe(v.string(), v.description('The new whsec_ signing secret, shown only here')),
  previousSecretExpiresAt: v.pipe(Timestamp, v.description('Until then deliveries carry a signature with the previous secret too')),
});

const AttemptView = v.object({
  number: v.number(),
  attemptedAt: Timestamp,
  succeeded: v.boolean(),
  statusCode: v.nullable(v.number()),
  durationMs: v.number(),
  responseBody: v.pipe(v.nullable(v.string()), v.description("The first 1,024 bytes of the receiver's answer")),
  error: v.nullable(v.string()),
});

export const DeliveryView = v.object({
  id: Uuid,
  subscriptionId: Uuid,
  eventId: v.string(),
  eventType: v.picklist(EVENT_TYPES),
  test: v.boolean(),
  status: v.pipe(
    v.picklist(SUBSCRIPTION_DELIVERY_STATUSES),
    v.description(
      'PENDING (an attempt is queued), RETRYING (a retry is scheduled), SUCCEEDED, DEAD_LETTERED (every attempt failed, or the webhook was paused or deleted)',
    ),
  ),
  attemptCount: v.number(),
  nextAttemptAt: v.nullable(Timestamp),
  lastAttempt: v.nullable(AttemptView),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const DeliveryDetail = v.object({
  ...DeliveryView.entries,
  payload: v.pipe(
    v.variant(
      'type',
      EVENT_TYPES.map((type) => EVENT_PAYLOADS[type]),
    ),
    v.description('The body every attempt sends: the event, as the Webhook events section documents it for its type'),
  ),
  attempts: v.array(AttemptView),
});

export const DeliveryList = v.object({ deliveries: v.array(DeliveryView), nextCursor: NextCursor });

export const DeliveryListQuery = v.strictObject({
  ...pageQuery(20, 100),
  status: v.optional(
    v.pipe(
      v.picklist(SUBSCRIPTION_DELIVERY_STATUSES, `must be one of ${SUBSCRIPTION_DELIVERY_STATUSES.join(', ')}`),
      v.description('Only deliveries in this status'),
      v.examples(['DEAD_LETTERED']),
    ),
  ),
});

export const TestEventRequest = v.strictObject({
  eventType: v.pipe(
    v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`),
    v.description("One of the subscription's event types"),
  ),
});

export const TestEventAccepted = v.object({
  deliveryId: Uuid,
  eventId: Uuid,
  status: v.picklist(SUBSCRIPTION_DELIVERY_STATUSES),
});

/** The shapes the OpenAPI document names (components.schemas), each written once and referenced. */
export const webhookComponentSchemas = {
  WebhookSubscription: SubscriptionView,
  WebhookSubscriptionList: SubscriptionList,
  WebhookDelivery: DeliveryView,
  WebhookDeliveryDetail: DeliveryDetail,
  WebhookDeliveryPage: DeliveryList,
  WebhookDeliveryAttempt: AttemptView,
  ...webhookPayloadComponentSchemas,
  LegacyExportWebhook: LegacyWebhookView,
} as const;
