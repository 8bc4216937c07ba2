/**
 * The document as a strict client reads it: every bound it states is one the server enforces (a
 * clamped parameter states none and says it clamps), every name a generator turns into an
 * identifier stays distinct, a delivery's payload has the events' schemas, and no description
 * holds text that the reference page's Markdown would take for an HTML tag.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { EVENT_TYPES } from '../../shared/events';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';
import { startTestApi } from '../support/test-api';

interface ParameterSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description?: string;
  example?: unknown;
  schema: ParameterSchema;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<
    string,
    { post: { operationId: string; requestBody: { content: { 'application/json': { schema: Record<string, unknown> } } } } }
  >;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
}

const api = await startTestApi({ config: { localAllowances: [LOOPBACK_DESTINATIONS] } });
const document = (await api.request('GET', '/api/v1/openapi.json')).body as Document;
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
);
const CLAMPED_LIMITS = [
  ['/api/v1/reference/search', 1, 100],
  ['/api/v1/reference/search/advanced', 1, 100],
  ['/api/v1/reference/statistics/countries', 1, 200],
] as const;

/** The values just outside what a parameter's schema states, each of which the server must refuse. */
function outside(schema: ParameterSchema): number[] {
  const values: number[] = [];
  if (schema.minimum !== undefined) values.push(schema.minimum - 1);
  if (schema.maximum !== undefined) values.push(schema.maximum + 1);
  if (schema.exclusiveMinimum !== undefined) values.push(schema.exclusiveMinimum);
  return values;
}

/** What a code generator makes of a name: its words, joined without separators or case (MAPPING_COMPLETED and mapping.completed alike give mappingcompleted). */
function identifier(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .join('')
    .toLowerCase();
}

function collisions(names: readonly string[]): string[] {
  const byIdentifier = new Map<string, string[]>();
  for (const name of names) byIdentifier.set(identifier(name), [...(byIdentifier.get(identifier(name)) ?? []), name]);
  return [...byIdentifier.values()].filter((same) => same.length > 1).map((same) => same.join(' and '));
}

