/** The change log's rules that need no table: positions, counts, the settling of a commit and the pause between attempts. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import {
  countChanges,
  doneWithSequence,
  formatPosition,
  parsePosition,
  pauseAfterMoved,
  sumCounts,
} from '../../../shared/mapping-book/change-log';
import type { ChangeKind } from '../../../shared/mapping-book/entries';
import { DomainError } from '../../../shared/platform/errors';

describe('positions in the feed', () => {
  it('reads back every position it gives, and refuses any other text with 400', () => {
    for (const position of [
      { sequence: 1, read: 0 },
      { sequence: 42, read: 7 },
      { sequence: 999_999_999_999_999, read: 9_999_999_999 },
    ]) {
      assert.deepEqual(parsePosition(formatPosition(position)), position);
    }
    for (const text of ['', '0.0', '1', '1.', '.1', '01.0', '1.01', '1.-1', '1.0.0', '1e3.0', '1000000000000000.0', ' 1.0']) {
      assert.throws(
        () => parsePosition(text),
        (error: unknown) => error instanceof DomainError && error.kind === 'invalid_input',
        JSON.stringify(text),
      );
    }
  });
});

describe('counts of changes', () => {
  it('counts each kind, and sums counts kind by kind', () => {
    const kinds: ChangeKind[] = ['NEW', 'UPDATED', 'UPDATED', 'DELETED', 'NEW', 'NEW'];
    const counts = countChanges(kinds.map((kind) => ({ kind })));
    assert.deepEqual(counts, { new: 3, updated: 2, deleted: 1 });
    assert.deepEqual(sumCounts([counts, { new: 1, updated: 0, deleted: 4 }, countChanges([])]), { new: 4, updated: 2, deleted: 5 });
  });
});

describe('a commit on top of the feed', () => {
  it('is done with its sequence when committed; a refusal of writes that have no condition of their own is a fault', () => {
    assert.deepEqual(doneWithSequence({ kind: 'COMMITTED', sequence: 12 }), { kind: 'DONE', result: 12 });
    assert.throws(() => doneWithSequence({ kind: 'REFUSED', writes: [1, 3] }), /no condition of their own were refused: 1, 3/);
  });

  it('waits a jittered while before planning again, growing with each attempt and bounded', () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const ceiling = Math.min(200, 5 * 2 ** attempt);
      for (let draw = 0; draw < 50; draw++) {
        const pause = pauseAfterMoved(attempt);
        assert.ok(pause >= 0 && pause <= ceiling, `${attempt}: ${pause}`);
      }
    }
    const late = Array.from({ length: 200 }, () => pauseAfterMoved(10));
    assert.ok(Math.max(...late) > 100 && Math.min(...late) < 100, 'late pauses spread over the whole window');
  });
});
