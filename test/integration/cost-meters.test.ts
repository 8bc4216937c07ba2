/**
 * bench:cost's meters, on the stand-ins: what passes through them is counted as AWS bills it
 * (DynamoDB's consumed write and read units by operation and index, S3 requests by price class)
 * and reaches the service unchanged. Then, through them, what a small job writes to the table per
 * mapped row, against the budget (consumed capacity is deterministic: this is no timing).
 */
import assert from 'node:assert/strict';
import { afterAll, describe, it } from '@jest/globals';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchGetCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createS3Client } from '../../shared/platform/objects/s3-object-store';
import { createTable } from '../../shared/platform/table';
import { seedReferenceInventory } from '../../infra/local/seed';
import { provisionResources } from '../../infra/local/stack';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { itemBytes } from '../bench/cost/item-size';
import { dynamoDbMeter, s3Meter, type CapacityTally } from '../bench/cost/meters';
import { WRITE_UNITS_PER_ROW_BUDGET } from '../../infra/aws-prices';
import { startTestApi, testConfig } from '../support/test-api';

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

  it('counts a transaction as DynamoDB bills it, where DynamoDB Local reports each distinct number of units once; and a unit for each batch-read key with no item', async () => {
    const [dynamoDb] = await meters;
    const table = createTable({ ...config, dynamoDbEndpoint: dynamoDb.endpoint });
    const unmetered = createTable(config);
    const item = (n: number, bytes: number, extra: Record<string, string> = {}) => ({
      PK: 'COST#TX',
      SK: `ROW#${n}`,
      text: 'x'.repeat(bytes),
      ...extra,
    });
    const transactions = {
      tenSmall: Array.from({ length: 10 }, (_, n) => ({ Put: { TableName: table.name, Item: item(n, 100) } })),
      threeSizes: [500, 1_500, 2_500].map((bytes, n) => ({ Put: { TableName: table.name, Item: item(20 + n, bytes) } })),
      // Over the 2.5 KB item: billed by the larger of the two. An update of a small item, and one with GSI1's key.
      overAndUpdate: [
        { Put: { TableName: table.name, Item: item(22, 100) } },
        {
          Update: {
            TableName: table.name,
            Key: { PK: 'COST#TX', SK: 'ROW#0' },
            UpdateExpression: 'SET n = :n',
            ExpressionAttributeValues: { ':n': 1 },
          },
        },
        { Put: { TableName: table.name, Item: item(30, 100, { GSI1PK: 'COST', GSI1SK: '30' }) } },
      ],
    };
    // The probe: what DynamoDB Local itself reports for the first two, on another copy of their items.
    const reported = async (items: typeof transactions.tenSmall) => {
      const copies = items.map(({ Put }) => ({ Put: { TableName: unmetered.name, Item: { ...Put.Item, PK: 'COST#PROBE' } } }));
      return (await unmetered.client.send(new TransactWriteCommand({ TransactItems: copies, ReturnConsumedCapacity: 'TOTAL' })))
        .ConsumedCapacity![0]!.CapacityUnits;
    };
    assert.equal(await reported(transactions.tenSmall), 2, 'DynamoDB Local: ten items of one unit, reported as one, doubled');
    assert.equal(await reported(transactions.threeSizes), 2 * (1 + 2 + 3), 'DynamoDB Local: items of 1, 2 and 3 units, each doubled');

    const metered = async (TransactItems: Record<string, unknown>[]) => {
      dynamoDb.reset();
      await table.client.send(new TransactWriteCommand({ TransactItems }));
      const entry = dynamoDb.writes.get('TransactWriteItems')!;
      return { table: entry.table, GSI1: entry.indexes.get('GSI1') ?? 0 };
    };
    assert.deepEqual(await metered(transactions.tenSmall), { table: 20, GSI1: 0 }, 'ten items of under 1 KB, two units each');
    assert.deepEqual(await metered(transactions.threeSizes), { table: 12, GSI1: 0 });
    assert.deepEqual(await metered(transactions.overAndUpdate), { table: 2 * 3 + 2 + 2, GSI1: 2 });
    dynamoDb.reset();
    const keys = ['ROW#1', 'ROW#98', 'ROW#99'].map((SK) => ({ PK: 'COST#TX', SK }));
    const batch = await table.client.send(new BatchGetCommand({ RequestItems: { [table.name]: { Keys: keys, ConsistentRead: true } } }));
    assert.equal(batch.Responses![table.name]!.length, 1);
    assert.equal(dynamoDb.reads.get('BatchGetItem')!.table, 3, 'the item found, and the two keys without one');
    dynamoDb.reset();
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
    assert.equal(
      itemBytes({ PK: 'ab', n: 12345, on: true, list: ['x', 1], map: { k: 'v' } }),
      2 + 2 + 1 + 4 + 2 + 1 + 4 + (3 + 2 + 3) + 3 + (3 + 1 + 1 + 1) + 100,
    );
  });
});

