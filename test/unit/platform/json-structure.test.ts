import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { firstStructureProblem } from '../../../shared/platform/http/json-structure';

const duplicateOf = (json: string, maxDepth = 1_000_000) => {
  const problem = firstStructureProblem(json, maxDepth);
  return problem?.kind === 'repeated' ? problem.path : undefined;
};

describe('firstStructureProblem', () => {
  it('names the first member written twice in one object, with its path', () => {
    assert.equal(duplicateOf('{"a":1,"a":2}'), 'a');
    assert.equal(duplicateOf('{"a":1,"\\u0061":2}'), 'a');
    assert.equal(duplicateOf('{"x":{"b":1,"c":{},"b":3}}'), 'x.b');
    assert.equal(duplicateOf('{"list":[{"k":1},{"k":1,"k":2}]}'), 'list.1.k');
    assert.equal(duplicateOf('{"s":"a","s":"b","t":1,"t":2}'), 's');
  });

  it('finds none where names repeat only across objects, or as values', () => {
    assert.equal(duplicateOf('{"a":{"a":1},"b":[{"a":1},{"a":2}],"c":"a","d":["a","a"]}'), undefined);
    assert.equal(duplicateOf('{"a":"\\"a\\":","b":1}'), undefined);
    assert.equal(duplicateOf('{}'), undefined);
  });

  it('reads any depth JSON.parse takes, without recursion', () => {
    const depth = 200_000;
    const deep = `{"a":${'['.repeat(depth)}${']'.repeat(depth)},"a":1}`;
    JSON.parse(deep);
    assert.equal(duplicateOf(deep), 'a');
  });

  it('finds the first value nested deeper than allowed, with its path, before reading on', () => {
    assert.deepEqual(firstStructureProblem('{"a":[{"b":{"c":1}}]}', 3), { kind: 'too_deep', path: 'a.0.b' });
    assert.equal(firstStructureProblem('{"a":[{"b":1}]}', 3), undefined);
    assert.deepEqual(firstStructureProblem(`{"a":${'['.repeat(10)}${']'.repeat(10)},"a":1}`, 4), { kind: 'too_deep', path: 'a.0.0.0' });
  });
});
