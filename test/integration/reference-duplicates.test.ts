import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { gunzipSync } from 'node:zlib';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { referenceRoutes, referenceStoreOf } from '../../shared/reference';
import { startTestApi, type Caller } from '../support/test-api';
import { eventOutboxOf } from '../../shared/platform/events/outbox';

const INVENTORY = { hotels: 400, seed: 11 };
const hotels = [...generateReferenceHotels({ count: INVENTORY.hotels, seed: INVENTORY.seed })];
const api = await startTestApi();
await seedReferenceInventory(api.runtime, INVENTORY);
const partner = await api.newOrganization();
const admin = await api.newOrganization({ role: 'admin' });

const report = (as: Caller, json: unknown) => api.request('POST', '/api/v1/reference/duplicates', { as, json });
const resolve = (as: Caller, reportId: string, json: unknown) =>
  api.request('POST', `/api/v1/reference/duplicates/${reportId}/resolve`, { as, json });
const searchIds = async (query: string): Promise<string[]> =>
  (await api.request('GET', `/api/v1/reference/search?${query}&limit=100`, { as: partner })).body.results.map((r: { id: string }) => r.id);

/** Two hotels in the same country and city: a plausible duplicate pair. */
function pair(skip = 0) {
  const byCity = new Map<string, typeof hotels>();
  for (const hotel of hotels.filter((h) => h.city && h.country)) {
    const key = `${hotel.country}|${hotel.city}`;
    byCity.set(key, [...(byCity.get(key) ?? []), hotel]);
  }
  const [original, duplicate] = [...byCity.values()].filter((list) => list.length >= 2)[skip]!;
  return { original: original!, duplicate: duplicate! };
}

describe('POST /api/v1/reference/duplicates', () => {
  it('creates a PENDING report (200)', async () => {
    const { original, duplicate } = pair();
    const { status, body } = await report(partner, {
      originalHotelId: original.id,
      duplicateHotelId: duplicate.id,
      duplicateSourceId: 'HOTELBEDS:12345',
      reason: 'Same address, different spelling',
    });
    assert.equal(status, 200);
    assert.match(body.reportId, /^[0-9a-f-]{36}$/);
    assert.equal(body.status, 'PENDING');
    assert.equal(body.originalHotelId, original.id);
    assert.equal(body.duplicateSourceId, 'HOTELBEDS:12345');
    const read = await api.request('GET', `/api/v1/reference/duplicates/${body.reportId}`, { as: partner });
    assert.deepEqual(read.body, body);
  });

  it('answers 400 for a missing id or the same hotel twice, 404 for an unknown hotel, 401 without a key, storing nothing', async () => {
    const { original } = pair();
    const missing = await report(partner, { originalHotelId: original.id });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /duplicateHotelId is required/);
    const same = await report(partner, { originalHotelId: original.id, duplicateHotelId: original.id });
    assert.equal(same.status, 400);
    assert.match(same.body.message, /two different hotels/);
    const malformed = await report(partner, { originalHotelId: original.id, duplicateHotelId: 'nope' });
    assert.equal(malformed.status, 400);
    const unknown = await report(partner, { originalHotelId: original.id, duplicateHotelId: '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d' });
    assert.equal(unknown.status, 404);
    const anonymous = await api.request('POST', '/api/v1/reference/duplicates', {
      json: { originalHotelId: original.id, duplicateHotelId: pair().duplicate.id },
    });
    assert.equal(anonymous.status, 401);
    const fresh = await api.newOrganization();
    assert.deepEqual(await referenceStoreOf(api.runtime).listReports(fresh.organization.id), []);
  });

  it("hides one organization's reports from another", async () => {
    const { original, duplicate } = pair();
    const { body } = await report(partner, { originalHotelId: original.id, duplicateHotelId: duplicate.id });
    const other = await api.newOrganization();
    assert.equal((await api.request('GET', `/api/v1/reference/duplicates/${body.reportId}`, { as: other })).status, 404);
    assert.equal((await api.request('GET', `/api/v1/reference/duplicates/${body.reportId}`, { as: admin })).status, 200);
  });
});

