/**
 * The mapping book follows the reference, through the local runtime: a merge of duplicates moves the
 * entries that pointed at the duplicate, and a new publication maps again the entries whose hotel
 * left and tries again the UNMATCHED ones near a new hotel; every book is reached, the feed and the
 * webhook tell of it, and nothing is charged.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from '@jest/globals';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';
import { importReferenceInventory, referencePortsOf, referenceStoreOf } from '../../shared/reference';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { startTestApi, type Caller } from '../support/test-api';
import { jsonReceiver } from '../support/webhook-receiver';

const REFERENCE = { hotels: 300, seed: 5 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
/** A hotel the next publication brings, somewhere the reference has none like it. */
const newcomer = {
  ...[...generateReferenceHotels({ count: 50, seed: 77 })].find((hotel) => hotel.lat !== undefined)!,
  id: randomUUID(),
  name: 'Pension Quillfeather Harbour',
};
const api = await startTestApi({ config: { localAllowances: [LOOPBACK_DESTINATIONS] } });

const receiver = await jsonReceiver();
const received = receiver.received;
afterAll(() => receiver.close());
await seedReferenceInventory(api.runtime, REFERENCE);

type Row = (string | number | undefined)[];
const HEADER = ['id', 'name', 'address', 'city', 'country', 'lat', 'lon'];
const rowOf = (id: string, hotel: (typeof hotels)[number]): Row => [
  id,
  hotel.name,
  hotel.address,
  hotel.city,
  hotel.country,
  hotel.lat,
  hotel.lon,
];
const csv = (rows: Row[]) => [formatCsvRow(HEADER), ...rows.map((row) => formatCsvRow(row))].join('\n');

async function mapInventory(as: Caller, rows: Row[]): Promise<string> {
  const form = new FormData();
  form.append('name', 'hotels');
  form.append('file', new Blob([csv(rows)], { type: 'text/csv' }), 'hotels.csv');
  const uploaded = await api.request('POST', '/api/v1/partner-inventories', { as, body: form });
  assert.equal(uploaded.status, 201, uploaded.text);
  const created = await api.request('POST', '/api/v1/mapping', { as, json: { partnerInventoryId: uploaded.body.partnerInventoryId } });
  assert.equal(created.status, 201, created.text);
  await api.messaging.idle();
  return created.body.mappingJobId;
}

const entry = async (as: Caller, partnerHotelId: string) => {
  const response = await api.request('GET', `/api/v1/mapping-book/entry?partnerHotelId=${partnerHotelId}`, { as });
  assert.equal(response.status, 200, response.text);
  return response.body;
};

async function feed(as: Caller, after: string): Promise<{ changes: any[]; position: string }> {
  const changes = [];
  let position = after;
  for (;;) {
    const page = await api.request('GET', `/api/v1/mapping-book/changes?limit=2&after=${position}`, { as });
    assert.equal(page.status, 200, page.text);
    changes.push(...page.body.changes);
    position = page.body.position;
    if (!page.body.hasMore) return { changes, position };
  }
}

const endOfFeed = async (as: Caller) => (await api.request('GET', '/api/v1/mapping-book', { as })).body.position as string;
const usedToday = async (as: Caller) => (await api.request('GET', '/api/v1/billing/quota/status', { as })).body.mappingsUsedToday as number;

