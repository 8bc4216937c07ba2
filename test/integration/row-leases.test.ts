/**
 * Several reviewers on one job's queue, through the local runtime: PUT /api/v1/mapping/{jobId}/leases/{holder}
 * leases the rows a reviewer is about to show unless another holds them, renews and releases; a
 * decision on a row another reviewer holds is refused with 409, single or in a batch; leases end by
 * themselves; DELETE releases a holder's rows.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { mappingJobRoutes } from '../../shared/mapping-jobs';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { completedJob } from '../support/completed-job';
import { startTestApi, type Caller } from '../support/test-api';

const REFERENCE = { hotels: 60, seed: 13 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const api = await startTestApi();
await seedReferenceInventory(api.runtime, REFERENCE);

const csv = (count: number) =>
  [
    formatCsvRow(['id', 'name', 'city', 'country', 'lat', 'lon']),
    ...hotels.slice(0, count).map((hotel, i) => formatCsvRow([`P${i}`, hotel.name, hotel.city, hotel.country, hotel.lat, hotel.lon])),
  ].join('\n');

const lease = (as: Caller, jobId: string, holder: string, partnerHotelIds: string[], seconds?: number) =>
  api.request('PUT', `/api/v1/mapping/${jobId}/leases/${holder}`, {
    as,
    json: { partnerHotelIds, ...(seconds !== undefined && { seconds }) },
  });
const review = (as: Caller, jobId: string, json: Record<string, unknown>) =>
  api.request('POST', `/api/v1/mapping/${jobId}/reviews`, { as, json });
const ids = (rows: { partnerHotelId: string }[]) => rows.map((row) => row.partnerHotelId);

describe('row leases', () => {
  it('never lease a row to two reviewers at once: the second is told who has it until when, and skips it', async () => {
    const partner = await api.newOrganization();
    const jobId = await completedJob(api, partner, csv(10));
    const first = await lease(partner, jobId, 'reviewer-a', ['P0', 'P1', 'P2', 'P3', 'P4']);
    assert.equal(first.status, 200, first.text);
    const until = new Date(api.clock.now().getTime() + 90_000).toISOString();
    assert.deepEqual(first.body, {
      leased: ['P0', 'P1', 'P2', 'P3', 'P4'].map((partnerHotelId) => ({ partnerHotelId, expiresAt: until, decidedAt: null })),
      taken: [],
    });

    const second = await lease(partner, jobId, 'reviewer-b', ['P3', 'P4', 'P5', 'P6']);
    assert.deepEqual(ids(second.body.leased), ['P5', 'P6']);
    assert.deepEqual(second.body.taken, [
      { partnerHotelId: 'P3', expiresAt: until },
      { partnerHotelId: 'P4', expiresAt: until },
    ]);

    // Asked again, a holder's rows are renewed, new ones leased, the others released for the next reviewer.
    api.clock.advance(30_000);
    const renewed = await lease(partner, jobId, 'reviewer-a', ['P3', 'P4', 'P7'], 120);
    assert.deepEqual(ids(renewed.body.leased), ['P3', 'P4', 'P7']);
    assert.ok(
      renewed.body.leased.every(
        (row: { expiresAt: string }) => row.expiresAt === new Date(api.clock.now().getTime() + 120_000).toISOString(),
      ),
    );
    assert.deepEqual(ids((await lease(partner, jobId, 'reviewer-b', ['P0', 'P1', 'P3'])).body.leased), ['P0', 'P1']);

    // A lease nobody renews ends by itself.
    api.clock.advance(121_000);
    assert.deepEqual(ids((await lease(partner, jobId, 'reviewer-b', ['P3', 'P4'])).body.leased), ['P3', 'P4']);
  });

  it('refuse a decision on a row another reviewer holds, single or in a batch, and say when a held row was decided', async () => {
    const partner = await api.newOrganization();
    const jobId = await completedJob(api, partner, csv(6));
    await lease(partner, jobId, 'reviewer-a', ['P0', 'P1']);
    await lease(partner, jobId, 'reviewer-b', ['P2']);

    for (const json of [
      { partnerHotelId: 'P0', decision: 'NO_MATCH', leaseHolder: 'reviewer-b' },
      { partnerHotelId: 'P0', decision: 'NO_MATCH' },
    ]) {
      const refused = await review(partner, jobId, json);
      assert.equal(refused.status, 409, refused.text);
      assert.equal(
        refused.body.message,
        'The row P0 is being reviewed by someone else (leased to another reviewer for a short while); decide it once they leave it.',
      );
    }
    assert.equal(
      (await api.request('GET', `/api/v1/mapping/${jobId}/results?partnerHotelId=P0`, { as: partner })).body.results[0].review,
      undefined,
    );
    const decided = await review(partner, jobId, { partnerHotelId: 'P0', decision: 'NO_MATCH', leaseHolder: 'reviewer-a' });
    assert.equal(decided.status, 200, decided.text);
    // A row no one holds is decided by anyone.
    assert.equal((await review(partner, jobId, { partnerHotelId: 'P5', decision: 'NO_MATCH' })).status, 200);

    const batch = await api.request('POST', `/api/v1/mapping/${jobId}/reviews/batch`, {
      as: partner,
      json: {
        leaseHolder: 'reviewer-b',
        decisions: ['P1', 'P2', 'P3'].map((partnerHotelId) => ({ partnerHotelId, decision: 'NO_MATCH' })),
      },
    });
    assert.equal(batch.status, 200, batch.text);
    assert.deepEqual(ids(batch.body.decided), ['P2', 'P3']);
    assert.deepEqual(
      batch.body.refused.map((row: { partnerHotelId: string; status: number }) => [row.partnerHotelId, row.status]),
      [['P1', 409]],
    );

    // Reviewer a moves on; b is leased P0 and told it was decided since.
    await lease(partner, jobId, 'reviewer-a', ['P1']);
    const held = await lease(partner, jobId, 'reviewer-b', ['P0', 'P4']);
    assert.deepEqual(
      held.body.leased.map((row: { partnerHotelId: string; decidedAt: string | null }) => [row.partnerHotelId, row.decidedAt]),
      [
        ['P0', decided.body.review.decidedAt],
        ['P4', null],
      ],
    );

    // Leaving releases every row of the holder.
    const left = await api.request('DELETE', `/api/v1/mapping/${jobId}/leases/reviewer-a`, { as: partner });
    assert.equal(left.status, 204, left.text);
    assert.equal((await review(partner, jobId, { partnerHotelId: 'P1', decision: 'NO_MATCH', leaseHolder: 'reviewer-b' })).status, 200);
  });

  it("refuse bad requests with 400, a job not completed with 409, another organization's job with 404, and run on functions with only their routes' settings", async () => {
    const partner = await api.newOrganization();
    const stranger = await api.newOrganization();
    const jobId = await completedJob(api, partner, csv(3));
    const cases: [string, unknown, RegExp][] = [
      ['short', { partnerHotelIds: ['P0'] }, /^holder: must be 8 to 64 letters, digits, - or _/],
      ['reviewer-a', { partnerHotelIds: Array.from({ length: 21 }, (_, i) => `P${i}`) }, /^partnerHotelIds: must hold at most 20 rows/],
      ['reviewer-a', { partnerHotelIds: ['P0'], seconds: 5 }, /^seconds: must be at least 15/],
      ['reviewer-a', { partnerHotelIds: ['P0'], seconds: 301 }, /^seconds: must be at most 300/],
      ['reviewer-a', { rows: ['P0'] }, /partnerHotelIds/],
    ];
    for (const [holder, json, message] of cases) {
      const answer = await api.request('PUT', `/api/v1/mapping/${jobId}/leases/${holder}`, { as: partner, json });
      assert.equal(answer.status, 400, answer.text);
      assert.match(answer.body.message, message);
    }
    assert.equal((await review(partner, jobId, { partnerHotelId: 'P0', decision: 'NO_MATCH', leaseHolder: 'x' })).status, 400);

    assert.equal((await lease(stranger, jobId, 'reviewer-z', ['P0'])).status, 404);
    assert.equal((await api.request('DELETE', `/api/v1/mapping/${jobId}/leases/reviewer-z`, { as: stranger })).status, 404);
    // The stranger leased nothing: the row is free.
    assert.deepEqual(ids((await lease(partner, jobId, 'reviewer-a', ['P0'])).body.leased), ['P0']);

    const leaseAlone = await api.serveLean([mappingJobRoutes.leaseMappingResults]);
    const leased = await leaseAlone('PUT', `/api/v1/mapping/${jobId}/leases/reviewer-b`, {
      as: partner,
      json: { partnerHotelIds: ['P0', 'P1'] },
    });
    assert.equal(leased.status, 200, leased.text);
    assert.deepEqual(ids(leased.body.leased), ['P1']);
    const leaveAlone = await api.serveLean([mappingJobRoutes.leaveMappingResults]);
    assert.equal((await leaveAlone('DELETE', `/api/v1/mapping/${jobId}/leases/reviewer-a`, { as: partner })).status, 204);
    assert.deepEqual(ids((await lease(partner, jobId, 'reviewer-b', ['P0', 'P1'])).body.leased), ['P0', 'P1']);

    const form = new FormData();
    form.append('name', 'running');
    form.append('file', new Blob([csv(2)], { type: 'text/csv' }), 'hotels.csv');
    const inventory = (await api.request('POST', '/api/v1/partner-inventories', { as: stranger, body: form })).body.partnerInventoryId;
    const running = (await api.request('POST', '/api/v1/mapping', { as: stranger, json: { partnerInventoryId: inventory } })).body
      .mappingJobId;
    assert.equal((await lease(stranger, running, 'reviewer-a', ['P0'])).status, 409);
    await api.messaging.idle();
  });
});
