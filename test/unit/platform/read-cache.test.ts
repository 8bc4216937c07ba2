/** ReadCache: the last `capacity` values kept, least recently used out first; one read for readers at once; a failed read not kept. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { ReadCache } from '../../../shared/platform/objects/block-files';

describe('ReadCache', () => {
  it('keeps the last values read, a use making a value recent again, and shares a read in flight', async () => {
    const cache = new ReadCache(2);
    const reads: string[] = [];
    const read = (key: string) => cache.read(key, async () => (reads.push(key), key.toUpperCase()));
    assert.deepEqual(await Promise.all([read('a'), read('a')]), ['A', 'A']);
    await read('b');
    await read('a'); // a is the most recent again
    await read('c'); // b goes
    await read('a');
    await read('b');
    assert.deepEqual(reads, ['a', 'b', 'c', 'b']);
  });

  it('keeps no failed read: the next reader reads again', async () => {
    const cache = new ReadCache(4);
    let attempts = 0;
    const read = () => cache.read('k', async () => (++attempts === 1 ? Promise.reject(new Error('gone')) : 'v'));
    await assert.rejects(read(), /gone/);
    assert.equal(await read(), 'v');
    assert.equal(attempts, 2);
  });
});
