/**
 * Decisions in batches through the local runtime: POST /api/v1/mapping/{jobId}/reviews/batch decides
 * each row as a single review would, commits them a transaction of rows at a time with the job's
 * counts, the book's entries and the feed, refuses what a single review refuses row by row, and
 * answers a repeated Idempotency-Key again.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { DECISIONS_PER_COMMIT } from '../../shared/mapping-book';
import { blocksOf } from '../../shared/platform/objects/block-files';
import { mappingJobRoutes } from '../../shared/mapping-jobs';
import { eventOutboxOf } from '../../shared/platform/events/outbox';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { tableOf } from '../../shared/platform/table';
import { completedJob } from '../support/completed-job';
import { startTestApi, type Caller } from '../support/test-api';

const REFERENCE = { hotels: 120, seed: 9 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const api = await startTestApi();
await seedReferenceInventory(api.runtime, REFERENCE);

/** A completed job of the first `matched` reference hotels as they are (P0…), then `invented` hotels that exist nowhere (X0…). */
function partnerJob(as: Caller, matched: number, invented: number): Promise<string> {
  const rows = hotels
    .slice(0, matched)
    .map((hotel, i) => [`P${i}`, hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat, hotel.lon]);
  for (let i = 0; i < invented; i++) rows.push([`X${i}`, `Zzyzx Qwerty Lodge ${i}`, '', 'Nowhere', 'Iceland', 63.1 + i / 100, -19.9]);
  return completedJob(
    api,
    as,
    [formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon']), ...rows.map((row) => formatCsvRow(row))].join('\n'),
  );
}

/** A row as a batch's answer gives it: in brief. */
const brief = (row: {
  partnerHotelId: string;
  status: string;
  method: string | null;
  score: number;
  referenceHotelId: string | null;
  referenceHotelName: string | null;
  review?: { decision: string; decidedAt: string };
}) => ({
  partnerHotelId: row.partnerHotelId,
  status: row.status,
  method: row.method,
  score: row.score,
  referenceHotelId: row.referenceHotelId,
  referenceHotelName: row.referenceHotelName,
  ...(row.review && { review: { decision: row.review.decision, decidedAt: row.review.decidedAt } }),
});

const batch = (as: Caller, jobId: string, decisions: unknown, headers?: Record<string, string>) =>
  api.request('POST', `/api/v1/mapping/${jobId}/reviews/batch`, { as, json: { decisions }, ...(headers && { headers }) });
const jobOf = async (as: Caller, jobId: string) => (await api.request('GET', `/api/v1/mapping/${jobId}`, { as })).body;
const rowOf = async (as: Caller, jobId: string, partnerHotelId: string) =>
  (await api.request('GET', `/api/v1/mapping/${jobId}/results?partnerHotelId=${partnerHotelId}`, { as })).body.results[0];
const entryOf = async (as: Caller, partnerHotelId: string) =>
  (await api.request('GET', `/api/v1/mapping-book/entry?partnerHotelId=${partnerHotelId}`, { as })).body;
const resolvedEvents = async (as: Caller) =>
  (await eventOutboxOf(api.runtime).listForOrganization(as.organization.id)).filter((event) => event.type === 'MAPPING_ERROR_RESOLVED');

/** The book's feed commits made by people, with how many changes each holds. */
async function reviewCommits(as: Caller): Promise<number[]> {
  const table = tableOf(api.runtime);
  const page = await table.client.send(
    new QueryCommand({
      TableName: table.name,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :commit)',
      ExpressionAttributeValues: { ':pk': `BOOK#${as.organization.id}`, ':commit': 'COMMIT#' },
    }),
  );
  return (page.Items ?? []).filter((item) => item.cause.kind === 'REVIEW').map((item) => item.changeCount as number);
}

