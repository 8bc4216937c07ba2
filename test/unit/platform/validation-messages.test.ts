/**
 * Every schema check speaks the project's words (issue 33, item 7): bad values for every field of
 * every route's path, query and body never answer valibot's own phrasing ("Invalid type: Expected
 * string but received null").
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import * as v from 'valibot';
import { DomainError } from '../../../shared/platform/errors';
import type { AnySchema, RouteDefinition } from '../../../shared/platform/http/route';
import { validate } from '../../../shared/platform/http/validation';
import { routes } from '../../../shared/routes';

const VALIBOT_PHRASING = /Invalid \w+:|Expected |but received|Received /;

const BAD_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  1e30,
  true,
  '',
  ' ',
  'x'.repeat(5_000),
  'not-a-uuid',
  '\u0000',
  [],
  [null],
  [1, 1],
  {},
  { a: 1 },
];

/** The fields of an object schema (through a pipe, an optional or a nullable wrapper). */
function fieldsOf(schema: AnySchema): string[] {
  const entries = (schema as { entries?: Record<string, unknown> }).entries;
  return entries ? Object.keys(entries) : [];
}

function messageFor(schema: AnySchema, input: unknown, where: string): string | undefined {
  try {
    validate(schema, input, where);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    return error.message;
  }
}

/** Each input once as it is, and with each field, in turn, given each bad value (the others as in the base). */
function badInputs(schema: AnySchema, base: Record<string, unknown>): unknown[] {
  const inputs: unknown[] = [null, 'text', [], 1];
  for (const field of fieldsOf(schema)) {
    for (const value of BAD_VALUES) {
      inputs.push({ ...base, [field]: value });
      // A value nested one level down, where a field takes an object or a list of them.
      inputs.push({ ...base, [field]: { x: value } }, { ...base, [field]: [{ x: value }] });
    }
  }
  return inputs;
}

const checked: { route: RouteDefinition; where: string; schema: AnySchema; base: Record<string, unknown> }[] = [];
for (const route of Object.values(routes) as RouteDefinition[]) {
  if (route.params) checked.push({ route, where: 'path', schema: route.params, base: {} });
  if (route.query) checked.push({ route, where: 'query', schema: route.query, base: {} });
  if (route.body && route.body.kind !== 'raw')
    checked.push({
      route,
      where: route.body.kind === 'multipart' ? 'form data' : 'body',
      schema: route.body.schema,
      base: { ...route.body.example },
    });
}

describe('validation messages', () => {
  it('covers the schemas of many routes', () => {
    assert.ok(checked.length > 40, String(checked.length));
  });

  it("never answer in valibot's words, for any bad value of any field of any route", () => {
    const offending = new Map<string, string>();
    for (const { route, where, schema, base } of checked) {
      for (const input of badInputs(schema, base)) {
        const message = messageFor(schema, input, where);
        if (message !== undefined && VALIBOT_PHRASING.test(message))
          offending.set(message.slice(0, 200), `${route.method} ${route.path} (${where})`);
      }
    }
    assert.deepEqual(
      [...offending].map(([message, where]) => `${where}: ${message}`),
      [],
    );
  });

  it('name the field and say what it takes', () => {
    const name = v.strictObject({
      name: v.string(),
      count: v.pipe(v.number(), v.integer(), v.minValue(1)),
      kind: v.picklist(['A', 'B']),
      tags: v.array(v.string()),
    });
    assert.equal(messageFor(name, { name: null, count: 1, kind: 'A', tags: [] }, 'body'), 'name: must be a string, not null');
    assert.equal(messageFor(name, { name: 'n', count: 1.5, kind: 'A', tags: [] }, 'body'), 'count: must be a whole number');
    assert.equal(messageFor(name, { name: 'n', count: 0, kind: 'A', tags: [] }, 'body'), 'count: must be at least 1');
    assert.equal(messageFor(name, { name: 'n', count: 1, kind: 'C', tags: [] }, 'body'), 'kind: must be one of "A", "B"');
    assert.equal(messageFor(name, { name: 'n', count: 1, kind: 'A', tags: [3] }, 'body'), 'tags.0: must be a string, not a number');
    assert.equal(messageFor(name, { name: 'n', count: 1, kind: 'A', tags: {} }, 'body'), 'tags: must be an array, not an object');
    assert.equal(messageFor(v.object({ id: v.string() }), null, 'query'), 'The query must be an object, not null');
  });
});
