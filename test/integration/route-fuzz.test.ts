/**
 * Every route of the route table under generated bad input (fast-check): malformed path
 * parameters, queries, bodies and content types. Whatever is sent, the answer is never a 500, an
 * error is `{error, message}`, a request that changes things changes nothing when it is refused,
 * and the table is the same afterwards. The seed is fixed so a failure reproduces; FUZZ_SEED and
 * FUZZ_RUNS explore further.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, it } from '@jest/globals';
import fc from 'fast-check';
import { routeList } from '../../shared/routes';
import type { RouteDefinition } from '../../shared/platform/http/route';
import { isRequestCount } from '../../shared/platform/rate-limits';
import { tableOf } from '../../shared/platform/table';
import { startTestApi, type Caller } from '../support/test-api';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);

const api = await startTestApi();
const partner = await api.newOrganization({ planType: 'ENTERPRISE' });
const admin = await api.newOrganization({ role: 'admin' });

/** Every item of the test's table, as one digest: equal digests, unchanged table. */
async function tableDigest(): Promise<string> {
  const table = tableOf(api.runtime);
  const hash = createHash('sha256');
  let count = 0;
  let start: Record<string, unknown> | undefined;
  const items: string[] = [];
  do {
    const page = await table.client.send(new ScanCommand({ TableName: table.name, ExclusiveStartKey: start }));
    // Every request is counted against its organization, refused or not: that count is no change.
    for (const item of (page.Items ?? []).filter((each) => !isRequestCount(each))) {
      items.push(JSON.stringify(item, Object.keys(item).sort()));
      count += 1;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  for (const item of items.sort()) hash.update(item);
  return `${count}:${hash.digest('hex')}`;
}

/** Text that is not a valid id of anything: too long, wrong alphabet, control and non-Latin characters, encodings. */
const badSegment = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.constantFrom(
    '..',
    '%00',
    '%ZZ',
    '%E0%A4%A',
    'null',
    '-1',
    '1e309',
    'NaN',
    '\u0000',
    "' OR 1=1 --",
    'a'.repeat(600),
    '00000000-0000-0000-0000-00000000000g',
  ),
);
const badScalar = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', ' ', '-1', '1.5', '0x10', '1e9', '99999999999999999999', 'true', '[]', '{}', '\u0000', '\u001b[31m', 'é'.repeat(300)),
);
const badJson = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
);

interface Attempt {
  pathValues: string[];
  query: [string, string][];
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; contentType: string; text: string } | { kind: 'none' };
}

function attempts(route: RouteDefinition): fc.Arbitrary<Attempt> {
  const parameters = [...route.path.matchAll(/\{(\w+)\}/g)].length;
  const queryKeys = route.query ? Object.keys((route.query as unknown as { entries: Record<string, unknown> }).entries ?? {}) : [];
  const key = queryKeys.length ? fc.oneof(fc.constantFrom(...queryKeys), fc.string({ maxLength: 10 })) : fc.string({ maxLength: 10 });
  return (
    fc
      .record({
        pathValues: fc.array(badSegment, { minLength: parameters, maxLength: parameters }),
        query: fc.array(fc.tuple(key, badScalar), { maxLength: 4 }),
        body: route.body
          ? fc.oneof(
              fc.record({ kind: fc.constant('json' as const), value: badJson }),
              fc.record({
                kind: fc.constant('raw' as const),
                contentType: fc.constantFrom(
                  'application/json',
                  'text/plain',
                  'application/x-www-form-urlencoded',
                  'multipart/form-data; boundary=x',
                  'application/xml',
                ),
                text: fc.oneof(
                  fc.string({ maxLength: 200 }),
                  fc.constantFrom(
                    '{',
                    '{"a":',
                    '\u0000',
                    '--x\r\nContent-Disposition: form-data; name="f"\r\n\r\nv\r\n--x--',
                    // Cut off inside a file part (see also cut-off-bodies.test.ts)
                    '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nid,na',
                  ),
                ),
              }),
            )
          : fc.constant({ kind: 'none' as const }),
      })
      // An attempt with nothing in it is the plain request of a route whose input is all optional: not bad input.
      .filter((attempt) => attempt.pathValues.length > 0 || attempt.query.length > 0 || attempt.body.kind !== 'none')
  );
}

function pathOf(route: RouteDefinition, values: string[]): string {
  let index = 0;
  // Sent as written when it is already an escape (%ZZ must arrive malformed), encoded otherwise.
  return route.path.replace(/\{\w+\}/g, () => {
    const value = values[index++]!;
    return /%/.test(value) ? value : encodeURIComponent(value);
  });
}

function callerFor(route: RouteDefinition): Caller | undefined {
  if (route.auth === 'none') return undefined;
  return route.auth === 'admin' ? admin : partner;
}

/** The routes' functions are all invoked; public pages (docs assets) answer files, not JSON. */
const fuzzed = routeList.filter((route) => route.handler !== 'docs/asset');

describe('every route under generated bad input', () => {
  it('never answers 500, answers errors as {error, message}, and a refused change changes no item', async () => {
    const before = await tableDigest();
    const seen = new Map<string, number>();
    for (const route of fuzzed) {
      await fc.assert(
        fc.asyncProperty(attempts(route), async ({ pathValues, query, body }) => {
          const search = new URLSearchParams(query).toString();
          const path = `${pathOf(route, pathValues)}${search ? `?${search}` : ''}`;
          const as = callerFor(route);
          const answer =
            body.kind === 'json'
              ? await api.request(route.method, path, { as, json: body.value })
              : body.kind === 'raw'
                ? await api.request(route.method, path, { as, headers: { 'content-type': body.contentType }, body: body.text })
                : await api.request(route.method, path, { as });
          const where = `${route.method} ${path.slice(0, 300)} -> ${answer.status}: ${answer.text.slice(0, 200)}`;
          seen.set(`${answer.status}`, (seen.get(`${answer.status}`) ?? 0) + 1);
          assert.ok(answer.status < 500, where);
          if (answer.status >= 400) {
            assert.equal(typeof answer.body, 'object', where);
            assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'message'], where);
            assert.ok(
              typeof answer.body.error === 'string' && typeof answer.body.message === 'string' && answer.body.message.length > 0,
              where,
            );
          } else {
            assert.equal(route.method, 'GET', `a change went through on bad input: ${where}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
    assert.equal(await tableDigest(), before, 'the table is unchanged');
    assert.ok((seen.get('400') ?? 0) > fuzzed.length, `mostly refused as bad input: ${JSON.stringify(Object.fromEntries(seen))}`);
  }, 600_000);
});
