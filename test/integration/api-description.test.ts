import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { routes } from '../../shared/routes';
import type { RouteDefinition } from '../../shared/platform/http/route';
import { documentedResponses } from '../../shared/platform/http/responses';
import { EVENT_TYPES } from '../../shared/events';
import { startTestApi } from '../support/test-api';

const api = await startTestApi();

describe('GET /api/v1/openapi.json', () => {
  it('documents every route of the route table, with its security and request schemas', async () => {
    const { status, body } = await api.request('GET', '/api/v1/openapi.json');
    assert.equal(status, 200);
    assert.equal(body.openapi, '3.1.0');
    // A path, so "Try it out" calls whichever address the document was loaded from.
    assert.equal(body.servers[0].url, '/');
    for (const [operationId, route] of Object.entries(routes) as [string, RouteDefinition][]) {
      const operation = body.paths[route.path]?.[route.method.toLowerCase()];
      if (route.internal) {
        assert.equal(operation, undefined, `${route.method} ${route.path} is not for partners: not in their reference`);
        continue;
      }
      assert.ok(operation, `${route.method} ${route.path} is documented`);
      assert.equal(operation.operationId, operationId);
      assert.deepEqual(Object.keys(operation.responses).sort(), Object.keys(documentedResponses(route)).sort());
      if (route.auth === 'required') assert.deepEqual(operation.security, [{ apiKey: [] }, { bearer: [] }]);
      if (route.auth === 'none') assert.deepEqual(operation.security, []);
    }
    const putFormat = body.paths['/api/v1/export-format'].put;
    const schema = putFormat.requestBody.content['application/json'].schema;
    assert.deepEqual(schema.required, ['format']);
    assert.deepEqual(schema.properties.format.enum, ['json', 'csv', 'jsonl', 'xlsx']);
    const connect = body.paths['/api/v1/suppliers/{supplierId}/connect'].post;
    assert.deepEqual(
      connect.parameters.map((p: { name: string; in: string }) => [p.name, p.in]),
      [
        ['supplierId', 'path'],
        ['X-Request-Id', 'header'],
      ],
    );
    assert.ok(connect.responses['200'].headers['X-Request-Id'], 'every answer carries the correlation id');
    const upload = body.paths['/api/v1/suppliers/request'].post.requestBody.content['multipart/form-data'].schema;
    assert.deepEqual(upload.required.sort(), ['file', 'supplierName']);
    // A file, as generators (a Blob) and Swagger UI (a file picker) read one.
    assert.equal(upload.properties.file.format, 'binary');
    assert.equal(
      body.paths['/api/v1/partner-inventories'].post.requestBody.content['multipart/form-data'].schema.properties.file.format,
      'binary',
    );
    assert.ok(body.components.securitySchemes.apiKey);
    // Shared shapes are named once and referenced: the error body of every error answer, the result row, the job...
    assert.deepEqual(connect.responses['404'].content['application/json'].schema, { $ref: '#/components/schemas/Error' });
    assert.deepEqual(body.components.schemas.Error.required.sort(), ['error', 'message']);
    const text = JSON.stringify(body.paths);
    assert.equal(
      text.match(/"\$ref":"#\/components\/schemas\/Error"/g)!.length,
      text.match(/"4\d\d":|"5\d\d":/g)!.length,
      'every error answer refers to Error',
    );
    const results = body.paths['/api/v1/mapping/{jobId}/results'].get.responses['200'].content['application/json'].schema;
    assert.deepEqual(results, { $ref: '#/components/schemas/MappingResultPage' });
    assert.deepEqual(body.components.schemas.MappingResultPage.properties.results.items, { $ref: '#/components/schemas/MappingResult' });
    for (const name of [
      'MappingJob',
      'JobCounts',
      'MappingResult',
      'Candidate',
      'MatchEvidence',
      'PartnerInventory',
      'ReferenceHotel',
      'WebhookSubscription',
      'WebhookDelivery',
      'WebhookDeliveryAttempt',
      'PlanTier',
      'QuotaStatus',
    ]) {
      assert.ok(body.components.schemas[name], `${name} is a named schema`);
    }
    assert.ok(!text.includes('$defs'));
    // The headers answers carry, and the answers every operation may give.
    const search = body.paths['/api/v1/reference/search'].get.responses;
    assert.ok(search['401'].headers['WWW-Authenticate']);
    assert.ok(search['429'] && search['500']);
    assert.ok(body.paths['/api/v1/mapping'].post.responses['201'].headers['Idempotent-Replayed']);
    const legacy = body.paths['/api/v1/export-webhooks'].get.responses['200'].headers;
    assert.ok(legacy.Deprecation && legacy.Link);
    // A review's decision is one of three shapes: MATCH names the hotel, NO_MATCH none, WITHDRAW takes a decision back.
    const review = body.paths['/api/v1/mapping/{jobId}/reviews'].post.requestBody.content['application/json'].schema;
    assert.deepEqual(
      review.oneOf.map((shape: { properties: { decision: { const: string } }; required: string[] }) => [
        shape.properties.decision.const,
        shape.required.sort(),
      ]),
      [
        ['MATCH', ['decision', 'partnerHotelId', 'referenceHotelId']],
        ['NO_MATCH', ['decision', 'partnerHotelId']],
        ['WITHDRAW', ['decision', 'partnerHotelId']],
      ],
    );
    assert.match(body.components.schemas.MappingResult.properties.candidates.description, /never the proposal itself/);
    // Every operation's tag is listed, with a description, and every listed tag is used.
    const used = new Set(
      Object.values(body.paths).flatMap((operations) =>
        Object.values(operations as Record<string, { tags: string[] }>).flatMap((o) => o.tags),
      ),
    );
    for (const webhook of Object.values(body.webhooks)) (webhook as { post: { tags: string[] } }).post.tags.forEach((tag) => used.add(tag));
    assert.deepEqual(body.tags.map((tag: { name: string }) => tag.name).sort(), [...used].sort());
    assert.ok(body.tags.every((tag: { description: string }) => tag.description.length > 20));
  });

  it('documents what webhook receivers get: each event type, its payload and its headers', async () => {
    const { body } = await api.request('GET', '/api/v1/openapi.json');
    assert.deepEqual(Object.keys(body.webhooks).sort(), [...EVENT_TYPES, 'legacyMappingCompleted'].sort());
    const named = (schema: { $ref: string }) => body.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
    for (const type of EVENT_TYPES) {
      const post = body.webhooks[type].post;
      const payload = named(post.requestBody.content['application/json'].schema);
      assert.deepEqual(payload.required.sort(), ['data', 'id', 'organizationId', 'timestamp', 'type']);
      assert.equal(payload.properties.type.const, type);
      assert.deepEqual(
        post.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`),
        ['header:webhook-id', 'header:webhook-timestamp', 'header:webhook-signature', 'header:X-Webhook-Signature'],
      );
    }
    assert.equal(
      named(body.webhooks.legacyMappingCompleted.post.requestBody.content['application/json'].schema).properties.event.const,
      'mapping.completed',
    );
    // Ids a generator can use, no credential of ours, and how to check a delivery in the document itself.
    for (const [name, webhook] of Object.entries<{ post: { operationId: string; security: unknown[] } }>(body.webhooks)) {
      assert.match(webhook.post.operationId, /^[A-Za-z0-9._~-]+$/, name);
      assert.deepEqual(webhook.post.security, []);
    }
    const recipe = body.tags.find((tag: { name: string }) => tag.name === 'Webhook events').description;
    for (const part of [
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'new Webhook(secret).verify(rawBody, headers)',
      "createHmac('sha256', key)",
      '5 minutes',
    ]) {
      assert.ok(recipe.includes(part), part);
    }
  });
});

describe('GET /docs', () => {
  it('serves a reference page whose viewer comes from the API itself, not a CDN, from whatever address it is opened through', async () => {
    const { port } = new URL(api.baseUrl);
    for (const pageUrl of [`${api.baseUrl}/docs`, `http://localhost:${port}/docs`, `${api.baseUrl}/docs/`]) {
      const page = await fetch(pageUrl);
      assert.equal(page.status, 200, pageUrl);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      const html = await page.text();
      assert.doesNotMatch(html, /https?:\/\//, 'no address in the page: only paths');
      const base = new URL(/<base href="([^"]+)">/.exec(html)![1]!, pageUrl);
      const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((source) => !source.endsWith('/'));
      assert.ok(sources.length >= 2);
      for (const source of [...sources, 'api/v1/openapi.json']) {
        const asset = await fetch(new URL(source, base));
        assert.equal(asset.status, 200, `${source} from ${pageUrl}`);
        // The viewer and the document whole, not stubs (the page's own starter script and the guides it links are smaller).
        if (/swagger-ui|openapi/.test(source)) assert.ok((await asset.text()).length > 10_000, source);
      }
    }
  });

  it('answers 404 for an unknown asset', async () => {
    const response = await api.request('GET', '/docs/secrets.txt');
    assert.equal(response.status, 404);
  });
});
