/** A matching index file read in parts at once (s3rver): the same bytes as one read, in order; a missing file named. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { objectStoreOf } from '../../shared/platform/objects/services';
import { MATCHING_INDEX_PREFIX, readIndexFile } from '../../shared/reference';
import { startTestApi } from '../support/test-api';

const api = await startTestApi();

describe('readIndexFile', () => {
  it('reads a file of many parts into the same bytes, and names a missing one', async () => {
    const objects = objectStoreOf(api.runtime);
    const key = `${MATCHING_INDEX_PREFIX}test-parts.v8`;
    const bytes = randomBytes(10_000);
    await objects.put(key, bytes, 'application/octet-stream');
    for (const partBytes of [999, 5_000, 10_000, 1 << 20])
      assert.ok((await readIndexFile(objects, key, partBytes)).equals(bytes), `parts of ${partBytes}`);
    await assert.rejects(readIndexFile(objects, `${MATCHING_INDEX_PREFIX}none.v8`), /The matching index .*none\.v8 is missing/);
  });
});