describe("a job's table writes", () => {
  const units = (tally: CapacityTally) =>
    [...tally.values()].reduce((sum, entry) => sum + entry.table + [...entry.indexes.values()].reduce((a, b) => a + b, 0), 0);

  it("stay within the budget's share per mapped row: a completed job of 5,000 rows, read and reviewed", async () => {
    const [dynamoDb] = await meters;
    const api = await startTestApi({ config: { dynamoDbEndpoint: dynamoDb.endpoint } });
    const reference = { hotels: 300, seed: 5 };
    await seedReferenceInventory(api.runtime, reference);
    const hotels = [...generateReferenceHotels({ count: reference.hotels, seed: reference.seed })];
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    const rows = Array.from({ length: 5_000 }, (_, i) => {
      const hotel = hotels[i % hotels.length]!;
      return formatCsvRow([
        `P${i}`,
        `${hotel.name}${i < hotels.length ? '' : ` ${i}`}`,
        hotel.address,
        hotel.city,
        hotel.country,
        hotel.lat,
        hotel.lon,
      ]);
    });
    const form = new FormData();
    form.append('name', 'cost');
    form.append('file', new Blob([['id,name,address,city,country,lat,lon', ...rows].join('\n')], { type: 'text/csv' }), 'hotels.csv');
    const uploaded = await api.request('POST', '/api/v1/partner-inventories', { as: caller, body: form });
    assert.equal(uploaded.status, 201, uploaded.text);
    await api.messaging.idle();

    dynamoDb.reset();
    const created = await api.request('POST', '/api/v1/mapping', {
      as: caller,
      json: { partnerInventoryId: uploaded.body.partnerInventoryId },
    });
    assert.equal(created.status, 201, created.text);
    await api.messaging.idle();
    const job = (await api.request('GET', `/api/v1/mapping/${created.body.mappingJobId}`, { as: caller })).body;
    assert.equal(job.status, 'COMPLETED');
    assert.equal(job.counts.processed, 5_000);
    const jobWrites = units(dynamoDb.writes);
    assert.ok(
      jobWrites / 5_000 <= WRITE_UNITS_PER_ROW_BUDGET,
      `${jobWrites} write units for 5,000 rows: ${jobWrites / 5_000} a row, over ${WRITE_UNITS_PER_ROW_BUDGET}`,
    );

    // Reading every row writes only the organization's count of its requests (a unit a request); a
    // decision writes its own few items, whatever the job's size.
    dynamoDb.reset();
    let cursor: string | null = null;
    let read = 0;
    let requests = 0;
    do {
      const page: { body: { results: unknown[]; nextCursor: string | null } } = await api.request(
        'GET',
        `/api/v1/mapping/${created.body.mappingJobId}/results?limit=1000${cursor ? `&cursor=${cursor}` : ''}`,
        { as: caller },
      );
      requests += 1;
      read += page.body.results.length;
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.equal(read, 5_000);
    assert.equal(units(dynamoDb.writes), requests);
    dynamoDb.reset();
    const decided = await api.request('POST', `/api/v1/mapping/${created.body.mappingJobId}/reviews`, {
      as: caller,
      json: { partnerHotelId: 'P1', decision: 'NO_MATCH' },
    });
    assert.equal(decided.status, 200, decided.text);
    // Six items of a few kilobytes at most (the book's entry with its history the largest; it and the
    // job's decision carry the hotel's supplier codes and place; the job's item its counts and score
    // figures), the job's decision also on GSI1, the check that no other reviewer holds the row, in
    // one transaction: two units a kilobyte; and the request's count, one.
    assert.equal(dynamoDb.writes.get('TransactWriteItems')?.calls, 1);
    assert.ok(units(dynamoDb.writes) <= 34, `a decision wrote ${units(dynamoDb.writes)} units`);
  });
});
