/** The shared request-schema rules every capability builds on (issue 13). */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import * as v from 'valibot';
import { decimalParam, Text, UNBOUNDED, Uuid, wholeNumberParam } from '../../../shared/platform/http/schemas';

const messageOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? undefined : result.issues[0].message;
};

describe('Text', () => {
  const name = Text({ maxLength: 20 });

  it('refuses every C0 and C1 control character, DEL, bidirectional overrides and lone surrogates', () => {
    const refused = 'must not contain control characters or bidirectional overrides';
    for (let code = 0; code <= 0x9f; code = code === 0x1f ? 0x7f : code + 1) {
      assert.equal(messageOf(name, `a${String.fromCharCode(code)}b`), refused, `U+${code.toString(16)}`);
    }
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      assert.equal(messageOf(name, `a${String.fromCharCode(code)}b`), refused, `U+${code.toString(16)}`);
    }
    // The marks right-to-left text needs are not overrides.
    assert.equal(v.parse(name, 'فندق\u200f 1'), 'فندق\u200f 1');
    assert.equal(v.parse(name, 'Café\u00a0Inn'), 'Café\u00a0Inn');
    for (const half of ['\ud83d', '\udc4d', 'a\ud800b']) assert.match(messageOf(name, half)!, /surrogate/);
  });

  it('keeps other text, surrogate pairs included, trimmed unless told not to', () => {
    assert.equal(v.parse(name, '  Café 🏨 ok  '), 'Café 🏨 ok');
    assert.equal(v.parse(Text({ maxLength: 20, trim: false }), ' id '), ' id ');
    assert.equal(messageOf(name, '   '), 'must not be empty');
    assert.equal(v.parse(Text({ maxLength: 20, minLength: 0 }), ''), '');
    assert.equal(messageOf(name, 'x'.repeat(21)), 'must be at most 20 characters');
  });

  it('allows tab, and only tab, where the field says so', () => {
    const delimiter = Text({ minLength: 1, maxLength: 1, allowTab: true, trim: false });
    assert.equal(v.parse(delimiter, '\t'), '\t');
    assert.equal(messageOf(delimiter, '\n'), 'must not contain control characters other than tab, or bidirectional overrides');
    assert.equal(messageOf(delimiter, ';;'), 'must be exactly one character');
    assert.equal(messageOf(name, 'a\tb'), 'must not contain control characters or bidirectional overrides');
  });
});

describe('decimalParam', () => {
  it('takes digits with an optional minus sign and decimal point, and nothing else', () => {
    assert.deepEqual(
      ['48.8566', '-0.5', '.5', '12', '-0'].map((text) => v.parse(decimalParam, text)),
      [48.8566, -0.5, 0.5, 12, 0],
    );
    for (const text of ['0x10', '+5', '1e1', ' 5', '5 ', '', '1.', '1,5', 'Infinity', 'NaN', '--1', '١٢']) {
      assert.equal(messageOf(decimalParam, text), 'must be a decimal number', JSON.stringify(text));
    }
  });
});

describe('wholeNumberParam', () => {
  it('takes digits with an optional minus sign, and nothing else', () => {
    const limit = wholeNumberParam(1, 100);
    assert.equal(v.parse(limit, '42'), 42);
    for (const text of ['0x10', '1.5', '1e1', '+5', ' 5', '5 ', '', 'Infinity', '١٢']) {
      assert.equal(messageOf(limit, text), 'must be a whole number', JSON.stringify(text));
    }
    assert.equal(messageOf(limit, '-1'), 'must be between 1 and 100');
    assert.equal(messageOf(limit, '101'), 'must be between 1 and 100');
    assert.equal(messageOf(wholeNumberParam(0, UNBOUNDED), '-1'), 'must be zero or greater');
    assert.ok(Object.is(v.parse(wholeNumberParam(0, UNBOUNDED), '-0'), 0));
  });

  it('clamps integers out of bounds where asked, never a non-integer', () => {
    const limit = wholeNumberParam(1, 100, 'clamp');
    assert.equal(v.parse(limit, '0'), 1);
    assert.equal(v.parse(limit, '-5'), 1);
    assert.equal(v.parse(limit, '500'), 100);
    assert.equal(v.parse(limit, '99999999999999999999999'), 100);
    assert.equal(messageOf(limit, '1.5'), 'must be a whole number');
  });
});

describe('Uuid', () => {
  it('takes either case and gives the id lower-cased', () => {
    assert.equal(v.parse(Uuid, '0B6F1C1E-5D0A-4A57-9A43-2F5B8C1D0001'), '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0001');
    assert.equal(messageOf(Uuid, 'not-a-uuid'), 'must be a UUID');
  });
});
