/**
 * The document's request examples are ones a partner can send: every body and parameter has one
 * (but those WITHOUT_EXAMPLE names, with why), each passes its route's schema, and
 * each operation sent exactly as the reference's "Try it out" sends it (every example filled in,
 * the partner's key, a small file where a file is asked for) is not refused for its shape.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import * as v from 'valibot';
import type { RouteDefinition } from '../../shared/platform/http/route';
import { routes } from '../../shared/routes';
import { seedReferenceInventory } from '../../infra/local/seed';
import { startTestApi } from '../support/test-api';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description?: string;
  example?: unknown;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  requestBody?: {
    content: Record<string, { example?: Record<string, unknown>; schema?: { properties?: Record<string, { examples?: unknown[] }> } }>;
  };
}

/** The body "Try it out" fills in: the media type's example, or a form's fields' own examples (multipart). */
function bodyExample(content: NonNullable<Operation['requestBody']>['content'][string]): Record<string, unknown> | undefined {
  if (content.example) return content.example;
  const fields = Object.entries(content.schema?.properties ?? {}).filter(([, property]) => property.examples);
  return fields.length ? Object.fromEntries(fields.map(([name, property]) => [name, property.examples![0]])) : undefined;
}

/** Parameters that have no example, and why. */
const WITHOUT_EXAMPLE = new Map([
  ['cursor', 'it takes only a cursor the API returned'],
  ['since', "the change feed's other start, beside `after`, whose example it would contradict (both at once are refused)"],
]);
/** The hosts of the example receivers (`*.example`, a name reserved for examples) resolve nowhere, so saving one is refused for that. */
const EXAMPLE_HOST_REFUSAL = /does not resolve/;
/** The answers that say the request's shape is wrong. */
const SHAPE_REFUSALS = new Set([400, 413, 415, 422]);

const api = await startTestApi();
// A small published reference: the operations that map (find-match) answer their example rather than "nothing to map against".
await seedReferenceInventory(api.runtime, { hotels: 50, seed: 1 });
const document = (await api.request('GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
);
const routeOf = (operationId: string) => (routes as Record<string, RouteDefinition>)[operationId]!;

describe('request examples', () => {
  it('every body and parameter of the document has an example, and a description', () => {
    const missing: string[] = [];
    for (const { operation } of operations) {
      for (const parameter of operation.parameters) {
        if (!parameter.description) missing.push(`${operation.operationId} ${parameter.name}: description`);
        if (parameter.example === undefined && !WITHOUT_EXAMPLE.has(parameter.name))
          missing.push(`${operation.operationId} ${parameter.name}: example`);
      }
      for (const [mediaType, content] of Object.entries(operation.requestBody?.content ?? {})) {
        if (!bodyExample(content) && mediaType !== 'application/octet-stream') missing.push(`${operation.operationId} body: example`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it("every example passes its route's schema", () => {
    const refused: string[] = [];
    const check = (where: string, schema: RouteDefinition['query'], value: unknown) => {
      const result = schema ? v.safeParse(schema, value) : { success: true as const };
      if (!result.success) refused.push(`${where}: ${v.getDotPath(result.issues[0]) ?? ''} ${result.issues[0].message}`);
    };
    for (const { operation } of operations) {
      const route = routeOf(operation.operationId);
      const examples = (location: Parameter['in']) =>
        Object.fromEntries(
          operation.parameters.filter((p) => p.in === location && p.example !== undefined).map((p) => [p.name, String(p.example)]),
        );
      check(`${operation.operationId} path`, route.params, examples('path'));
      check(`${operation.operationId} query`, route.query, examples('query'));
      if (route.body && route.body.kind !== 'raw') check(`${operation.operationId} body`, route.body.schema, route.body.example);
    }
    assert.deepEqual(refused, []);
  });

  it('every operation, sent with its examples as they are, is not refused for its shape', async () => {
    const partner = await api.newOrganization({ planType: 'ENTERPRISE' });
    // The search examples name suppliers (`supplier=EXPEDIA,AGODA`): a search by a supplier not connected is refused.
    for (const supplier of ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0002', '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0004']) {
      assert.equal((await api.request('POST', `/api/v1/suppliers/${supplier}/connect`, { headers: partner.headers })).status, 201);
    }
    const refused: string[] = [];
    for (const { path, method, operation } of operations) {
      const parameters = (location: Parameter['in']) => operation.parameters.filter((p) => p.in === location && p.example !== undefined);
      const url = parameters('path').reduce((filled, p) => filled.replace(`{${p.name}}`, encodeURIComponent(String(p.example))), path);
      const query = new URLSearchParams(Object.fromEntries(parameters('query').map((p) => [p.name, String(p.example)])));
      const headers: Record<string, string> = {
        ...partner.headers,
        ...Object.fromEntries(parameters('header').map((p) => [p.name, String(p.example)])),
      };
      const [mediaType, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
      const example = content && bodyExample(content);
      let body: string | FormData | undefined;
      if (mediaType === 'application/json') {
        headers['content-type'] = mediaType;
        body = JSON.stringify(example);
      } else if (mediaType === 'application/x-www-form-urlencoded') {
        headers['content-type'] = mediaType;
        body = new URLSearchParams(Object.fromEntries(Object.entries(example!).map(([name, value]) => [name, String(value)]))).toString();
      } else if (mediaType === 'multipart/form-data') {
        body = new FormData();
        for (const [name, value] of Object.entries(example!)) body.append(name, String(value));
        body.append('file', new Blob(['id,name,city,country\nH-1001,Hotel Avenida,Lisbon,PT\n'], { type: 'text/csv' }), 'hotels.csv');
      }
      const response = await api.request(method, `${url}${query.size ? `?${query.toString()}` : ''}`, { headers, body });
      const message = String(response.body?.message ?? '');
      if (SHAPE_REFUSALS.has(response.status) && !EXAMPLE_HOST_REFUSAL.test(message))
        refused.push(`${operation.operationId}: ${response.status} ${message}`);
    }
    assert.deepEqual(refused, []);
    assert.ok(operations.length > 50);
  });
});
