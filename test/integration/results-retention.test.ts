/**
 * How long a job's results live, through the local runtime: `expiresAt` on the job (30 days from
 * its creation), the files in the results bucket under the prefix its lifecycle rule empties, decisions with
 * the table's TTL, and 410 for results, reviews and exports from `expiresAt` on, the job itself
 * still listed. Its own API: the test moves the clock a month on.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { JOB_RESULTS_PREFIX } from '../../shared/mapping-jobs';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { resultObjectStoreOf } from '../../shared/platform/objects/services';
import { TABLE_KEYS, tableOf } from '../../shared/platform/table';
import { startTestApi, type Caller } from '../support/test-api';

const REFERENCE = { hotels: 300, seed: 5 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const api = await startTestApi();
await seedReferenceInventory(api.runtime, REFERENCE);

async function completedJob(as: Caller): Promise<string> {
  const csv = [formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon'])];
  for (const [i, hotel] of hotels.slice(0, 20).entries())
    csv.push(formatCsvRow([`P${i}`, hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat, hotel.lon]));
  const form = new FormData();
  form.append('name', 'retention');
  form.append('file', new Blob([csv.join('\n')], { type: 'text/csv' }), 'hotels.csv');
  const inventory = await api.request('POST', '/api/v1/partner-inventories', { as, body: form });
  assert.equal(inventory.status, 201, inventory.text);
  const created = await api.request('POST', '/api/v1/mapping', { as, json: { partnerInventoryId: inventory.body.partnerInventoryId } });
  assert.equal(created.status, 201, created.text);
  await api.messaging.idle();
  return created.body.mappingJobId;
}

describe('results retention', () => {
  it('keeps results 30 days from the job’s creation, says until when, then answers 410 for results, reviews and exports', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    const other = await api.newOrganization({ planType: 'ENTERPRISE' });
    const jobId = await completedJob(caller);
    const job = (await api.request('GET', `/api/v1/mapping/${jobId}`, { as: caller })).body;
    assert.equal(job.status, 'COMPLETED');
    const expiresAt = new Date(Date.parse(job.createdAt) + 30 * 86_400_000);
    assert.equal(job.expiresAt, expiresAt.toISOString());

    // Its files live in the results bucket, under the prefix its lifecycle rule empties; a decision carries the table's TTL.
    const files = await resultObjectStoreOf(api.runtime).get(`${JOB_RESULTS_PREFIX}${caller.organization.id}/${jobId}/views/manifest.json`);
    assert.ok(files, 'the views are under mapping-jobs/');
    const decided = await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
      as: caller,
      json: { partnerHotelId: 'P1', decision: 'NO_MATCH' },
    });
    assert.equal(decided.status, 200, decided.text);
    const table = tableOf(api.runtime);
    const { Item: decision } = await table.client.send(
      new GetCommand({ TableName: table.name, Key: { PK: `JOB#${jobId}`, SK: 'DECISION#P1' } }),
    );
    assert.equal(decision?.[TABLE_KEYS.ttlAttribute], expiresAt.getTime() / 1000);
    const { Items: marks } = await table.client.send(
      new ScanCommand({
        TableName: table.name,
        FilterExpression: 'begins_with(PK, :pk)',
        ExpressionAttributeValues: { ':pk': `JOB#${jobId}#DECIDED#` },
      }),
    );
    assert.equal(marks?.length, 1, 'where the engine had put the row');
    for (const mark of marks ?? []) assert.equal(mark[TABLE_KEYS.ttlAttribute], expiresAt.getTime() / 1000);

    const counts = (await api.request('GET', `/api/v1/mapping/${jobId}`, { as: caller })).body.counts;
    api.clock.set(new Date(expiresAt.getTime() - 1_000));
    assert.equal(
      (await api.request('GET', `/api/v1/mapping/${jobId}/results`, { as: caller })).status,
      200,
      'readable up to the last second',
    );

    api.clock.set(expiresAt);
    const results = await api.request('GET', `/api/v1/mapping/${jobId}/results`, { as: caller });
    assert.equal(results.status, 410, results.text);
    assert.equal(results.body.error, 'Gone');
    assert.equal(
      results.body.message,
      `The job's results were deleted at ${expiresAt.toISOString()}: results are kept 30 days from the job's creation.`,
    );
    const review = await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
      as: caller,
      json: { partnerHotelId: 'P2', decision: 'NO_MATCH' },
    });
    assert.equal(review.status, 410, review.text);
    const { Item: undecided } = await table.client.send(
      new GetCommand({ TableName: table.name, Key: { PK: `JOB#${jobId}`, SK: 'DECISION#P2' } }),
    );
    assert.equal(undecided, undefined, 'the refused review changed nothing');
    assert.equal((await api.request('POST', `/api/v1/mapping/${jobId}/export`, { as: caller })).status, 410);

    // The job stays listed, with its counts; another organization still finds no such job.
    const after = await api.request('GET', `/api/v1/mapping/${jobId}`, { as: caller });
    assert.equal(after.status, 200);
    assert.deepEqual(after.body.counts, counts);
    assert.deepEqual(
      (await api.request('GET', '/api/v1/mapping', { as: caller })).body.jobs.map(
        (listed: { mappingJobId: string }) => listed.mappingJobId,
      ),
      [jobId],
    );
    assert.equal((await api.request('GET', `/api/v1/mapping/${jobId}/results`, { as: other })).status, 404);
  });
});
