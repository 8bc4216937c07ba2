/** Which page holds a hotel's record: stable, in range, spread evenly, blind to the id's case. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { HOTELS_PER_PAGE, pageCountFor, pageOf } from '../../../shared/reference/hotel-records';

describe('hotel record pages', () => {
  it('takes one page per 256 hotels, and at least one', () => {
    assert.equal(pageCountFor(0), 1);
    assert.equal(pageCountFor(1), 1);
    assert.equal(pageCountFor(HOTELS_PER_PAGE), 1);
    assert.equal(pageCountFor(HOTELS_PER_PAGE + 1), 2);
    assert.equal(pageCountFor(20_000), 79);
    assert.equal(pageCountFor(1_000_000), 3_907);
  });

  it('puts an id on the same page every time, whatever its case', () => {
    const id = '3ca43075-c6ed-4eff-a0c3-51820f7db7f2';
    assert.equal(pageOf(id, 79), pageOf(id, 79));
    assert.equal(pageOf(id.toUpperCase(), 79), pageOf(id, 79));
    // Fixed by the hash, not by the process: pages written by one version of the code are read by the next.
    assert.equal(pageOf(id, 79), 35);
  });

  it('spreads ids evenly over the pages', () => {
    const pages = pageCountFor(20_000);
    const counts = new Array<number>(pages).fill(0);
    for (let i = 0; i < 20_000; i++) counts[pageOf(randomUUID(), pages)]!++;
    assert.ok(
      Math.min(...counts) > HOTELS_PER_PAGE * 0.6 && Math.max(...counts) < HOTELS_PER_PAGE * 1.5,
      `${Math.min(...counts)}..${Math.max(...counts)}`,
    );
  });
});