describe('the mapping book follows the reference', () => {
  it('moves entries off a merged duplicate, maps again those whose hotel left, tries again UNMATCHED ones near a new hotel, in every book, charging nothing', async () => {
    const partner = await api.newOrganization();
    const other = await api.newOrganization();
    const admin = await api.newOrganization({ role: 'admin' });
    const subscribed = await api.request('POST', '/api/v1/webhook-subscriptions', {
      as: partner,
      json: { url: receiver.url('/book'), events: ['MAPPING_BOOK_CHANGED'] },
    });
    assert.equal(subscribed.status, 201, subscribed.text);
    const job = await mapInventory(partner, [...[0, 1, 2, 3].map((i) => rowOf(`P${i}`, hotels[i]!)), rowOf('N0', newcomer)]);
    await mapInventory(other, [rowOf('Q0', hotels[0]!)]);
    assert.deepEqual([(await entry(partner, 'P0')).referenceHotelId, (await entry(partner, 'N0')).status], [hotels[0]!.id, 'UNMATCHED']);
    // A person confirms P1: their decision is for hotel 1.
    assert.equal(
      (
        await api.request('POST', `/api/v1/mapping/${job}/reviews`, {
          as: partner,
          json: { partnerHotelId: 'P1', decision: 'MATCH', referenceHotelId: hotels[1]!.id },
        })
      ).status,
      200,
    );
    const [used, otherUsed] = [await usedToday(partner), await usedToday(other)];

    // Hotel 0 is merged into hotel 200 as its duplicate.
    const beforeMerge = await endOfFeed(partner);
    const reported = await api.request('POST', '/api/v1/reference/duplicates', {
      as: partner,
      json: { originalHotelId: hotels[200]!.id, duplicateHotelId: hotels[0]!.id },
    });
    assert.equal(reported.status, 200, reported.text);
    const merged = await api.request('POST', `/api/v1/reference/duplicates/${reported.body.reportId}/resolve`, {
      as: admin,
      json: { decision: 'MERGE' },
    });
    assert.equal(merged.status, 200, merged.text);
    await api.messaging.idle();
    const mergePublication = (await referenceStoreOf(api.runtime).getCurrent())!.artifactsId;

    const p0 = await entry(partner, 'P0');
    assert.deepEqual(
      [p0.status, p0.method, p0.referenceHotelId, p0.referenceHotelName],
      ['MATCHED', 'FUZZY', hotels[200]!.id, hotels[200]!.name],
    );
    assert.match(p0.reason, new RegExp(`${hotels[0]!.id} was merged into ${hotels[200]!.id}`));
    assert.deepEqual(p0.cause, {
      kind: 'MERGE',
      mergedHotelId: hotels[0]!.id,
      mergedInto: hotels[200]!.id,
      referenceVersionId: mergePublication,
    });
    const afterMerge = await feed(partner, beforeMerge);
    assert.deepEqual(
      afterMerge.changes.map((change) => [change.kind, change.partnerHotelId, change.referenceHotelId]),
      [['UPDATED', 'P0', hotels[200]!.id]],
    );
    // Every book follows: the other organization's entry moved too, in its own feed.
    assert.equal((await entry(other, 'Q0')).referenceHotelId, hotels[200]!.id);

    // The next publication: hotels 1 and 2 leave the reference, and the newcomer comes.
    async function* rows() {
      let line = 1;
      for (const hotel of [...hotels.filter((_, i) => i !== 1 && i !== 2), newcomer]) yield { line: ++line, hotel };
    }
    await importReferenceInventory(referencePortsOf(api.runtime), rows(), 'next month');
    await api.messaging.idle();
    const publication = (await referenceStoreOf(api.runtime).getCurrent())!.artifactsId;

    const p1 = await entry(partner, 'P1');
    assert.equal(p1.status, 'REVIEW', "a person's decision for a hotel that left goes back to review");
    assert.equal(p1.decision.referenceHotelId, hotels[1]!.id, 'shown with the decision');
    assert.match(p1.reason, new RegExp(`The hotel of the decision, ${hotels[1]!.id}, left the reference: review it again`));
    const p2 = await entry(partner, 'P2');
    assert.notEqual(p2.referenceHotelId, hotels[2]!.id);
    assert.match(p2.reason, new RegExp(`The reference hotel ${hotels[2]!.id} left the reference: mapped again`));
    const n0 = await entry(partner, 'N0');
    assert.deepEqual([n0.status, n0.method, n0.referenceHotelId], ['MATCHED', 'FUZZY', newcomer.id]);
    assert.match(n0.reason, /Tried again against hotels new near it/);
    assert.deepEqual(n0.cause, { kind: 'PUBLICATION', referenceVersionId: publication });
    assert.equal((await entry(partner, 'P3')).reason, 'First mapped', 'an entry the publication did not touch is as it was');

    // The feed from the merge's end lists exactly those three, once each, in key order within the commit.
    const afterPublication = await feed(partner, afterMerge.position);
    assert.deepEqual(
      afterPublication.changes.map((change) => [change.kind, change.partnerHotelId, change.cause.kind]),
      [
        ['UPDATED', 'N0', 'PUBLICATION'],
        ['UPDATED', 'P1', 'PUBLICATION'],
        ['UPDATED', 'P2', 'PUBLICATION'],
      ],
    );
    const counts = await api.request('GET', `/api/v1/mapping-book/changes/counts?after=${beforeMerge}`, { as: partner });
    assert.deepEqual([counts.body.new, counts.body.updated, counts.body.deleted], [0, 4, 0]);

    // The webhook told of each: where to read from, and how many.
    const told = received.filter((body) => body.type === 'MAPPING_BOOK_CHANGED' && body.data.cause.kind !== 'JOB').map((body) => body.data);
    assert.deepEqual(
      told.map((data) => [data.cause, data.counts, data.position]),
      [
        [{ kind: 'MERGE', referenceVersionId: mergePublication }, { new: 0, updated: 1, deleted: 0 }, beforeMerge],
        [{ kind: 'PUBLICATION', referenceVersionId: publication }, { new: 0, updated: 3, deleted: 0 }, afterMerge.position],
      ],
    );
    // Nothing charged: the follows map no row of a job.
    assert.deepEqual([await usedToday(partner), await usedToday(other)], [used, otherUsed]);
  });

  it("shows a renamed hotel's new name and maps again an engine's entry whose hotel moved; a person's decision for a moved hotel stands", async () => {
    const partner = await api.newOrganization();
    const job = await mapInventory(
      partner,
      [10, 11, 12].map((i) => rowOf(`P${i}`, hotels[i]!)),
    );
    assert.deepEqual(
      await Promise.all([10, 11, 12].map(async (i) => (await entry(partner, `P${i}`)).referenceHotelId)),
      [10, 11, 12].map((i) => hotels[i]!.id),
    );
    assert.equal(
      (
        await api.request('POST', `/api/v1/mapping/${job}/reviews`, {
          as: partner,
          json: { partnerHotelId: 'P12', decision: 'MATCH', referenceHotelId: hotels[12]!.id },
        })
      ).status,
      200,
    );
    const before = await endOfFeed(partner);

    // The next publication renames hotel 10, and moves hotels 11 and 12 a degree north (the last one's hotels, 1 and 2 still gone).
    const renamed = `${hotels[10]!.name} & Spa`;
    const republished = [...hotels.filter((_, i) => i !== 1 && i !== 2), newcomer].map((hotel) =>
      hotel.id === hotels[10]!.id
        ? { ...hotel, name: renamed }
        : hotel.id === hotels[11]!.id || hotel.id === hotels[12]!.id
          ? { ...hotel, lat: hotel.lat! + 1 }
          : hotel,
    );
    async function* rows() {
      for (const [i, hotel] of republished.entries()) yield { line: i + 2, hotel };
    }
    await importReferenceInventory(referencePortsOf(api.runtime), rows(), 'renamed and moved');
    await api.messaging.idle();
    const publication = (await referenceStoreOf(api.runtime).getCurrent())!.artifactsId;

    const p10 = await entry(partner, 'P10');
    assert.deepEqual(
      [p10.status, p10.referenceHotelId, p10.referenceHotelName, p10.cause],
      ['MATCHED', hotels[10]!.id, renamed, { kind: 'PUBLICATION', referenceVersionId: publication }],
    );
    assert.equal(p10.reason, `The reference hotel ${hotels[10]!.id} is now named "${renamed}" (was "${hotels[10]!.name}")`);
    const p11 = await entry(partner, 'P11');
    assert.notDeepEqual([p11.status, p11.referenceHotelId], ['MATCHED', hotels[11]!.id], 'a hotel a degree away is not the partner hotel');
    assert.match(p11.reason, new RegExp(`^The reference hotel ${hotels[11]!.id} moved: mapped again, the engine now says `));
    const p12 = await entry(partner, 'P12');
    assert.deepEqual([p12.status, p12.method, p12.referenceHotelId], ['MATCHED', 'MANUAL', hotels[12]!.id]);
    assert.deepEqual(
      (await feed(partner, before)).changes.map((change) => [change.partnerHotelId, change.cause.kind]),
      [
        ['P10', 'PUBLICATION'],
        ['P11', 'PUBLICATION'],
      ],
    );
  });

  it("keeps an entry's supplier codes current: a publication that recodes its hotel updates it, UPDATED in the feed; another entry stays as it is", async () => {
    const partner = await api.newOrganization();
    for (const supplier of ['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0001', '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0002']) {
      assert.equal((await api.request('POST', `/api/v1/suppliers/${supplier}/connect`, { as: partner })).status, 201);
    }
    const [recoded, kept] = [20, 21, 22, 23, 24, 25, 26, 27, 28, 29]
      .filter((i) => hotels[i]!.supplierCodes.HOTELBEDS && hotels[i]!.lat !== undefined)
      .map((i) => hotels[i]!);
    await mapInventory(partner, [rowOf('R0', recoded!), rowOf('R1', kept!)]);
    assert.equal((await entry(partner, 'R0')).supplierCodes.HOTELBEDS, recoded!.supplierCodes.HOTELBEDS);
    const before = await endOfFeed(partner);

    const republished = [...hotels.filter((_, i) => i !== 1 && i !== 2), newcomer].map((hotel) =>
      hotel.id === recoded!.id ? { ...hotel, supplierCodes: { HOTELBEDS: 'HB-NEW-1', EXPEDIA: 'EX-NEW-1' } } : hotel,
    );
    async function* rows() {
      for (const [i, hotel] of republished.entries()) yield { line: i + 2, hotel };
    }
    await importReferenceInventory(referencePortsOf(api.runtime), rows(), 'recoded');
    await api.messaging.idle();

    const r0 = await entry(partner, 'R0');
    assert.deepEqual(
      [r0.status, r0.referenceHotelId, r0.supplierCodes],
      ['MATCHED', recoded!.id, { HOTELBEDS: 'HB-NEW-1', EXPEDIA: 'EX-NEW-1' }],
    );
    assert.equal(r0.reason, `The reference hotel ${recoded!.id} has another place or other supplier codes`);
    const expectedKept = Object.fromEntries(
      ['HOTELBEDS', 'EXPEDIA'].flatMap((code) => (kept!.supplierCodes[code] ? [[code, kept!.supplierCodes[code]]] : [])),
    );
    assert.deepEqual((await entry(partner, 'R1')).supplierCodes, expectedKept);
    const { changes } = await feed(partner, before);
    assert.deepEqual(
      changes.map((change) => [change.partnerHotelId, change.kind, change.supplierCodes]),
      [['R0', 'UPDATED', { HOTELBEDS: 'HB-NEW-1', EXPEDIA: 'EX-NEW-1' }]],
    );
  });
});