describe('the document as a strict client reads it', () => {
  it('states only bounds the server enforces: a query value just outside them is refused, naming the parameter', async () => {
    const admin = await api.newOrganization({ planType: 'ENTERPRISE', role: 'admin' });
    const accepted: string[] = [];
    let checked = 0;
    for (const { path, method, operation } of operations) {
      const withExample = (location: Parameter['in']) => operation.parameters.filter((p) => p.in === location && p.example !== undefined);
      const url = withExample('path').reduce((filled, p) => filled.replace(`{${p.name}}`, encodeURIComponent(String(p.example))), path);
      for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
        for (const value of outside(parameter.schema)) {
          const query = new URLSearchParams(Object.fromEntries(withExample('query').map((p) => [p.name, String(p.example)])));
          query.set(parameter.name, String(value));
          const response = await api.request(method, `${url}?${query.toString()}`, { as: admin });
          checked++;
          if (response.status !== 400 || !String(response.body?.message).startsWith(`${parameter.name}:`)) {
            accepted.push(
              `${operation.operationId} ${parameter.name}=${value}: ${response.status} ${String(response.body?.message ?? '')}`,
            );
          }
        }
      }
    }
    assert.deepEqual(accepted, []);
    assert.ok(checked > 10, `${checked} bounds checked`);
  });

  it('states no bound for a limit the contract clamps, says that it clamps, and the server answers any whole number', async () => {
    const reader = await api.newOrganization();
    for (const [path, min, max] of CLAMPED_LIMITS) {
      const limit = document.paths[path]!.get!.parameters.find((p) => p.name === 'limit')!;
      assert.deepEqual(limit.schema, { type: 'integer', default: 20 }, path);
      assert.ok(limit.description?.includes(`clamped to ${min}..${max}`), `${path}: ${limit.description}`);
      for (const sent of [0, -3, max + 1, 500, 1_000_000]) {
        const response = await api.request('GET', `${path}?limit=${sent}`, { as: reader });
        assert.equal(response.status, 200, `${path}?limit=${sent}: ${response.text}`);
      }
    }
  });

  it('gives no two webhooks, operations or named schemas a name a generator turns into the same identifier', () => {
    const webhookNames = Object.keys(document.webhooks);
    assert.deepEqual(collisions(webhookNames), []);
    const operationIds = [
      ...operations.map(({ operation }) => operation.operationId),
      ...Object.values(document.webhooks).map((webhook) => webhook.post.operationId),
    ];
    assert.deepEqual(collisions(operationIds), []);
    assert.deepEqual(collisions(Object.keys(document.components.schemas)), []);
    // The legacy call keeps its wire format: its body still says mapping.completed.
    const legacy = document.webhooks.legacyMappingCompleted!.post.requestBody.content['application/json'].schema;
    assert.deepEqual(legacy, { $ref: '#/components/schemas/LegacyMappingCompletedCall' });
    assert.equal(document.components.schemas.LegacyMappingCompletedCall!.properties.event!.const, 'mapping.completed');
  });

  it('states every plan and credit price as an integer amount in minor units with its currency, beside its display text', async () => {
    const { tiers, credits } = (await api.request('GET', '/api/v1/billing/plans')).body as {
      tiers: {
        planType: string;
        monthlyPrice: string;
        monthlyPriceAmount: number;
        pricePerMillion: string | null;
        pricePerMillionAmount: number | null;
        currency: string;
      }[];
      credits: { pricePerMillion: string; pricePerMillionAmount: number; currency: string };
    };
    const euros = (cents: number) => `€${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    assert.deepEqual(
      tiers.map((tier) => [tier.planType, tier.monthlyPriceAmount, tier.pricePerMillionAmount, tier.currency]),
      [
        ['FREE', 0, 100, 'EUR'],
        ['SUBSCRIPTION', 4_900, 100, 'EUR'],
        ['ENTERPRISE', 49_900, 100, 'EUR'],
      ],
    );
    for (const tier of tiers) {
      assert.equal(tier.monthlyPrice.replace(' / month', ''), euros(tier.monthlyPriceAmount), tier.planType);
      assert.equal(tier.pricePerMillion, euros(tier.pricePerMillionAmount!), tier.planType);
    }
    assert.deepEqual([credits.pricePerMillionAmount, credits.currency, credits.pricePerMillion], [100, 'EUR', euros(100)]);

    const { PlanTier: tier, PlanCatalogue: catalogue } = document.components.schemas as Record<
      string,
      { properties: Record<string, any>; required: string[] }
    >;
    assert.equal(tier!.properties.monthlyPriceAmount.type, 'integer');
    assert.deepEqual(
      tier!.properties.pricePerMillionAmount.anyOf.map((option: { type: string }) => option.type),
      ['integer', 'null'],
    );
    assert.match(tier!.properties.currency.description, /ISO 4217/);
    assert.equal(catalogue!.properties.credits.properties.pricePerMillionAmount.type, 'integer');
    for (const field of ['monthlyPriceAmount', 'pricePerMillionAmount', 'currency']) assert.ok(tier!.required.includes(field), field);
    assert.ok(['pricePerMillionAmount', 'currency'].every((field) => catalogue!.properties.credits.required.includes(field)));
  });

  it("documents a delivery's payload as one of the events receivers get, by reference", async () => {
    const eventSchemas = EVENT_TYPES.map((type) => document.webhooks[type]!.post.requestBody.content['application/json'].schema);
    for (const [i, type] of EVENT_TYPES.entries()) {
      const ref = String(eventSchemas[i]!.$ref);
      assert.match(ref, /^#\/components\/schemas\/\w+Event$/, type);
      assert.equal(document.components.schemas[ref.split('/').pop()!]!.properties.type!.const, type);
    }
    const payload = document.components.schemas.WebhookDeliveryDetail!.properties.payload!;
    assert.deepEqual(payload.oneOf, eventSchemas);
    assert.ok(String(payload.description).length > 10);

    // A delivery's payload as served is one of them (the test API checks every answer against its route's schema too).
    const partner = await api.newOrganization({ planType: 'ENTERPRISE' });
    const subscription = await api.request('POST', '/api/v1/webhook-subscriptions', {
      as: partner,
      json: { url: 'http://127.0.0.1:9/hook', events: ['MAPPING_ERROR_RESOLVED'] },
    });
    assert.equal(subscription.status, 201, subscription.text);
    const sent = await api.request('POST', `/api/v1/webhook-subscriptions/${subscription.body.id}/test`, {
      as: partner,
      json: { eventType: 'MAPPING_ERROR_RESOLVED' },
    });
    assert.equal(sent.status, 202, sent.text);
    const delivery = await api.request('GET', `/api/v1/webhook-subscriptions/${subscription.body.id}/deliveries/${sent.body.deliveryId}`, {
      as: partner,
    });
    assert.equal(delivery.status, 200);
    assert.equal(delivery.body.payload.type, 'MAPPING_ERROR_RESOLVED');
    assert.equal(delivery.body.payload.data.decision, 'MATCH');
  });

  it('holds no text that Markdown would take for an HTML tag outside code, so the reference page shows it as written', () => {
    const tags: string[] = [];
    const visit = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${where}[${i}]`));
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if ((key === 'description' || key === 'summary') && typeof value === 'string') {
          const prose = value.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
          const tag = /<[A-Za-z/!?][^>]*>?/.exec(prose);
          if (tag) tags.push(`${where}.${key}: ${tag[0]}`);
        } else visit(value, `${where}.${key}`);
      }
    };
    visit(document, '');
    assert.deepEqual([...new Set(tags.map((tag) => tag.replace(/\.responses\.\d+\./, '.responses.*.')))], []);
  });
});
