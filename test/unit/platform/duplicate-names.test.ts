import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { firstDuplicateName } from '../../../shared/platform/http/duplicate-names';

describe('firstDuplicateName', () => {
  it('names the first member written twice in one object, with its path', () => {
    assert.equal(firstDuplicateName('{"a":1,"a":2}'), 'a');
    assert.equal(firstDuplicateName('{"a":1,"\\u0061":2}'), 'a');
    assert.equal(firstDuplicateName('{"x":{"b":1,"c":{},"b":3}}'), 'x.b');
    assert.equal(firstDuplicateName('{"list":[{"k":1},{"k":1,"k":2}]}'), 'list.1.k');
    assert.equal(firstDuplicateName('{"s":"a","s":"b","t":1,"t":2}'), 's');
  });

  it('finds none where names repeat only across objects, or as values', () => {
    assert.equal(firstDuplicateName('{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":"a","d":["a","a"]}'), undefined);
    assert.equal(firstDuplicateName('{"a":"\\"a\\":","b":1}'), undefined);
    assert.equal(firstDuplicateName('{}'), undefined);
  });

  it('reads any depth JSON.parse takes, without recursion', () => {
    const depth = 200_000;
    const deep = `{"a":${'['.repeat(depth)}${']'.repeat(depth)},"a":1}`;
    JSON.parse(deep);
    assert.equal(firstDuplicateName(deep), 'a');
  });

  it('reads a body of the largest size a route takes in well under a second (no quadratic work)', () => {
    const body = JSON.stringify({ items: Array.from({ length: 5_000 }, (_, index) => ({ id: index, name: `hotel ${index}`, tags: ['a', 'b'] })) });
    const started = performance.now();
    assert.equal(firstDuplicateName(body), undefined);
    assert.ok(performance.now() - started < 1_000, `${body.length} bytes`);
  });
});