describe('POST /api/v1/mapping/{jobId}/reviews/batch', () => {
  it('decides 70 rows in one request: each row, the counts, the score figures, the book, the feed and the events; its undo restores them', async () => {
    const partner = await api.newOrganization();
    const jobId = await partnerJob(partner, 30, 40);
    const job = await jobOf(partner, jobId);
    const before = job.counts;
    const ids = [...Array.from({ length: 30 }, (_, i) => `P${i}`), ...Array.from({ length: 40 }, (_, i) => `X${i}`)];
    // The job's score figures, written when it completed: each status's rows in its histogram, and the risk of each row summed.
    const engineRows = await Promise.all(ids.map((id) => rowOf(partner, jobId, id)));
    const riskOf = (row: { status: string; score: number }) => (row.status === 'UNMATCHED' ? row.score : 1 - row.score);
    for (const status of ['MATCHED', 'REVIEW', 'UNMATCHED'] as const) {
      const rows = engineRows.filter((row) => row.status === status);
      assert.equal(
        job.scores.histogram[status].reduce((sum: number, count: number) => sum + count, 0),
        rows.length,
        status,
      );
      assert.ok(Math.abs(job.scores.expectedWrong[status] - rows.reduce((sum, row) => sum + riskOf(row), 0)) < 1e-4, status);
    }
    assert.ok(job.scores.expectedWrong.MATCHED > 0);

    const decisions = ids.map((id, i) =>
      i < 30
        ? { partnerHotelId: id, decision: 'NO_MATCH', expectedDecidedAt: null }
        : { partnerHotelId: id, decision: 'MATCH', referenceHotelId: hotels[i]!.id, expectedDecidedAt: null },
    );
    const accepted = await batch(partner, jobId, decisions);
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual(accepted.body.refused, []);
    assert.deepEqual(
      accepted.body.decided.map((row: { partnerHotelId: string }) => row.partnerHotelId),
      ids,
    );
    const decidedAt = api.clock.now().toISOString();
    for (const [i, row] of accepted.body.decided.entries()) {
      assert.equal(row.status, i < 30 ? 'UNMATCHED' : 'MATCHED');
      assert.equal(row.method, 'MANUAL');
      assert.equal(row.referenceHotelId, i < 30 ? null : hotels[i]!.id);
      assert.equal(row.review.decidedAt, decidedAt);
    }
    // Each row in brief, as it now is.
    assert.deepEqual(accepted.body.decided[47], brief(await rowOf(partner, jobId, 'X17')));
    const decidedJob = await jobOf(partner, jobId);
    assert.deepEqual(decidedJob.counts, { ...before, matched: 40, review: 0, unmatched: 30 });
    // Every row decided: none is left to be wrong; the histogram stays the engine's.
    for (const status of ['MATCHED', 'REVIEW', 'UNMATCHED'] as const)
      assert.ok(Math.abs(decidedJob.scores.expectedWrong[status]) < 1e-4, status);
    assert.deepEqual(decidedJob.scores.histogram, job.scores.histogram);
    const entry = await entryOf(partner, 'X12');
    assert.equal(entry.status, 'MATCHED');
    assert.equal(entry.referenceHotelId, hotels[42]!.id);
    assert.equal(entry.decision.decision, 'MATCH');
    assert.equal((await entryOf(partner, 'P3')).decision.decision, 'NO_MATCH');
    // One feed commit per transaction of rows.
    assert.deepEqual(
      await reviewCommits(partner),
      blocksOf(ids, DECISIONS_PER_COMMIT).map((block) => block.length),
    );
    assert.equal((await resolvedEvents(partner)).length, 70);

    const undone = await batch(
      partner,
      jobId,
      accepted.body.decided.map((row: { partnerHotelId: string; review: { decidedAt: string } }) => ({
        partnerHotelId: row.partnerHotelId,
        decision: 'WITHDRAW',
        expectedDecidedAt: row.review.decidedAt,
      })),
    );
    assert.equal(undone.status, 200, undone.text);
    assert.deepEqual(undone.body.decided, engineRows.map(brief));
    assert.deepEqual(await Promise.all(ids.map((id) => rowOf(partner, jobId, id))), engineRows, "the engine's rows as they were");
    const undoneJob = await jobOf(partner, jobId);
    assert.deepEqual(undoneJob.counts, before);
    for (const status of ['MATCHED', 'REVIEW', 'UNMATCHED'] as const)
      assert.ok(Math.abs(undoneJob.scores.expectedWrong[status] - job.scores.expectedWrong[status]) < 1e-4, status);
    const back = await entryOf(partner, 'X12');
    assert.equal(back.decision, undefined);
    assert.equal((await resolvedEvents(partner)).length, 140);
  });

  it('refuses row by row what a single review refuses, decides the rest, and changes nothing of the refused', async () => {
    const partner = await api.newOrganization();
    const jobId = await partnerJob(partner, 3, 3);
    const decided = await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
      as: partner,
      json: { partnerHotelId: 'X2', decision: 'NO_MATCH' },
    });
    assert.equal(decided.status, 200);
    const before = (await jobOf(partner, jobId)).counts;

    const answer = await batch(partner, jobId, [
      { partnerHotelId: 'P0', decision: 'NO_MATCH', expectedDecidedAt: null },
      { partnerHotelId: 'nope', decision: 'NO_MATCH' },
      { partnerHotelId: 'P1', decision: 'MATCH', referenceHotelId: '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d9999' },
      { partnerHotelId: 'P2', decision: 'WITHDRAW' },
      { partnerHotelId: 'X2', decision: 'MATCH', referenceHotelId: hotels[5]!.id, expectedDecidedAt: null },
      { partnerHotelId: 'X0', decision: 'MATCH', referenceHotelId: hotels[7]!.id },
    ]);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(
      answer.body.decided.map((row: { partnerHotelId: string; status: string }) => [row.partnerHotelId, row.status]),
      [
        ['P0', 'UNMATCHED'],
        ['X0', 'MATCHED'],
      ],
    );
    assert.deepEqual(answer.body.refused, [
      { partnerHotelId: 'nope', status: 404, error: 'Not Found', message: 'The job has no result for partner hotel nope.' },
      {
        partnerHotelId: 'P1',
        status: 400,
        error: 'Bad Request',
        message: 'referenceHotelId: no reference hotel has the id 0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d9999.',
      },
      { partnerHotelId: 'P2', status: 409, error: 'Conflict', message: 'The row P2 has no decision to withdraw.' },
      {
        partnerHotelId: 'X2',
        status: 409,
        error: 'Conflict',
        message: `The row X2 changed since you read it: it was decided NO_MATCH at ${decided.body.review.decidedAt}. Read it again and decide again if needed.`,
      },
    ]);
    assert.deepEqual((await jobOf(partner, jobId)).counts, { ...before, matched: before.matched, unmatched: before.unmatched });
    assert.equal((await rowOf(partner, jobId, 'P1')).review, undefined);
    assert.equal((await rowOf(partner, jobId, 'X2')).review.decision, 'NO_MATCH');
  });

  it('refuses a malformed batch whole with 400, deciding nothing', async () => {
    const partner = await api.newOrganization();
    const jobId = await partnerJob(partner, 2, 1);
    const cases: [unknown, RegExp][] = [
      [[], /^decisions: must hold at least one decision/],
      [
        Array.from({ length: 501 }, (_, i) => ({ partnerHotelId: `P${i}`, decision: 'NO_MATCH' })),
        /^decisions: must hold at most 500 decisions/,
      ],
      [
        [
          { partnerHotelId: 'P0', decision: 'NO_MATCH' },
          { partnerHotelId: 'P1', decision: 'MAYBE' },
        ],
        /^decisions\.1\.decision: must be MATCH, NO_MATCH or WITHDRAW/,
      ],
      [
        [
          { partnerHotelId: 'P0', decision: 'NO_MATCH' },
          { partnerHotelId: 'P0', decision: 'WITHDRAW' },
        ],
        /^decisions: the row P0 is decided twice/,
      ],
    ];
    for (const [decisions, message] of cases) {
      const answer = await batch(partner, jobId, decisions);
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.body.error, 'Bad Request');
      assert.match(answer.body.message, message);
    }
    assert.equal((await rowOf(partner, jobId, 'P0')).review, undefined);
    assert.equal((await resolvedEvents(partner)).length, 0);
  });

  it('answers a repeated Idempotency-Key with the first answer, deciding nothing again', async () => {
    const partner = await api.newOrganization();
    const jobId = await partnerJob(partner, 0, 4);
    const decisions = ['X0', 'X1', 'X2'].map((id) => ({ partnerHotelId: id, decision: 'NO_MATCH', expectedDecidedAt: null }));
    const first = await batch(partner, jobId, decisions, { 'idempotency-key': 'bulk-1' });
    api.clock.advance(1000);
    const again = await batch(partner, jobId, decisions, { 'idempotency-key': 'bulk-1' });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((await resolvedEvents(partner)).length, 3);
    // Without the key, the same batch is checked again: each row changed since it was read.
    const unkeyed = await batch(partner, jobId, decisions);
    assert.deepEqual(
      unkeyed.body.refused.map((row: { status: number }) => row.status),
      [409, 409, 409],
    );
  });

  it('keeps the counts true when a batch and single reviews decide the same rows at once', async () => {
    const partner = await api.newOrganization();
    const jobId = await partnerJob(partner, 0, 30);
    const ids = Array.from({ length: 30 }, (_, i) => `X${i}`);
    const [bulk, ...singles] = await Promise.all([
      batch(
        partner,
        jobId,
        ids.map((id) => ({ partnerHotelId: id, decision: 'MATCH', referenceHotelId: hotels[1]!.id, expectedDecidedAt: null })),
      ),
      ...ids
        .filter((_, i) => i % 3 === 0)
        .map((id) =>
          api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
            as: partner,
            json: { partnerHotelId: id, decision: 'MATCH', referenceHotelId: hotels[2]!.id, expectedDecidedAt: null },
          }),
        ),
    ]);
    assert.equal(bulk.status, 200, bulk.text);
    // Eleven writers take turns on the book's feed: under a loaded machine a single review may outlast
    // its function's time and answer 503 (its decision may still land). None is decided twice.
    const statuses = singles.map((answer) => answer.status);
    assert.ok(
      statuses.every((status) => status === 200 || status === 409 || status === 503),
      JSON.stringify(statuses),
    );
    assert.ok(bulk.body.refused.every((row: { status: number }) => row.status === 409));
    assert.ok(bulk.body.decided.length + statuses.filter((status) => status === 200).length <= 30);
    // Every row ends decided once, by the batch or by its single review: one event each, the counts exact.
    const deadline = Date.now() + 20_000;
    while ((await resolvedEvents(partner)).length < 30 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await resolvedEvents(partner)).length, 30);
    const rows = await Promise.all(ids.map((id) => rowOf(partner, jobId, id)));
    assert.ok(
      rows.every((row) => row.status === 'MATCHED' && row.review?.decision === 'MATCH'),
      JSON.stringify(rows.map((row) => row.status)),
    );
    assert.equal((await jobOf(partner, jobId)).counts.matched, 30);
    // Writers racing for the book's feed take turns after short jittered pauses: seconds alone, longer beside the suite's load.
  }, 120_000);

  it("answers 404 for another organization's job, 409 before the job completes, and runs on a function with only its route's settings", async () => {
    const partner = await api.newOrganization();
    const stranger = await api.newOrganization();
    const jobId = await partnerJob(partner, 0, 2);
    const foreign = await batch(stranger, jobId, [{ partnerHotelId: 'X0', decision: 'NO_MATCH' }]);
    assert.equal(foreign.status, 404, foreign.text);
    assert.equal((await rowOf(partner, jobId, 'X0')).review, undefined);

    const lean = await api.serveLean([mappingJobRoutes.reviewMappingResults]);
    const answer = await lean('POST', `/api/v1/mapping/${jobId}/reviews/batch`, {
      as: partner,
      json: { decisions: [{ partnerHotelId: 'X1', decision: 'NO_MATCH' }] },
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body.refused, []);
    assert.equal(answer.body.decided[0].review.decision, 'NO_MATCH');
    // A newer inventory's job, still running (it lists X0 and X1 no more: the book keeps them as removed).
    const form = new FormData();
    form.append('name', 'one hotel');
    form.append('file', new Blob(['id,name\nA,Somewhere Hotel'], { type: 'text/csv' }), 'hotels.csv');
    const inventory = (await api.request('POST', '/api/v1/partner-inventories', { as: partner, body: form })).body.partnerInventoryId;
    const pending = (await api.request('POST', '/api/v1/mapping', { as: partner, json: { partnerInventoryId: inventory } })).body
      .mappingJobId;
    const early = await batch(partner, pending, [{ partnerHotelId: 'A', decision: 'NO_MATCH' }]);
    assert.equal(early.status, 409, early.text);
    await api.messaging.idle();
  });
});
