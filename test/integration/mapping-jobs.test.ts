/**
 * Mapping jobs end to end through the local runtime: creation rules, metering, the chunk workers
 * on the in-process queue (redelivery, dead letters, deadline), pinned publications, results and
 * their filters, reviews, exports, preferences and tenant isolation.
 */
import assert from 'node:assert/strict';
import { brotliCompressSync, gunzipSync } from 'node:zlib';
import { describe, it } from '@jest/globals';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { mapJobChunk, mappingChunkQueue, mappingJobRoutes } from '../../shared/mapping-jobs';
import { CONFIDENCE_CUTOFFS, REASON_CODES } from '../../shared/mapping';
import { inventoryStoreOf } from '../../shared/partner-inventories';
import { eventOutboxOf } from '../../shared/platform/events/outbox';
import { objectStoreOf } from '../../shared/platform/objects/services';
import { visibilityTimeoutSeconds } from '../../shared/platform/queue/queue';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { applyBillingEvent } from '../../shared/billing/billing';
import { billingStoreOf } from '../../shared/billing';
import { referenceStoreOf } from '../../shared/reference';
import { tableOf } from '../../shared/platform/table';
import { startTestApi, type Caller } from '../support/test-api';

const REFERENCE = { hotels: 300, seed: 5 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const api = await startTestApi();
await seedReferenceInventory(api.runtime, REFERENCE);
const HOTELBEDS_ID = '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0001';

/** Partner rows: the first `matched` reference hotels as they are, then hotels that exist nowhere. */
function partnerCsv(matched: number, invented = 0): string {
  const rows = hotels
    .slice(0, matched)
    .map((hotel, i) => [`P${i}`, hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat, hotel.lon]);
  for (let i = 0; i < invented; i++) rows.push([`X${i}`, `Zzyzx Qwerty Lodge ${i}`, '', 'Nowhere', 'Iceland', 63.1 + i / 100, -19.9]);
  return [formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon']), ...rows.map((row) => formatCsvRow(row))].join('\n');
}

/** Partner rows carrying the hotels' HOTELBEDS codes, for ID_TO_ID. */
function supplierCsv(count: number): string {
  const rows = hotels.filter((hotel) => hotel.supplierCodes.HOTELBEDS).slice(0, count);
  return ['id,name,supplierHotelId', ...rows.map((hotel, i) => formatCsvRow([`S${i}`, hotel.name, hotel.supplierCodes.HOTELBEDS]))].join(
    '\n',
  );
}

async function inventory(as: Caller, csv: string, supplierCode?: string): Promise<string> {
  const form = new FormData();
  form.append('name', 'test inventory');
  if (supplierCode) form.append('supplierCode', supplierCode);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'hotels.csv');
  const response = await api.request('POST', '/api/v1/partner-inventories', { as, body: form });
  assert.equal(response.status, 201, response.text);
  return response.body.partnerInventoryId;
}

const createJob = (as: Caller, json: unknown) => api.request('POST', '/api/v1/mapping', { as, json });
const getJob = (as: Caller, jobId: string) => api.request('GET', `/api/v1/mapping/${jobId}`, { as });
const results = (as: Caller, jobId: string, query = '') => api.request('GET', `/api/v1/mapping/${jobId}/results${query}`, { as });
const quota = async (as: Caller) => (await api.request('GET', '/api/v1/billing/quota/status', { as })).body;

async function completedJob(as: Caller, csv = partnerCsv(40, 5)): Promise<string> {
  const created = await createJob(as, { partnerInventoryId: await inventory(as, csv) });
  assert.equal(created.status, 201, created.text);
  await api.messaging.idle();
  assert.equal((await getJob(as, created.body.mappingJobId)).body.status, 'COMPLETED');
  return created.body.mappingJobId;
}

async function allResults(as: Caller, jobId: string, query: string): Promise<any[]> {
  const rows = [];
  let cursor: string | null = null;
  do {
    const page = await results(as, jobId, `${query}${cursor ? `${query ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.status, 200, page.text);
    rows.push(...page.body.results);
    cursor = page.body.nextCursor;
  } while (cursor);
  return rows;
}

describe('POST /api/v1/mapping', () => {
  it('creates a PENDING job with the resolved mode, and runs it to COMPLETED with counts and progress', async () => {
    const caller = await api.newOrganization();
    const partnerInventoryId = await inventory(caller, partnerCsv(40, 5));
    const created = await createJob(caller, { partnerInventoryId });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), ['createdAt', 'mappingJobId', 'mode', 'name', 'partnerInventoryId', 'status']);
    assert.equal(created.body.status, 'PENDING');
    assert.equal(created.body.mode, 'STANDARD');
    assert.equal(created.body.partnerInventoryId, partnerInventoryId);
    assert.equal(created.body.createdAt, api.clock.now().toISOString());
    const pending = await getJob(caller, created.body.mappingJobId);
    assert.equal(pending.body.status, 'PENDING');
    assert.deepEqual(pending.body.counts, { total: 45, processed: 0, matched: 0, review: 0, unmatched: 0, unchanged: 0 });
    assert.equal(pending.body.progress, 0);
    assert.equal(pending.body.bookWrite, undefined, 'told only once the job completed');

    await api.messaging.idle();
    const done = (await getJob(caller, created.body.mappingJobId)).body;
    assert.equal(done.status, 'COMPLETED');
    assert.equal(done.bookWrite, 'WRITTEN');
    assert.equal(done.counts.total, 45);
    assert.equal(done.counts.processed, 45);
    assert.equal(done.counts.matched + done.counts.review + done.counts.unmatched, 45);
    assert.ok(done.counts.matched >= 36, `most exact copies match (${done.counts.matched})`);
    assert.ok(done.counts.unmatched >= 5, 'invented hotels stay unmatched');
    assert.equal(done.progress, 1);
    assert.ok(done.startedAt && done.completedAt);

    const events = await eventOutboxOf(api.runtime).listForOrganization(caller.organization.id);
    const completed = events.filter((event) => event.type === 'MAPPING_COMPLETED');
    assert.equal(completed.length, 1);
    assert.deepEqual(completed[0]!.data.counts, done.counts);
    assert.equal(completed[0]!.data.mappingJobId, created.body.mappingJobId);
  });

  it('refuses bad requests with 400 or 404 and creates nothing', async () => {
    const caller = await api.newOrganization();
    const other = await api.newOrganization();
    const ready = await inventory(caller, partnerCsv(3));
    const foreign = await inventory(other, partnerCsv(3));
    const uploading = (
      await api.request('POST', '/api/v1/partner-inventories/uploads', {
        as: caller,
        json: { name: 'x', fileName: 'a.csv', sizeBytes: 100 },
      })
    ).body.partnerInventoryId;
    const cases: [unknown, number, RegExp][] = [
      [{ partnerInventoryId: ready, mode: 'FAST' }, 400, /^mode: must be STANDARD, ID_TO_ID or HYBRID/],
      [{ partnerInventoryId: 'not-a-uuid' }, 400, /^partnerInventoryId: must be a UUID/],
      [{}, 400, /^partnerInventoryId is required/],
      [{ partnerInventoryId: ready, extra: 1 }, 400, /Unknown field "extra"/],
      [{ partnerInventoryId: uploading }, 400, /UPLOADING; only a READY inventory/],
      [{ partnerInventoryId: ready, mode: 'ID_TO_ID' }, 400, /needs an inventory with a supplierCode/],
      [{ partnerInventoryId: ready, mode: 'HYBRID' }, 400, /needs an inventory with a supplierCode/],
      [{ partnerInventoryId: '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d9999' }, 404, /no partner inventory/],
      [{ partnerInventoryId: foreign }, 404, /no partner inventory/],
    ];
    for (const [body, status, message] of cases) {
      const response = await createJob(caller, body);
      assert.equal(response.status, status, JSON.stringify(body));
      assert.match(response.body.message, message);
    }
    const notConnected = await inventory(caller, supplierCsv(3), 'HOTELBEDS');
    const refused = await createJob(caller, { partnerInventoryId: notConnected, mode: 'ID_TO_ID' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /not connected to HOTELBEDS/);
    const unknownSupplier = await inventory(caller, supplierCsv(3), 'NOSUCHSUPPLIER');
    assert.match(
      (await createJob(caller, { partnerInventoryId: unknownSupplier, mode: 'HYBRID' })).body.message,
      /NOSUCHSUPPLIER is not supported/,
    );
    const inactive = await inventory(caller, supplierCsv(3), 'GTA');
    assert.match((await createJob(caller, { partnerInventoryId: inactive, mode: 'ID_TO_ID' })).body.message, /no longer takes connections/);

    assert.deepEqual((await api.request('GET', '/api/v1/mapping', { as: caller })).body, { jobs: [], nextCursor: null });
    assert.equal((await quota(caller)).mappingsUsedToday, 0, 'nothing was reserved');
  });

  it('maps ID_TO_ID through the connected supplier codes', async () => {
    const caller = await api.newOrganization();
    assert.equal((await api.request('POST', `/api/v1/suppliers/${HOTELBEDS_ID}/connect`, { as: caller })).status, 201);
    const partnerInventoryId = await inventory(caller, supplierCsv(10), 'HOTELBEDS');
    const created = await createJob(caller, { partnerInventoryId, mode: 'ID_TO_ID' });
    assert.equal(created.status, 201, created.text);
    await api.messaging.idle();
    const job = (await getJob(caller, created.body.mappingJobId)).body;
    assert.equal(job.status, 'COMPLETED');
    assert.equal(job.supplierCode, 'HOTELBEDS');
    const rows = await allResults(caller, created.body.mappingJobId, '');
    assert.equal(rows.length, 10);
    const withCodes = hotels.filter((hotel) => hotel.supplierCodes.HOTELBEDS);
    for (const row of rows) {
      assert.equal(row.method, 'ID');
      assert.equal(row.referenceHotelId, withCodes[Number(row.partnerHotelId.slice(1))]!.id);
    }
  });
});

describe('metering', () => {
  it('answers 403 when the allowance and credits do not cover the rows, creating nothing', async () => {
    const caller = await api.newOrganization(); // FREE: 1,000 mappings a day, no credits
    const rows = Array.from({ length: 1_001 }, (_, i) => `Q${i},Hotel ${i}`).join('\n');
    const partnerInventoryId = await inventory(caller, `id,name\n${rows}`);
    const refused = await createJob(caller, { partnerInventoryId });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'Forbidden');
    assert.match(refused.body.message, /1,001 mappings requested, 1,000 left in today's allowance and 0 credits/);
    assert.deepEqual((await api.request('GET', '/api/v1/mapping', { as: caller })).body.jobs, []);
    assert.equal((await quota(caller)).mappingsUsedToday, 0);
  });

  it('reserves the rows at creation and settles exactly what the job processed', async () => {
    const caller = await api.newOrganization();
    const partnerInventoryId = await inventory(caller, partnerCsv(30, 3));
    const created = await createJob(caller, { partnerInventoryId });
    assert.equal((await quota(caller)).mappingsUsedToday, 33, 'reserved while it runs');
    await api.messaging.idle();
    assert.equal((await getJob(caller, created.body.mappingJobId)).body.status, 'COMPLETED');
    const after = await quota(caller);
    assert.equal(after.mappingsUsedToday, 33);
    assert.equal(after.remainingQuota, 1_000 - 33);
    assert.equal((await api.request('GET', '/api/v1/billing/usage', { as: caller })).body.totalMappings, 33);
  });

  it('draws on credits past the allowance: exactly the processed rows after a completed job, none after one that failed before mapping a row', async () => {
    const caller = await api.newOrganization(); // FREE: 1,000 a day
    const granted = await applyBillingEvent(billingStoreOf(api.runtime), {
      id: `evt_${caller.organization.id}`,
      createdAt: Math.floor(api.clock.now().getTime() / 1000),
      customerId: 'cus_unused',
      organizationId: caller.organization.id,
      kind: 'credits_purchased',
      millions: 5,
      amountPaidCents: 500,
    });
    assert.equal(granted, 'applied');
    const rows = Array.from({ length: 1_150 }, (_, i) => `C${i},Credit Hotel ${i}`);
    const big = await inventory(caller, `id,name\n${rows.join('\n')}`);

    // A job that fails before mapping a row gives everything back: allowance and credits.
    const failing = await createJob(caller, { partnerInventoryId: big });
    assert.equal((await quota(caller)).creditBalance, 5_000_000 - 150, 'reserved: 1,000 from the allowance, 150 credits');
    api.clock.advance(6 * 3_600_000 + 1_000);
    await api.messaging.idle();
    assert.equal((await getJob(caller, failing.body.mappingJobId)).body.status, 'FAILED');
    assert.equal((await quota(caller)).mappingsUsedToday, 0);
    assert.equal((await api.request('GET', '/api/v1/billing/credits/balance', { as: caller })).body.creditsRemaining, 5_000_000);

    // A job that completes keeps exactly its rows: the allowance first, then credits.
    api.clock.advance(24 * 3_600_000); // a new UTC day, a fresh allowance
    const completing = await createJob(caller, { partnerInventoryId: big });
    await api.messaging.idle();
    assert.equal((await getJob(caller, completing.body.mappingJobId)).body.status, 'COMPLETED');
    assert.equal((await quota(caller)).mappingsUsedToday, 1_000);
    const balance = (await api.request('GET', '/api/v1/billing/credits/balance', { as: caller })).body;
    assert.equal(balance.creditsRemaining, 5_000_000 - 150);
    assert.equal(balance.creditsUsed, 150);
  });

  it('counts a redelivered chunk once', async () => {
    const caller = await api.newOrganization();
    const jobId = await completedJob(caller);
    const before = (await getJob(caller, jobId)).body;
    const { handler } = await import('../../functions/mapping-jobs/chunk');
    const message = { organizationId: caller.organization.id, mappingJobId: jobId, chunk: 0 };
    const response = await handler.withRuntime(api.runtime)({ Records: [{ messageId: 'again', body: JSON.stringify(message) } as never] });
    assert.deepEqual(response, { batchItemFailures: [] });
    assert.deepEqual((await getJob(caller, jobId)).body.counts, before.counts);
    assert.equal((await quota(caller)).mappingsUsedToday, 45);
    const events = await eventOutboxOf(api.runtime).listForOrganization(caller.organization.id);
    assert.equal(events.filter((event) => event.type === 'MAPPING_COMPLETED').length, 1);
  });

  it('fails the job with a readable reason and releases the reservation when a chunk dead-letters', async () => {
    const caller = await api.newOrganization();
    const partnerInventoryId = await inventory(caller, partnerCsv(10));
    const created = await createJob(caller, { partnerInventoryId });
    // The chunk's rows become unreadable: every delivery fails.
    const chunkKey = `partner-inventories/${caller.organization.id}/${partnerInventoryId}/rows/00000.jsonl.br`;
    await objectStoreOf(api.runtime).put(chunkKey, brotliCompressSync('{"id": "P0", broken'), 'application/octet-stream');
    // As on SQS, a failed delivery is handed out again after the queue's visibility timeout.
    for (let delivery = 1; delivery < mappingChunkQueue.maxReceiveCount; delivery++) {
      await api.messaging.idle();
      assert.equal((await getJob(caller, created.body.mappingJobId)).body.status, 'RUNNING');
      api.clock.advance(visibilityTimeoutSeconds(mappingChunkQueue) * 1000);
    }
    await api.messaging.idle();
    const failed = (await getJob(caller, created.body.mappingJobId)).body;
    assert.equal(failed.status, 'FAILED');
    assert.match(failed.error, /^Rows 1 to 10 could not be mapped after several attempts/);
    assert.ok(failed.failedAt);
    assert.equal((await quota(caller)).mappingsUsedToday, 0, 'the reservation is released');
  });

  it('fails a job still unfinished at its deadline and releases the reservation', async () => {
    const caller = await api.newOrganization();
    const created = await createJob(caller, { partnerInventoryId: await inventory(caller, partnerCsv(5)) });
    api.clock.advance(6 * 3_600_000 + 1_000);
    await api.messaging.idle();
    const failed = (await getJob(caller, created.body.mappingJobId)).body;
    assert.equal(failed.status, 'FAILED');
    assert.match(failed.error, /did not finish within 6 hours/);
    assert.equal((await quota(caller)).mappingsUsedToday, 0);
  });
});

/**
 * Runs `work` (a chunk delivery) and, when it is about to count its chunk (its rows are written),
 * runs `meanwhile` first: the moment a cancel or a failure races a chunk in flight.
 */
async function whileCountingChunk(work: () => Promise<void>, meanwhile: () => Promise<void>): Promise<void> {
  const client = tableOf(api.runtime).client;
  const send = client.send.bind(client);
  let raced = false;
  client.send = (async (command: Parameters<typeof send>[0]) => {
    if (!raced && command instanceof UpdateCommand && command.input.UpdateExpression?.includes('ADD doneChunks')) {
      raced = true;
      await meanwhile();
    }
    return send(command);
  }) as typeof client.send;
  try {
    await work();
  } finally {
    client.send = send;
  }
  assert.ok(raced, 'the chunk reached its count');
}

describe('a deadline dead-lettered', () => {
  it('still fails its job and settles it: the scheduler could not deliver it, or its worker failed every delivery', async () => {
    const caller = await api.newOrganization();
    const created = await createJob(caller, { partnerInventoryId: await inventory(caller, partnerCsv(5)) });
    const jobId = created.body.mappingJobId;
    assert.equal((await quota(caller)).mappingsUsedToday, 5, 'reserved');
    const { handler } = await import('../../functions/mapping-jobs/deadline-dead-letters');
    const message = { organizationId: caller.organization.id, mappingJobId: jobId };
    const response = await handler.withRuntime(api.runtime)({
      Records: [{ messageId: 'dead-deadline', body: JSON.stringify(message) } as never],
    });
    assert.deepEqual(response, { batchItemFailures: [] });
    const failed = (await getJob(caller, jobId)).body;
    assert.equal(failed.status, 'FAILED');
    assert.match(failed.error, /did not finish within 6 hours/);
    assert.equal((await quota(caller)).mappingsUsedToday, 0, 'nothing processed, nothing charged');
  });
});

describe('POST /api/v1/mapping/{jobId}/cancel', () => {
  const cancel = (as: Caller, jobId: string) => api.request('POST', `/api/v1/mapping/${jobId}/cancel`, { as });

  it('cancels a RUNNING job: its other chunks do nothing, the rows it processed are charged and readable, the rest released, no event', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    const created = await createJob(caller, { partnerInventoryId: await inventory(caller, partnerCsv(300, 2_200)) });
    const jobId = created.body.mappingJobId;
    assert.equal((await quota(caller)).mappingsUsedToday, 2_500, 'reserved at creation');
    // One of its two chunks is mapped before the partner cancels.
    await mapJobChunk({ organizationId: caller.organization.id, mappingJobId: jobId, chunk: 0 }, api.runtime);
    assert.equal((await getJob(caller, jobId)).body.status, 'RUNNING');

    const cancelled = await cancel(caller, jobId);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'CANCELLED');
    assert.equal(cancelled.body.cancelledAt, api.clock.now().toISOString());
    assert.equal(cancelled.body.counts.processed, 2_000);
    assert.equal((await quota(caller)).mappingsUsedToday, 2_000, 'the processed rows charged, the rest released');

    await api.messaging.idle();
    const after = (await getJob(caller, jobId)).body;
    assert.equal(after.status, 'CANCELLED');
    assert.equal(after.counts.processed, 2_000, 'the remaining chunk mapped nothing');
    assert.equal((await quota(caller)).mappingsUsedToday, 2_000);
    const events = await eventOutboxOf(api.runtime).listForOrganization(caller.organization.id);
    assert.deepEqual(events, []);
    assert.equal((await allResults(caller, jobId, '?limit=1000')).length, 2_000, 'the rows processed before the cancel stay readable');
    const exported = await api.request('POST', `/api/v1/mapping/${jobId}/export`, { as: caller });
    assert.equal(exported.status, 200, exported.text);
    assert.equal(exported.body.rowCount, 2_000);

    const again = await cancel(caller, jobId);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, after);
  }, 180_000);

  it('a late cancel or a deleted inventory: the rows readable, the counts and the charge agree, a chunk in flight included', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    // 2,100 rows, chunked in id order: chunk 1 holds the last hundred ids (X999 among them), chunk 0 the rest (X1000 among them).
    const csv = partnerCsv(300, 1_800);
    const deliver = (jobId: string, chunk: number) =>
      mapJobChunk({ organizationId: caller.organization.id, mappingJobId: jobId, chunk }, api.runtime);

    // Cancelled while chunk 1 is in flight: it has written its rows, and the cancel lands before it counts them.
    const cancelledJob = (await createJob(caller, { partnerInventoryId: await inventory(caller, csv) })).body.mappingJobId;
    await deliver(cancelledJob, 0);
    await whileCountingChunk(
      () => deliver(cancelledJob, 1),
      async () => assert.equal((await cancel(caller, cancelledJob)).status, 200),
    );
    // Deleted inventory: chunk 1 finds no rows and fails the job.
    const failedJob = (await createJob(caller, { partnerInventoryId: await inventory(caller, csv) })).body.mappingJobId;
    await deliver(failedJob, 0);
    const inventoryId = (await getJob(caller, failedJob)).body.partnerInventoryId;
    assert.equal((await api.request('DELETE', `/api/v1/partner-inventories/${inventoryId}`, { as: caller })).status, 204);
    await deliver(failedJob, 1);
    await api.messaging.idle();

    for (const [jobId, status] of [
      [cancelledJob, 'CANCELLED'],
      [failedJob, 'FAILED'],
    ] as const) {
      const job = (await getJob(caller, jobId)).body;
      assert.equal(job.status, status);
      assert.equal(job.counts.processed, 2_000, `${status}: chunk 0 counted, nothing after it`);
      assert.equal(job.counts.matched + job.counts.review + job.counts.unmatched, 2_000);
      const rows = await allResults(caller, jobId, '?limit=1000');
      assert.equal(rows.length, 2_000, `${status}: exactly the counted rows are readable`);
      for (const filter of ['MATCHED', 'REVIEW', 'UNMATCHED'] as const) {
        const filtered = await allResults(caller, jobId, `?status=${filter}&limit=1000`);
        assert.equal(
          filtered.length,
          job.counts[filter.toLowerCase() as 'matched' | 'review' | 'unmatched'],
          `${status}: ${filter} rows agree with the counts`,
        );
      }
      assert.deepEqual(
        (await results(caller, jobId, '?partnerHotelId=X999')).body.results,
        [],
        `${status}: a row of the uncounted chunk is not readable`,
      );
      assert.equal((await results(caller, jobId, '?partnerHotelId=X1000')).body.results.length, 1);
      const exported = await api.request('POST', `/api/v1/mapping/${jobId}/export`, { as: caller });
      assert.equal(exported.body.rowCount, 2_000);
    }
    assert.equal((await quota(caller)).mappingsUsedToday, 4_000, 'each job charged the 2,000 rows it shows, once');
  }, 180_000);

  it('an early cancel, with the first chunk in flight: nothing counted, nothing readable, nothing charged', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    const jobId = (await createJob(caller, { partnerInventoryId: await inventory(caller, partnerCsv(300, 2_200)) })).body.mappingJobId;
    await whileCountingChunk(
      () => mapJobChunk({ organizationId: caller.organization.id, mappingJobId: jobId, chunk: 0 }, api.runtime),
      async () => assert.equal((await cancel(caller, jobId)).status, 200),
    );
    await api.messaging.idle();
    const job = (await getJob(caller, jobId)).body;
    assert.equal(job.status, 'CANCELLED');
    assert.equal(job.counts.processed, 0);
    assert.deepEqual((await results(caller, jobId)).body, { results: [], nextCursor: null });
    assert.deepEqual((await results(caller, jobId, '?status=MATCHED')).body.results, []);
    assert.equal((await quota(caller)).mappingsUsedToday, 0);
  });

  it('cancels a PENDING job before any chunk runs', async () => {
    const caller = await api.newOrganization();
    const created = await createJob(caller, { partnerInventoryId: await inventory(caller, partnerCsv(10)) });
    const cancelled = await cancel(caller, created.body.mappingJobId);
    assert.equal(cancelled.body.status, 'CANCELLED');
    await api.messaging.idle();
    const after = (await getJob(caller, created.body.mappingJobId)).body;
    assert.equal(after.status, 'CANCELLED');
    assert.equal(after.counts.processed, 0);
    assert.equal((await quota(caller)).mappingsUsedToday, 0);
  });

  it('answers 409 for a job that completed, and changes nothing', async () => {
    const caller = await api.newOrganization();
    const jobId = await completedJob(caller);
    const before = (await getJob(caller, jobId)).body;
    const refused = await cancel(caller, jobId);
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /The job is COMPLETED; only a PENDING or RUNNING job can be cancelled/);
    assert.deepEqual((await getJob(caller, jobId)).body, before);
    assert.equal((await quota(caller)).mappingsUsedToday, 45);
  });

  it("answers 404 for another organization's job and leaves it running", async () => {
    const owner = await api.newOrganization();
    const intruder = await api.newOrganization();
    const created = await createJob(owner, { partnerInventoryId: await inventory(owner, partnerCsv(10)) });
    const refused = await cancel(intruder, created.body.mappingJobId);
    assert.equal(refused.status, 404);
    assert.deepEqual(Object.keys(refused.body).sort(), ['error', 'message']);
    await api.messaging.idle();
    assert.equal((await getJob(owner, created.body.mappingJobId)).body.status, 'COMPLETED');
    assert.equal((await cancel(owner, '00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await cancel(owner, 'not-a-uuid')).status, 400);
  });
});

describe('results', () => {
  const caller = api.newOrganization();

  it('pages through every row in partner id order, and filters with Queries', async () => {
    const as = await caller;
    const jobId = await completedJob(as);
    const all = await allResults(as, jobId, '?limit=7');
    assert.equal(all.length, 45);
    const ids = all.map((row) => row.partnerHotelId);
    assert.deepEqual(ids, [...ids].sort());
    const first = all.find((row) => row.partnerHotelId === 'P0')!;
    assert.equal(first.status, 'MATCHED');
    assert.equal(first.method, 'FUZZY');
    assert.equal(first.referenceHotelId, hotels[0]!.id);
    assert.equal(first.referenceHotelName, hotels[0]!.name);
    assert.ok(first.evidence.nameSimilarity > 0.9);
    assert.ok(Array.isArray(first.candidates));
    // Why a row is held or unmatched, for a machine: every REVIEW and UNMATCHED row says, no MATCHED row does.
    // And how far to trust each answer: its probability of being right, in three levels.
    for (const row of all) {
      if (row.status === 'MATCHED') assert.equal(row.reasonCode, undefined, row.partnerHotelId);
      else assert.ok((REASON_CODES as readonly string[]).includes(row.reasonCode), `${row.partnerHotelId}: ${row.reasonCode}`);
      const right = row.status === 'UNMATCHED' ? 1 - row.score : row.score;
      assert.equal(
        row.confidence,
        right >= CONFIDENCE_CUTOFFS.HIGH ? 'HIGH' : right >= CONFIDENCE_CUTOFFS.MEDIUM ? 'MEDIUM' : 'LOW',
        row.partnerHotelId,
      );
    }
    assert.ok(
      all.some((row) => row.reasonCode === 'NO_CANDIDATES'),
      'the rows of places the reference lacks',
    );

    const matched = await allResults(as, jobId, '?status=MATCHED&limit=5');
    assert.equal(matched.length, all.filter((row) => row.status === 'MATCHED').length);
    assert.ok(matched.every((row) => row.status === 'MATCHED'));
    const scores = matched.map((row) => row.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
      'best score first',
    );

    const fuzzy = await allResults(as, jobId, '?method=FUZZY');
    assert.equal(fuzzy.length, all.filter((row) => row.method === 'FUZZY').length);
    const unmatched = await allResults(as, jobId, '?status=UNMATCHED');
    assert.deepEqual(
      unmatched.map((row) => row.partnerHotelId).sort(),
      all
        .filter((row) => row.status === 'UNMATCHED')
        .map((row) => row.partnerHotelId)
        .sort(),
    );
    const band = await allResults(as, jobId, '?minScore=0.5&maxScore=0.99');
    assert.deepEqual(
      band.map((row) => row.partnerHotelId).sort(),
      all
        .filter((row) => row.score >= 0.5 && row.score <= 0.99)
        .map((row) => row.partnerHotelId)
        .sort(),
    );
    // Lowest first: the automatic matches likeliest wrong on the first page, the rest after it.
    const automatic = all.filter((row) => row.status === 'MATCHED' && row.method === 'FUZZY');
    const riskiest = await results(as, jobId, '?status=MATCHED&method=FUZZY&order=ASC&limit=5');
    assert.deepEqual(
      riskiest.body.results.map((row: { score: number }) => row.score),
      automatic
        .map((row) => row.score)
        .sort((a, b) => a - b)
        .slice(0, 5),
    );
    const ascending = await allResults(as, jobId, '?status=MATCHED&method=FUZZY&order=ASC&limit=7');
    assert.deepEqual(ascending.map((row) => row.partnerHotelId).sort(), automatic.map((row) => row.partnerHotelId).sort());
    assert.deepEqual(
      ascending.map((row) => row.score),
      [...ascending.map((row) => row.score)].sort((a, b) => a - b),
    );
    const one = await results(as, jobId, '?partnerHotelId=P3');
    assert.deepEqual(one.body, { results: [all.find((row) => row.partnerHotelId === 'P3')], nextCursor: null });
    assert.deepEqual((await results(as, jobId, '?partnerHotelId=nope')).body, { results: [], nextCursor: null });
  });

  it('lists rows whatever their partner ids are made of, characters beyond U+FFFF too, filtered or not', async () => {
    const as = await caller;
    // DynamoDB orders keys by their UTF-8 bytes: 'P' < 'Ａ' (U+FF21) < '𝐀' (U+1D400).
    const ids = ['P7', '\uff21-wide', '\u{1d400}-bold', '\u{1d400}-nowhere'];
    const rows = hotels
      .slice(0, 3)
      .map((hotel, i) => [ids[i]!, hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat, hotel.lon]);
    rows.push([ids[3]!, 'Zzyzx Qwerty Lodge', '', 'Nowhere', 'Iceland', 63.1, -19.9]);
    const csv = [formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon']), ...rows.map((row) => formatCsvRow(row))].join(
      '\n',
    );
    const jobId = await completedJob(as, csv);

    const all = await allResults(as, jobId, '?limit=1');
    assert.deepEqual(
      all.map((row) => row.partnerHotelId),
      ids.slice().sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
    for (const row of all) {
      const { status, score, partnerHotelId } = row;
      const byStatus = await allResults(as, jobId, `?status=${status}&limit=1`);
      assert.ok(
        byStatus.some((found) => found.partnerHotelId === partnerHotelId),
        `${partnerHotelId} under ${status}`,
      );
      const atItsScore = await allResults(as, jobId, `?minScore=${score}&maxScore=${score}`);
      assert.ok(
        atItsScore.some((found) => found.partnerHotelId === partnerHotelId),
        `${partnerHotelId} at ${score}`,
      );
    }
  });

  it('refuses bad filters and cursors with 400', async () => {
    const as = await caller;
    const jobId = await completedJob(as, partnerCsv(3));
    for (const query of [
      'status=DONE',
      'method=MAGIC',
      'minScore=2',
      'minScore=-0.1',
      'maxScore=abc',
      'minScore=0.9&maxScore=0.1',
      'limit=0',
      'limit=1001',
      'cursor=abc',
      'sort=score',
      'order=UP',
      'order=ASC&name=hotel',
    ]) {
      const response = await results(as, jobId, `?${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.body.error, 'Bad Request');
    }
    const foreignCursor = (await results(as, jobId, '?limit=1')).body.nextCursor;
    const otherJob = await completedJob(as, partnerCsv(3));
    assert.equal(
      (await results(as, otherJob, `?limit=1&cursor=${encodeURIComponent(foreignCursor)}`)).status,
      400,
      "another list's cursor",
    );
    // A forged cursor of a filtered list: refused, not a failure of the table's query.
    const forged = (position: unknown) => encodeURIComponent(Buffer.from(JSON.stringify(position)).toString('base64url'));
    for (const position of [
      { after: '-1#A' },
      { after: '2.0000#A' },
      { after: '#' },
      { after: '0.5' },
      { after: 'zzz#A' },
      { after: '0.5000#' },
    ]) {
      const response = await results(as, jobId, `?status=MATCHED&cursor=${forged(position)}`);
      assert.equal(response.status, 400, `${JSON.stringify(position)}: ${response.text}`);
      assert.equal(response.body.message, 'cursor: is not a cursor of this list.');
    }
    // A well-formed one below the lowest score asked for: nothing after it.
    const below = await results(as, jobId, `?minScore=0.5&cursor=${forged({ after: '0.1000#A' })}`);
    assert.deepEqual([below.status, below.body], [200, { results: [], nextCursor: null }]);
  });

  it('keeps a job on the publication it started on when the reference is republished mid-job', async () => {
    const as = await caller;
    const admin = await api.newOrganization({ role: 'admin' });
    const target = hotels[12]!;
    const partnerInventoryId = await inventory(as, partnerCsv(13));
    const pinned = await createJob(as, { partnerInventoryId });
    const before = (await referenceStoreOf(api.runtime).getCurrent())!.artifactsId;
    // Merge hotel 12 into another hotel: the next publication no longer has it.
    const reported = await api.request('POST', '/api/v1/reference/duplicates', {
      as,
      json: { originalHotelId: hotels[200]!.id, duplicateHotelId: target.id },
    });
    const merged = await api.request('POST', `/api/v1/reference/duplicates/${reported.body.reportId}/resolve`, {
      as: admin,
      json: { decision: 'MERGE' },
    });
    assert.equal(merged.status, 200, merged.text);
    await api.messaging.idle();
    assert.notEqual((await referenceStoreOf(api.runtime).getCurrent())!.artifactsId, before, 'a new publication is current');

    const pinnedRow = (await results(as, pinned.body.mappingJobId, '?partnerHotelId=P12')).body.results[0];
    assert.equal(pinnedRow.referenceHotelId, target.id, 'the running job still maps against its own publication');
    assert.equal((await getJob(as, pinned.body.mappingJobId)).body.referenceVersionId, before);
    const later = await createJob(as, { partnerInventoryId });
    await api.messaging.idle();
    const laterRow = (await results(as, later.body.mappingJobId, '?partnerHotelId=P12')).body.results[0];
    assert.notEqual(laterRow.referenceHotelId, target.id, 'a new job maps against the new publication');
  });
});

describe('reviews and exports', () => {
  it('records a decision on a row: results, the export and the event show it', async () => {
    const caller = await api.newOrganization();
    const jobId = await completedJob(caller);
    const review = (json: unknown) => api.request('POST', `/api/v1/mapping/${jobId}/reviews`, { as: caller, json });
    const invented = (await results(caller, jobId, '?partnerHotelId=X0')).body.results[0];
    assert.equal(invented.status, 'UNMATCHED');

    const matched = await review({ partnerHotelId: 'X0', decision: 'MATCH', referenceHotelId: hotels[250]!.id, note: 'same owner' });
    assert.equal(matched.status, 200, matched.text);
    assert.equal(matched.body.status, 'MATCHED');
    assert.equal(matched.body.method, 'MANUAL');
    assert.equal(matched.body.referenceHotelId, hotels[250]!.id);
    assert.equal(matched.body.referenceHotelName, hotels[250]!.name);
    assert.equal(matched.body.score, 1);
    assert.deepEqual(matched.body.review, {
      decision: 'MATCH',
      previous: { status: 'UNMATCHED', referenceHotelId: invented.referenceHotelId, score: invented.score },
      note: 'same owner',
      decidedBy: caller.apiKey.split('_')[1],
      decidedAt: api.clock.now().toISOString(),
    });
    const noMatch = await review({ partnerHotelId: 'P1', decision: 'NO_MATCH' });
    assert.equal(noMatch.body.status, 'UNMATCHED');
    assert.equal(noMatch.body.referenceHotelId, null);
    assert.equal(noMatch.body.review.previous.referenceHotelId, hotels[1]!.id);

    assert.deepEqual((await results(caller, jobId, '?partnerHotelId=X0')).body.results[0], matched.body);
    const manual = await allResults(caller, jobId, '?method=MANUAL');
    assert.deepEqual(manual.map((row) => row.partnerHotelId).sort(), ['P1', 'X0']);

    const events = (await eventOutboxOf(api.runtime).listForOrganization(caller.organization.id)).filter(
      (e) => e.type === 'MAPPING_ERROR_RESOLVED',
    );
    assert.equal(events.length, 2);
    assert.equal(events.find((e) => e.data.partnerHotelId === 'X0')!.data.referenceHotelId, hotels[250]!.id);

    const exported = await api.request('POST', `/api/v1/mapping/${jobId}/export`, { as: caller });
    assert.equal(exported.status, 200, exported.text);
    assert.equal(exported.body.format, 'csv');
    assert.equal(exported.body.rowCount, 45);
    const csv = await (await fetch(exported.body.fileUrl)).text();
    const lines = csv.trimEnd().split('\n');
    assert.equal(
      lines[0],
      'partnerHotelId,partnerHotelName,referenceHotelId,referenceHotelName,status,method,score,nameSimilarity,distanceMeters,addressMatch,postalCodeMatch,candidates,mappingJobId,partnerInventoryId,referenceHotelCity,referenceHotelCountryCode',
    );
    assert.equal(lines.length, 46);
    assert.ok(lines.some((line) => line.startsWith(`X0,Zzyzx Qwerty Lodge 0,${hotels[250]!.id},`) && line.includes(',MATCHED,MANUAL,1,')));
    assert.ok(lines.some((line) => line.startsWith('P1,') && line.includes(',UNMATCHED,MANUAL,0,')));
  });

  it('refuses reviews that do not hold, changing nothing', async () => {
    const caller = await api.newOrganization();
    const jobId = await completedJob(caller, partnerCsv(3));
    const review = (json: unknown) => api.request('POST', `/api/v1/mapping/${jobId}/reviews`, { as: caller, json });
    const cases: [unknown, number, RegExp][] = [
      [{ partnerHotelId: 'P0', decision: 'MATCH' }, 400, /referenceHotelId is required/],
      [
        { partnerHotelId: 'P0', decision: 'NO_MATCH', referenceHotelId: hotels[1]!.id },
        400,
        /^Unknown field "referenceHotelId" in the body\.$/,
      ],
      [
        { partnerHotelId: 'P0', decision: 'MATCH', referenceHotelId: '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d9999' },
        400,
        /no reference hotel has the id/,
      ],
      [{ partnerHotelId: 'P0', decision: 'MAYBE' }, 400, /^decision: must be MATCH, NO_MATCH or WITHDRAW/],
      [{ partnerHotelId: 'P0', decision: 'WITHDRAW' }, 409, /^The row P0 has no decision to withdraw\.$/],
      [
        { partnerHotelId: 'P0', decision: 'NO_MATCH', expectedDecidedAt: 'now' },
        400,
        /^expectedDecidedAt: must be the row's review\.decidedAt as read, or null/,
      ],
      [{ partnerHotelId: 'nope', decision: 'NO_MATCH' }, 404, /no result for partner hotel nope/],
    ];
    for (const [body, status, message] of cases) {
      const response = await review(body);
      assert.equal(response.status, status, JSON.stringify(body));
      assert.match(response.body.message, message);
    }
    const row = (await results(caller, jobId, '?partnerHotelId=P0')).body.results[0];
    assert.equal(row.review, undefined);
    assert.equal(row.method, 'FUZZY');
  });

  it('exports in the saved format: JSON Lines with chosen fields, gzip-compressed', async () => {
    const caller = await api.newOrganization();
    const jobId = await completedJob(caller, partnerCsv(4));
    await api.request('PUT', '/api/v1/export-format', {
      as: caller,
      json: { format: 'jsonl', includeFields: ['partnerHotelId', 'referenceHotelId', 'status'], compression: 'gzip' },
    });
    const exported = await api.request('POST', `/api/v1/mapping/${jobId}/export`, { as: caller });
    assert.equal(exported.status, 200);
    assert.deepEqual(
      { ...exported.body, fileUrl: undefined, expiresAt: undefined },
      {
        format: 'jsonl',
        compression: 'gzip',
        fields: ['partnerHotelId', 'referenceHotelId', 'status'],
        rowCount: 4,
        fileUrl: undefined,
        expiresAt: undefined,
      },
    );
    const body = gunzipSync(Buffer.from(await (await fetch(exported.body.fileUrl)).arrayBuffer())).toString('utf8');
    const rows = body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(rows[0], { partnerHotelId: 'P0', referenceHotelId: hotels[0]!.id, status: 'MATCHED' });
    await api.request('PUT', '/api/v1/export-format', { as: caller, json: { format: 'csv', delimiter: ';', includeHeader: false } });
    const csv = await (await fetch((await api.request('POST', `/api/v1/mapping/${jobId}/export`, { as: caller })).body.fileUrl)).text();
    assert.ok(csv.startsWith(`P0;${hotels[0]!.name.includes(';') ? '"' : ''}`));
    assert.equal(csv.trimEnd().split('\n').length, 4);
  });

  it("keeps the job's counts true to its rows through reviews, also when two decide the same row at once", async () => {
    const caller = await api.newOrganization();
    const jobId = await completedJob(caller);
    const counts = async () => (await getJob(caller, jobId)).body.counts;
    const before = await counts();
    const review = (json: unknown) => api.request('POST', `/api/v1/mapping/${jobId}/reviews`, { as: caller, json });

    assert.equal((await review({ partnerHotelId: 'X0', decision: 'MATCH', referenceHotelId: hotels[250]!.id })).status, 200);
    assert.deepEqual(await counts(), { ...before, matched: before.matched + 1, unmatched: before.unmatched - 1 });
    // MATCHED to another hotel: the counts stay.
    assert.equal((await review({ partnerHotelId: 'X0', decision: 'MATCH', referenceHotelId: hotels[251]!.id })).status, 200);
    assert.deepEqual(await counts(), { ...before, matched: before.matched + 1, unmatched: before.unmatched - 1 });

    const racing = await Promise.all(Array.from({ length: 6 }, () => review({ partnerHotelId: 'P2', decision: 'NO_MATCH' })));
    const statuses = racing.map((answer) => answer.status);
    assert.ok(statuses.includes(200), JSON.stringify(statuses));
    assert.ok(
      statuses.every((status) => status === 200 || status === 409),
      JSON.stringify(statuses),
    );
    const rows = await allResults(caller, jobId, '');
    const tally = (status: string) => rows.filter((row) => row.status === status).length;
    assert.deepEqual(await counts(), { ...before, matched: tally('MATCHED'), review: tally('REVIEW'), unmatched: tally('UNMATCHED') });
    assert.equal(tally('MATCHED'), before.matched);
  });

  it('exports text a spreadsheet would run as a formula as plain text', async () => {
    const caller = await api.newOrganization();
    const csv = ['id,name,city,country', '=1+1,"=HYPERLINK(""http://evil.example"",""Hotel"")",@Paris,fr', '-7,Plain Hotel,Paris,fr'].join(
      '\n',
    );
    const created = await createJob(caller, { partnerInventoryId: await inventory(caller, csv) });
    await api.messaging.idle();
    const exported = await api.request('POST', `/api/v1/mapping/${created.body.mappingJobId}/export`, { as: caller });
    const lines = (await (await fetch(exported.body.fileUrl)).text()).trimEnd().split('\n');
    const header = lines[0]!.split(',');
    const cells = (line: string) =>
      Object.fromEntries(line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)!.map((cell, index) => [header[index], cell.replace(/,$/, '')]));
    const rows = lines.slice(1).map(cells);
    const formula = rows.find((row) => row.partnerHotelId === "'=1+1")!;
    assert.ok(formula, lines.join('\n'));
    assert.equal(formula.partnerHotelName, `"'=HYPERLINK(""http://evil.example"",""Hotel"")"`);
    assert.ok(
      rows.some((row) => row.partnerHotelId === '-7'),
      'a number written as text stays a number',
    );
  });

  it('answers 409 for reviews and exports until the job has completed', async () => {
    const caller = await api.newOrganization();
    const created = await createJob(caller, { partnerInventoryId: await inventory(caller, partnerCsv(3)) });
    const jobId = created.body.mappingJobId;
    assert.equal((await api.request('POST', `/api/v1/mapping/${jobId}/export`, { as: caller })).status, 409);
    const review = await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
      as: caller,
      json: { partnerHotelId: 'P0', decision: 'NO_MATCH' },
    });
    assert.equal(review.status, 409);
    await api.messaging.idle();
  });
});

describe('jobs list, preferences and tenant isolation', () => {
  it('lists jobs newest first, paginated', async () => {
    const caller = await api.newOrganization();
    const partnerInventoryId = await inventory(caller, partnerCsv(2));
    const ids = [];
    for (let i = 0; i < 3; i++) {
      api.clock.advance(1000);
      ids.push((await createJob(caller, { partnerInventoryId })).body.mappingJobId);
    }
    await api.messaging.idle();
    const first = await api.request('GET', '/api/v1/mapping?limit=2', { as: caller });
    assert.deepEqual(
      first.body.jobs.map((job: { mappingJobId: string }) => job.mappingJobId),
      [ids[2], ids[1]],
    );
    const second = await api.request('GET', `/api/v1/mapping?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { as: caller });
    assert.deepEqual(
      second.body.jobs.map((job: { mappingJobId: string }) => job.mappingJobId),
      [ids[0]],
    );
    assert.equal(second.body.nextCursor, null);
    assert.ok(second.body.jobs.every((job: { status: string }) => job.status === 'COMPLETED'));
  });

  it('uses the default mode preference when a job names none (STANDARD until set)', async () => {
    const caller = await api.newOrganization();
    assert.deepEqual((await api.request('GET', '/api/v1/mapping/preferences', { as: caller })).body, { defaultMode: 'STANDARD' });
    const bad = await api.request('PUT', '/api/v1/mapping/preferences', { as: caller, json: { defaultMode: 'FAST' } });
    assert.equal(bad.status, 400);
    const saved = await api.request('PUT', '/api/v1/mapping/preferences', { as: caller, json: { defaultMode: 'HYBRID' } });
    assert.deepEqual(saved.body, { defaultMode: 'HYBRID' });
    assert.deepEqual((await api.request('GET', '/api/v1/mapping/preferences', { as: caller })).body, { defaultMode: 'HYBRID' });
    await api.request('POST', `/api/v1/suppliers/${HOTELBEDS_ID}/connect`, { as: caller });
    const created = await createJob(caller, { partnerInventoryId: await inventory(caller, supplierCsv(3), 'HOTELBEDS') });
    assert.equal(created.body.mode, 'HYBRID');
    const explicit = await createJob(caller, { partnerInventoryId: await inventory(caller, partnerCsv(2)), mode: 'STANDARD' });
    assert.equal(explicit.body.mode, 'STANDARD');
    await api.messaging.idle();
    const other = await api.newOrganization();
    assert.deepEqual((await api.request('GET', '/api/v1/mapping/preferences', { as: other })).body, { defaultMode: 'STANDARD' });
  });

  it("never shows or changes another organization's jobs", async () => {
    const owner = await api.newOrganization();
    const other = await api.newOrganization();
    const jobId = await completedJob(owner, partnerCsv(3));
    for (const [method, path, json] of [
      ['GET', `/api/v1/mapping/${jobId}`],
      ['GET', `/api/v1/mapping/${jobId}/results`],
      ['GET', `/api/v1/mapping/${jobId}/results?status=MATCHED`],
      ['POST', `/api/v1/mapping/${jobId}/reviews`, { partnerHotelId: 'P0', decision: 'NO_MATCH' }],
      ['POST', `/api/v1/mapping/${jobId}/export`],
    ] as const) {
      const response = await api.request(method, path, { as: other, json });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal(response.body.error, 'Not Found');
    }
    assert.deepEqual((await api.request('GET', '/api/v1/mapping', { as: other })).body.jobs, []);
    const row = (await results(owner, jobId, '?partnerHotelId=P0')).body.results[0];
    assert.equal(row.review, undefined);
    assert.equal(await inventoryStoreOf(api.runtime).get(other.organization.id, jobId), undefined);
  });

  it('runs creation, results and reviews on functions with only the settings their routes declare', async () => {
    const caller = await api.newOrganization();
    const partnerInventoryId = await inventory(caller, partnerCsv(3));
    const lean = await api.serveLean([
      mappingJobRoutes.createMappingJob,
      mappingJobRoutes.listMappingResults,
      mappingJobRoutes.reviewMappingResult,
    ]);
    const created = await lean('POST', '/api/v1/mapping', { as: caller, json: { partnerInventoryId } });
    assert.equal(created.status, 201, created.text);
    await api.messaging.idle();
    const page = await lean('GET', `/api/v1/mapping/${created.body.mappingJobId}/results`, { as: caller });
    assert.equal(page.body.results.length, 3);
    const reviewed = await lean('POST', `/api/v1/mapping/${created.body.mappingJobId}/reviews`, {
      as: caller,
      json: { partnerHotelId: 'P0', decision: 'NO_MATCH' },
    });
    assert.equal(reviewed.status, 200, reviewed.text);
  });

  it('names a job as asked, else after its inventory, and refuses a name that is no name', async () => {
    const caller = await api.newOrganization();
    const partnerInventoryId = await inventory(caller, partnerCsv(2));
    const named = await createJob(caller, { partnerInventoryId, name: '  Spain, November upload ' });
    assert.equal(named.status, 201, named.text);
    assert.equal(named.body.name, 'Spain, November upload');
    const unnamed = await createJob(caller, { partnerInventoryId });
    const inventoryName = (await api.request('GET', `/api/v1/partner-inventories/${partnerInventoryId}`, { as: caller })).body.name;
    assert.equal(unnamed.body.name, inventoryName);
    await api.messaging.idle();
    const listed = (await api.request('GET', '/api/v1/mapping', { as: caller })).body.jobs;
    assert.deepEqual(listed.map((job: { name: string }) => job.name).sort(), [inventoryName, 'Spain, November upload'].sort());
    assert.equal(
      (await api.request('GET', `/api/v1/mapping/${named.body.mappingJobId}`, { as: caller })).body.name,
      'Spain, November upload',
    );
    for (const name of ['', '   ', 'x'.repeat(201), 42]) {
      const refused = await createJob(caller, { partnerInventoryId, name });
      assert.equal(refused.status, 400, `${JSON.stringify(name)}: ${refused.text}`);
      assert.match(refused.body.message, /^name/);
    }
    assert.equal((await api.request('GET', '/api/v1/mapping', { as: caller })).body.jobs.length, 2, 'nothing created by a refused request');
  });

  it('answers 400 for a malformed job id and 401 without a credential', async () => {
    const caller = await api.newOrganization();
    assert.equal((await api.request('GET', '/api/v1/mapping/not-a-uuid', { as: caller })).status, 400);
    assert.equal((await api.request('GET', '/api/v1/mapping')).status, 401);
    assert.equal((await api.request('POST', '/api/v1/mapping', { json: {} })).status, 401);
  });
});
