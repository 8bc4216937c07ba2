/** The rules by which a job's write chooses the segments it merges and cuts its work into ranges. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { mergedFrom, RANGE_BLOCKS, writeRanges } from '../../../shared/mapping-book/job-writes';

const segments = (...blocks: number[]) => blocks.map((each) => ({ blocks: each }));

describe('mergedFrom', () => {
  it('a write that changes about as much as the book holds merges every segment', () => {
    assert.equal(mergedFrom(segments(4_000, 20), 4_000), 0);
    assert.equal(mergedFrom([], 10), 0);
  });

  it('a write of few changes beside a large book adds a segment of its own; one of none merges nothing', () => {
    assert.equal(mergedFrom(segments(4_000), 20), 1);
    assert.equal(mergedFrom([], 20), 0);
    assert.equal(mergedFrom(segments(4_000, 20), 0), 2);
  });

  it('merges the newest segments from the oldest one at most twice what is newer, so sizes grow by tiers', () => {
    // 40 <= 2 * (20 + 20): the two newest merge with the job's rows; 4,000 stays.
    assert.equal(mergedFrom(segments(4_000, 40, 20), 20), 1);
    assert.equal(mergedFrom(segments(4_000, 100, 20), 20), 2);
  });

  it('partial jobs of one size keep a handful of segments however many come', () => {
    let book = segments(4_000);
    for (let job = 0; job < 500; job++) {
      const from = mergedFrom(book, 20);
      book = [...book.slice(0, from), { blocks: book.slice(from).reduce((sum, each) => sum + each.blocks, 20) }];
      assert.ok(book.length <= 8, `${book.length} segments after job ${job}`);
    }
  });
});

describe('writeRanges', () => {
  it("cuts at every RANGE_BLOCKS-th first key of the job's rows and of the merged entries together, the first and last open", () => {
    const rows = Array.from({ length: 30 }, (_, i) => `P${String(i * 2).padStart(3, '0')}`);
    const merged = Array.from({ length: 30 }, (_, i) => `P${String(i * 2 + 1).padStart(3, '0')}\u0001own`);
    const ranges = writeRanges(rows, merged);
    assert.equal(ranges.length, Math.ceil(60 / RANGE_BLOCKS));
    assert.deepEqual(ranges[0], { lower: null, upper: 'P020' });
    assert.deepEqual(ranges[1], { lower: 'P020', upper: 'P040' });
    assert.deepEqual(ranges[2], { lower: 'P040', upper: null });
  });

  it('counts a block of the book the rows may read as a tenth of a block of rows: a few rows spread over a large book are read in several ranges', () => {
    const rows = ['A', 'M'];
    const book = Array.from({ length: 400 }, (_, i) => `B${String(i).padStart(3, '0')}\u0001own`);
    const ranges = writeRanges(rows, [], book);
    assert.equal(ranges.length, Math.ceil((2 + 400 / 10) / RANGE_BLOCKS));
    assert.equal(ranges[0]!.lower, null);
    assert.equal(ranges[ranges.length - 1]!.upper, null);
  });

  it('one open range for a job with nothing to merge and a single block, or none', () => {
    assert.deepEqual(writeRanges(['P1'], []), [{ lower: null, upper: null }]);
    assert.deepEqual(writeRanges([], []), [{ lower: null, upper: null }]);
  });
});