describe('POST /api/v1/reference/duplicates/{reportId}/resolve', () => {
  it('is for admin keys only (403 for a partner key, 401 without one)', async () => {
    const { original, duplicate } = pair();
    const { body } = await report(partner, { originalHotelId: original.id, duplicateHotelId: duplicate.id });
    const forbidden = await resolve(partner, body.reportId, { decision: 'MERGE' });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error, 'Forbidden');
    assert.equal(
      (await api.request('POST', `/api/v1/reference/duplicates/${body.reportId}/resolve`, { json: { decision: 'MERGE' } })).status,
      401,
    );
    assert.equal((await api.request('GET', `/api/v1/reference/duplicates/${body.reportId}`, { as: partner })).body.status, 'PENDING');
  });

  it('validates the decision and answers 404 for an unknown report', async () => {
    const { original, duplicate } = pair();
    const { body } = await report(partner, { originalHotelId: original.id, duplicateHotelId: duplicate.id });
    const bad = await resolve(admin, body.reportId, { decision: 'MAYBE' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /decision: must be MERGE or REJECT/);
    assert.equal((await resolve(admin, '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', { decision: 'REJECT' })).status, 404);
  });

  it('MERGE removes the duplicate from search, statistics and the file, records where it went, and emits the event', async () => {
    const { original, duplicate } = pair(1);
    const statsBefore = (await api.request('GET', '/api/v1/reference/statistics', { as: partner })).body;
    const cityQuery = `country=${encodeURIComponent(duplicate.country!)}&city=${encodeURIComponent(duplicate.city!)}`;
    assert.ok((await searchIds(cityQuery)).includes(duplicate.id));

    const created = await report(partner, { originalHotelId: original.id, duplicateHotelId: duplicate.id, reason: 'same hotel' });
    api.clock.advance(60_000);
    const { status, body } = await resolve(admin, created.body.reportId, { decision: 'MERGE', note: 'Confirmed by phone' });
    assert.equal(status, 200);
    assert.equal(body.status, 'MERGED');
    assert.equal(body.resolution.decision, 'MERGE');
    assert.equal(body.resolution.note, 'Confirmed by phone');
    assert.equal(body.resolution.resolvedBy, undefined);
    await api.messaging.idle(); // the reference-publication worker republishes

    const ids = await searchIds(cityQuery);
    assert.ok(!ids.includes(duplicate.id), 'the duplicate is gone from search');
    assert.ok(ids.includes(original.id), 'the original stays');
    const statsAfter = (await api.request('GET', '/api/v1/reference/statistics', { as: partner })).body;
    assert.equal(statsAfter.totalHotels, statsBefore.totalHotels - 1);
    const download = (await api.request('GET', '/api/v1/reference', { as: partner })).body;
    assert.equal(download.hotelCount, statsBefore.totalHotels - 1);
    const file = gunzipSync(Buffer.from(await (await fetch(download.fileUrl)).arrayBuffer())).toString('utf8');
    assert.ok(!file.includes(duplicate.id) && file.includes(original.id));

    const detail = await api.request('GET', `/api/v1/reference/${duplicate.id}`, { as: partner });
    assert.equal(detail.body.metadata.mergedInto, original.id);
    assert.equal(detail.body.metadata.updatedAt, body.resolution.resolvedAt, 'the merge bumps updatedAt');

    const events = await eventOutboxOf(api.runtime).listForOrganization(partner.organization.id);
    const event = events.find((e) => e.data.reportId === created.body.reportId);
    assert.ok(event);
    assert.equal(event.type, 'INVENTORY_DUPLICATE_RESOLVED');
    assert.deepEqual(event.data, {
      reportId: created.body.reportId,
      decision: 'MERGE',
      originalHotelId: original.id,
      duplicateHotelId: duplicate.id,
      mergedInto: original.id,
    });

    const again = await resolve(admin, created.body.reportId, { decision: 'REJECT' });
    assert.equal(again.status, 409);
    assert.equal(again.body.error, 'Conflict');
  });

  it('answers parallel resolutions of one report once, and the 409s name the state that won', async () => {
    const { original, duplicate } = pair(8);
    const created = await report(partner, { originalHotelId: original.id, duplicateHotelId: duplicate.id });
    const answers = await Promise.all(Array.from({ length: 6 }, () => resolve(admin, created.body.reportId, { decision: 'REJECT' })));
    assert.equal(answers.filter((answer) => answer.status === 200).length, 1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      assert.equal(answer.status, 409);
      assert.match(answer.body.message, /already resolved \(REJECTED\)/);
    }
  });

  it('REJECT closes the report, changes no inventory, and emits the event', async () => {
    const { original, duplicate } = pair(2);
    const before = (await api.request('GET', '/api/v1/reference', { as: partner })).body.versionId;
    const created = await report(partner, { originalHotelId: original.id, duplicateHotelId: duplicate.id });
    const { body } = await resolve(admin, created.body.reportId, { decision: 'REJECT', note: 'Different hotels' });
    assert.equal(body.status, 'REJECTED');
    assert.equal((await api.request('GET', '/api/v1/reference', { as: partner })).body.versionId, before);
    const events = await eventOutboxOf(api.runtime).listForOrganization(partner.organization.id);
    assert.equal(events.find((e) => e.data.reportId === created.body.reportId)?.data.decision, 'REJECT');
  });

  it('resolves five merges sent in parallel, and the next publication leaves out every one', async () => {
    const pairs = [3, 4, 5, 6, 7].map((skip) => pair(skip));
    const statsBefore = (await api.request('GET', '/api/v1/reference/statistics', { as: partner })).body;
    const reports = await Promise.all(
      pairs.map(({ original, duplicate }) => report(partner, { originalHotelId: original.id, duplicateHotelId: duplicate.id })),
    );
    const resolved = await Promise.all(reports.map((created) => resolve(admin, created.body.reportId, { decision: 'MERGE' })));
    assert.deepEqual(
      resolved.map((response) => response.status),
      [200, 200, 200, 200, 200],
    );
    await api.messaging.idle();

    const statsAfter = (await api.request('GET', '/api/v1/reference/statistics', { as: partner })).body;
    assert.equal(statsAfter.totalHotels, statsBefore.totalHotels - 5);
    const download = (await api.request('GET', '/api/v1/reference', { as: partner })).body;
    const file = gunzipSync(Buffer.from(await (await fetch(download.fileUrl)).arrayBuffer())).toString('utf8');
    for (const { original, duplicate } of pairs) {
      const ids = await searchIds(`country=${encodeURIComponent(duplicate.country!)}&city=${encodeURIComponent(duplicate.city!)}`);
      assert.ok(!ids.includes(duplicate.id), `${duplicate.id} is gone from search`);
      assert.ok(ids.includes(original.id));
      assert.ok(!file.includes(duplicate.id), `${duplicate.id} is gone from the file`);
    }
  });

  it('reports and resolves on functions deployed without a bucket, as their routes declare', async () => {
    const lean = await api.serveLean([referenceRoutes.reportDuplicate, referenceRoutes.resolveDuplicateReport]);
    const { original, duplicate } = pair(8);
    const created = await lean('POST', '/api/v1/reference/duplicates', {
      as: partner,
      json: { originalHotelId: original.id, duplicateHotelId: duplicate.id },
    });
    assert.equal(created.status, 200, created.text);
    const resolved = await lean('POST', `/api/v1/reference/duplicates/${created.body.reportId}/resolve`, {
      as: admin,
      json: { decision: 'MERGE' },
    });
    assert.equal(resolved.status, 200, resolved.text);
    await api.messaging.idle();
    const ids = await searchIds(`country=${encodeURIComponent(duplicate.country!)}&city=${encodeURIComponent(duplicate.city!)}`);
    assert.ok(!ids.includes(duplicate.id));
  });
});
