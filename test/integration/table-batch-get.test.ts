/** batchGet against DynamoDB Local: more keys than one call takes, missing and repeated keys, the order asked. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { batchGet, batchWrite, tableOf } from '../../shared/platform/table';
import { startTestApi } from '../support/test-api';

const api = await startTestApi();

describe('batchGet', () => {
  it('answers each key in the order asked, undefined where there is no item, over several calls', async () => {
    const table = tableOf(api.runtime);
    const key = (i: number) => ({ PK: 'TEST#batch-get', SK: `ITEM#${String(i).padStart(4, '0')}` });
    await batchWrite(
      table,
      Array.from({ length: 150 }, (_, i) => ({ PutRequest: { Item: { ...key(i), value: i } } })),
    );

    const asked = [...Array.from({ length: 180 }, (_, i) => key(179 - i)), key(3), key(3), key(999)];
    const items = await batchGet(table, asked);
    assert.equal(items.length, asked.length);
    assert.deepEqual(
      items.map((item) => (item === undefined ? null : item.value)),
      [...Array.from({ length: 180 }, (_, i) => (179 - i < 150 ? 179 - i : null)), 3, 3, null],
    );
    assert.deepEqual(await batchGet(table, []), []);
  });
});
