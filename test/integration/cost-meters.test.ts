/**
 * bench:cost's meters, on the stand-ins: what passes through them is counted as AWS bills it
 * (DynamoDB's consumed write and read units by operation and index, S3 requests by price class)
 * and reaches the service unchanged.
 */
import assert from 'node:assert/strict';
import { afterAll, describe, it } from '@jest/globals';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createS3Client } from '../../shared/platform/objects/s3-object-store';
import { createTable } from '../../shared/platform/table';
import { provisionResources } from '../../infra/local/stack';
import { itemBytes } from '../bench/cost/item-size';
import { dynamoDbMeter, s3Meter } from '../bench/cost/meters';
import { testConfig } from '../support/test-api';

const config = testConfig();
const meters = Promise.all([dynamoDbMeter(config.dynamoDbEndpoint!), s3Meter(config.s3Endpoint!)]);
afterAll(async () => {
  for (const meter of await meters) await meter.close();
});

describe('bench:cost meters', () => {
  it('counts write units on the table and GSI1, and read units, by operation; the answers are unchanged', async () => {
    await provisionResources(config);
    const [dynamoDb] = await meters;
    const table = createTable({ ...config, dynamoDbEndpoint: dynamoDb.endpoint });
    const small = { PK: 'COST#1', SK: 'ROW', GSI1PK: 'COST', GSI1SK: '1', text: 'x'.repeat(400) };
    const large = { PK: 'COST#2', SK: 'ROW', text: 'y'.repeat(2_500) };
    await table.client.send(new PutCommand({ TableName: table.name, Item: small }));
    await table.client.send(new PutCommand({ TableName: table.name, Item: large }));
    const read = await table.client.send(new GetCommand({ TableName: table.name, Key: { PK: 'COST#2', SK: 'ROW' }, ConsistentRead: true }));
    assert.deepEqual(read.Item, large);

    const puts = dynamoDb.writes.get('PutItem')!;
    // Under 1 KB: one unit on the table and one on the index; 2.5 KB: three units, on the table only.
    assert.equal(puts.calls, 2);
    assert.equal(puts.table, 4);
    assert.deepEqual([...puts.indexes], [['GSI1', 1]]);
    assert.deepEqual({ ...dynamoDb.reads.get('GetItem'), indexes: undefined }, { table: 1, calls: 1, indexes: undefined });
    dynamoDb.reset();
    assert.equal(dynamoDb.writes.size + dynamoDb.reads.size, 0);
  });

  it('counts S3 requests by price class and the bytes sent', async () => {
    const [, s3] = await meters;
    const client = createS3Client({ ...config, s3Endpoint: s3.endpoint });
    await client.send(new PutObjectCommand({ Bucket: config.bucketName, Key: 'cost/a.txt', Body: 'hello world' }));
    const got = await client.send(new GetObjectCommand({ Bucket: config.bucketName, Key: 'cost/a.txt' }));
    assert.equal(await got.Body!.transformToString(), 'hello world');
    assert.deepEqual(s3.requests, { writes: 1, reads: 1, deletes: 0 });
    assert.equal(s3.bytesIn, 'hello world'.length);
  });

  it('sizes an item as DynamoDB bills it: names and values, plus 100 bytes', () => {
    assert.equal(itemBytes({ PK: 'ab', n: 12345, on: true, list: ['x', 1], map: { k: 'v' } }), 2 + 2 + 1 + 4 + 2 + 1 + 4 + (3 + 2 + 3) + 3 + (3 + 1 + 1 + 1) + 100);
  });
});
