/**
 * What receivers get, as schemas: the OpenAPI document's `webhooks` section is generated from
 * these, and the tests check real deliveries against them.
 */
import * as v from 'valibot';
import { EVENT_CATALOGUE, EVENT_TYPES, lowestPlanName, MappingCompletedCore, type EventType } from '../events';
import type { WebhookDescription } from '../platform/http/openapi';
import { Timestamp } from '../platform/http/schemas';

const envelope = <T extends EventType>(type: T) =>
  v.object({
    id: v.pipe(v.string(), v.description('The event id, also the webhook-id header: the same on every retry; drop duplicates by it')),
    type: v.literal(type),
    timestamp: v.pipe(Timestamp, v.description('When it happened')),
    organizationId: v.string(),
    test: v.optional(v.pipe(v.literal(true), v.description('Present on synthetic events sent by POST …/test'))),
    data: EVENT_CATALOGUE[type].data,
  });

/** What a subscription receives for each event type: the signed body, the event in its envelope. */
export const EVENT_PAYLOADS = {
  MAPPING_COMPLETED: envelope('MAPPING_COMPLETED'),
  MAPPING_ERROR_RESOLVED: envelope('MAPPING_ERROR_RESOLVED'),
  MAPPING_BOOK_CHANGED: envelope('MAPPING_BOOK_CHANGED'),
  INVENTORY_DUPLICATE_RESOLVED: envelope('INVENTORY_DUPLICATE_RESOLVED'),
  DELIVERY_DESTINATION_DISABLED: envelope('DELIVERY_DESTINATION_DISABLED'),
} satisfies Record<EventType, v.GenericSchema>;

/** A subscription delivery's body, of whichever event type. */
export type EventPayload = v.InferOutput<(typeof EVENT_PAYLOADS)[EventType]>;

/** What a legacy export webhook receives: the unsigned mapping.completed call, flat, without an envelope. */
const LegacyMappingCompletedCall = v.object({
  event: v.literal('mapping.completed'),
  timestamp: Timestamp,
  ...MappingCompletedCore.entries,
});

/**
 * The bodies as the document names them (components.schemas): each event's, referenced by its
 * webhook and by a delivery's payload, and the legacy call's, named apart from MAPPING_COMPLETED's
 * so that generated code gives the two distinct identifiers.
 */
export const webhookPayloadComponentSchemas = {
  MappingCompletedEvent: EVENT_PAYLOADS.MAPPING_COMPLETED,
  MappingErrorResolvedEvent: EVENT_PAYLOADS.MAPPING_ERROR_RESOLVED,
  MappingBookChangedEvent: EVENT_PAYLOADS.MAPPING_BOOK_CHANGED,
  InventoryDuplicateResolvedEvent: EVENT_PAYLOADS.INVENTORY_DUPLICATE_RESOLVED,
  DeliveryDestinationDisabledEvent: EVENT_PAYLOADS.DELIVERY_DESTINATION_DISABLED,
  LegacyMappingCompletedCall,
} as const;

const SIGNED_HEADERS = [
  { name: 'webhook-id', description: 'The event id (Standard Webhooks)' },
  { name: 'webhook-timestamp', description: "The attempt's time, Unix seconds; refuse ones more than 5 minutes off" },
  {
    name: 'webhook-signature',
    description:
      '`v1,<signature>`: the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the base64-decoded part of the `whsec_` secret; ' +
      'two, space-separated, during a rotation',
  },
  { name: 'X-Webhook-Signature', description: 'The same value as webhook-signature' },
];
/** How a receiver checks a delivery: in the document itself, where partners read it (the "Webhook events" tag). */
export const WEBHOOK_VERIFICATION = `What the service sends to a webhook subscription: one POST per event, JSON, signed as the
[Standard Webhooks](https://www.standardwebhooks.com/) specification says. Check every delivery before trusting it, over
the raw body, before parsing it:

- \`webhook-id\`: the event id, the same on every attempt; drop a delivery whose id you have seen.
- \`webhook-timestamp\`: the attempt's time in Unix seconds; refuse one more than 5 minutes off your clock.
- \`webhook-signature\`: \`v1,<signature>\`, where the signature is the base64 HMAC-SHA256 of
  \`<webhook-id>.<webhook-timestamp>.<raw body>\` keyed with the base64-decoded part of your \`whsec_…\` secret after
  the prefix. During a secret rotation's 24 hours there are two, space-separated: accept either.

With a Standard Webhooks library (JavaScript \`standardwebhooks\`, and its ports to Python, Go, Java, Ruby, PHP…):

\`\`\`js
import { Webhook } from 'standardwebhooks';
const event = new Webhook(secret).verify(rawBody, headers); // throws when the signature or the time is wrong
\`\`\`

By hand (Node.js):

\`\`\`js
import { createHmac, timingSafeEqual } from 'node:crypto';
const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
const signed = \`\${headers['webhook-id']}.\${headers['webhook-timestamp']}.\${rawBody}\`;
const expected = Buffer.from(\`v1,\${createHmac('sha256', key).update(signed).digest('base64')}\`);
const ok = headers['webhook-signature'].split(' ').some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected));
\`\`\`

Answer any 2xx within 10 seconds. The legacy \`mapping.completed\` call of export webhooks is not signed.`;

const RETRIES =
  'A non-2xx answer (or none within 10 s; redirects are not followed) is retried 1, 5 and 30 minutes after the failure, then dead-lettered.';

function planNote(type: EventType): string {
  return EVENT_CATALOGUE[type].lowestPlan === 'FREE' ? 'Every plan.' : `The ${lowestPlanName(type)} plan and those above it.`;
}

export const webhookDescriptions: Record<string, WebhookDescription> = {
  ...Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        summary: EVENT_CATALOGUE[type].summary,
        description: `Sent to subscriptions that chose ${type}. ${planNote(type)} Signed (how to check it: the Webhook events section). ${RETRIES}`,
        headers: SIGNED_HEADERS,
        body: EVENT_PAYLOADS[type],
      },
    ]),
  ),
  // Not "mapping.completed": generators would make the same identifier of it as of MAPPING_COMPLETED.
  legacyMappingCompleted: {
    summary: 'A mapping job completed: the mapping.completed call of legacy export webhooks (deprecated)',
    description:
      'Sent once, unsigned, without retries, with the configured apiKeyName: apiKeyValue header and additionalHeaders. ' +
      'The body says `"event": "mapping.completed"`.',
    headers: [],
    body: LegacyMappingCompletedCall,
  },
};
