import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { routeList } from '../../../shared/routes';
import { functionName } from '../../../shared/platform/http/route';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('the route table', () => {
  it('lists each method and path once', () => {
    const keys = routeList.map((r) => `${r.method} ${r.path}`);
    assert.equal(new Set(keys).size, keys.length);
  });

  it('gives every route its own handler file, exporting a handler', async () => {
    const handlers = routeList.map((r) => r.handler);
    assert.equal(new Set(handlers).size, handlers.length);
    assert.equal(new Set(routeList.map(functionName)).size, routeList.length);
    for (const route of routeList) {
      const file = join(ROOT, 'functions', `${route.handler}.ts`);
      assert.ok(existsSync(file), `${file} exists`);
      const module = (await import(file)) as { handler?: { withRuntime?: unknown; route?: unknown } };
      assert.equal(typeof module.handler, 'function', route.handler);
      assert.equal(typeof module.handler!.withRuntime, 'function', route.handler);
      assert.equal(module.handler!.route, route, `${route.handler} answers its own route`);
    }
  });

  it('refuses unknown fields in every JSON, form and multipart body, but the OAuth token request', () => {
    // RFC 6749 (3.2): the token endpoint ignores parameters it does not know.
    const ignoresUnknownParameters = new Set(['POST /api/v1/auth/token']);
    for (const route of routeList) {
      const body = route.body;
      if (!body || body.kind === 'raw' || ignoresUnknownParameters.has(`${route.method} ${route.path}`)) continue;
      // A v.strictObject, or a v.variant of them (one shape per kind of request, as the review's decision).
      const shapes = body.schema.type === 'variant' ? (body.schema as unknown as { options: { type: string }[] }).options : [body.schema];
      for (const shape of shapes)
        assert.equal(shape.type, 'strict_object', `${route.method} ${route.path}: its ${body.kind} body schema is a v.strictObject`);
    }
  });

  it('versions every API path under /api/v1 (the pages /docs and /console apart) and documents at least one response', () => {
    for (const route of routeList) {
      assert.ok(route.path.startsWith('/api/v1/') || route.path.startsWith('/docs') || route.path.startsWith('/console'), route.path);
      assert.ok(Object.keys(route.responses).length > 0, route.path);
      // Path parameters must be validated.
      if (route.path.includes('{')) assert.ok(route.params, `${route.path} validates its path parameters`);
    }
  });
});
