/**
 * The mapping book through the local runtime: a partner's month (a job, reviews, a second upload and
 * job), what the book then holds, the change feed and its counts, decisions on the book itself,
 * refused input and tenant isolation.
 */
import ExcelJS from 'exceljs';
import assert from 'node:assert/strict';
import { afterAll, describe, it } from '@jest/globals';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { startTestApi, type Caller } from '../support/test-api';
import { mappingBookRoutes } from '../../shared/mapping-book';
import { mappingJobRoutes } from '../../shared/mapping-jobs';
import type { RouteDefinition } from '../../shared/platform/http/route';
import { jsonReceiver } from '../support/webhook-receiver';

const REFERENCE = { hotels: 300, seed: 5 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const api = await startTestApi({ config: { localAllowances: [LOOPBACK_DESTINATIONS] } });

const receiver = await jsonReceiver();
const received = receiver.received;
afterAll(() => receiver.close());
await seedReferenceInventory(api.runtime, REFERENCE);

type Row = (string | number | undefined)[];
const HEADER = ['id', 'name', 'address', 'city', 'country', 'lat', 'lon'];
/** The partner's rows: reference hotels as they are (P<i> is hotel i), and hotels that exist nowhere. */
const hotelRow = (i: number): Row => [
  `P${i}`,
  hotels[i]!.name,
  hotels[i]!.address,
  hotels[i]!.city,
  hotels[i]!.country,
  hotels[i]!.lat,
  hotels[i]!.lon,
];
const nowhereRow = (i: number): Row => [`X${i}`, `Zzyzx Qwerty Lodge ${i}`, '', 'Nowhere', 'Iceland', 63.1 + i / 100, -19.9];
const csv = (rows: Row[]) => [formatCsvRow(HEADER), ...rows.map((row) => formatCsvRow(row))].join('\n');

async function mapInventory(as: Caller, rows: Row[], options: { partial?: boolean } = {}): Promise<string> {
  const form = new FormData();
  form.append('name', 'hotels');
  form.append('file', new Blob([csv(rows)], { type: 'text/csv' }), 'hotels.csv');
  const uploaded = await api.request('POST', '/api/v1/partner-inventories', { as, body: form });
  assert.equal(uploaded.status, 201, uploaded.text);
  const created = await api.request('POST', '/api/v1/mapping', {
    as,
    json: { partnerInventoryId: uploaded.body.partnerInventoryId, ...options },
  });
  assert.equal(created.status, 201, created.text);
  await api.messaging.idle();
  assert.equal((await api.request('GET', `/api/v1/mapping/${created.body.mappingJobId}`, { as })).body.status, 'COMPLETED');
  return created.body.mappingJobId;
}

const entry = (as: Caller, partnerHotelId: string) =>
  api.request('GET', `/api/v1/mapping-book/entry?partnerHotelId=${encodeURIComponent(partnerHotelId)}`, { as });

async function allEntries(as: Caller, query = ''): Promise<any[]> {
  const entries = [];
  let cursor: string | null = null;
  do {
    const separator = query ? '&' : '?';
    const page: { status: number; text: string; body: any } = await api.request(
      'GET',
      `/api/v1/mapping-book/entries${query}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}${query || cursor ? '&' : '?'}limit=7`,
      { as },
    );
    assert.equal(page.status, 200, page.text);
    entries.push(...page.body.entries);
    cursor = page.body.nextCursor;
  } while (cursor);
  return entries;
}

/** The feed from a position to its end, in pages of `limit`; the changes and the position at the end. */
async function feed(as: Caller, after: string | undefined, limit = 5): Promise<{ changes: any[]; position: string }> {
  const changes = [];
  let position = after;
  for (;;) {
    const page = await api.request('GET', `/api/v1/mapping-book/changes?limit=${limit}${position ? `&after=${position}` : ''}`, { as });
    assert.equal(page.status, 200, page.text);
    changes.push(...page.body.changes);
    position = page.body.position;
    if (!page.body.hasMore) return { changes, position: position! };
  }
}

describe('the mapping book on functions with only the settings their routes declare', () => {
  it('reads the book, its entry, its feed, and a completed job with its book write', async () => {
    const partner = await api.newOrganization();
    const jobId = await mapInventory(partner, [hotelRow(0), hotelRow(1), nowhereRow(0)]);
    const alone = async (route: RouteDefinition, path: string) => {
      const answer = await (await api.serveLean([route]))('GET', path, { as: partner });
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      return answer.body;
    };
    assert.equal((await alone(mappingJobRoutes.getMappingJob, `/api/v1/mapping/${jobId}`)).bookWrite, 'WRITTEN');
    assert.equal((await alone(mappingBookRoutes.getMappingBook, '/api/v1/mapping-book')).entries, 3);
    assert.equal(
      (await alone(mappingBookRoutes.listBookEntries, '/api/v1/mapping-book/entries?status=UNMATCHED')).entries[0].partnerHotelId,
      'X0',
    );
    assert.equal((await alone(mappingBookRoutes.listBookEntries, '/api/v1/mapping-book/entries?name=zzyzx')).total, 1);
    assert.equal((await alone(mappingBookRoutes.getBookEntry, '/api/v1/mapping-book/entry?partnerHotelId=P1')).partnerHotelId, 'P1');
    assert.equal((await alone(mappingBookRoutes.listBookChanges, '/api/v1/mapping-book/changes')).changes.length, 3);
    assert.ok((await alone(mappingBookRoutes.countBookChanges, '/api/v1/mapping-book/changes/counts')).position);
  });
});

describe("a partner's month in the mapping book", () => {
  it('keeps the decisions, sends a changed hotel back to REVIEW, ends a removed one, adds a new one, and the feed says exactly that', async () => {
    const partner = await api.newOrganization();
    const subscribed = await api.request('POST', '/api/v1/webhook-subscriptions', {
      as: partner,
      json: { url: receiver.url('/book'), events: ['MAPPING_BOOK_CHANGED'] },
    });
    assert.equal(subscribed.status, 201, subscribed.text);
    const firstRows = [...Array.from({ length: 12 }, (_, i) => hotelRow(i)), nowhereRow(0), nowhereRow(1)];
    const firstJob = await mapInventory(partner, firstRows);

    // The first job wrote every row into the book, NEW.
    const written = await feed(partner, undefined);
    assert.equal(written.changes.length, 14);
    assert.ok(written.changes.every((change) => change.kind === 'NEW' && change.cause.mappingJobId === firstJob));
    assert.deepEqual(
      written.changes.map((change) => change.partnerHotelId),
      ['P0', 'P1', 'P10', 'P11', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8', 'P9', 'X0', 'X1'],
    );
    const p2 = (await entry(partner, 'P2')).body;
    assert.deepEqual([p2.status, p2.method, p2.referenceHotelId], ['MATCHED', 'FUZZY', hotels[2]!.id]);
    assert.deepEqual(p2.partner, {
      name: hotels[2]!.name,
      address: hotels[2]!.address,
      city: hotels[2]!.city,
      country: hotels[2]!.country,
      latitude: hotels[2]!.lat,
      longitude: hotels[2]!.lon,
    });

    // Three decisions on the job's rows: MATCH to another hotel, NO_MATCH, and a confirmation.
    const review = (json: unknown) => api.request('POST', `/api/v1/mapping/${firstJob}/reviews`, { as: partner, json });
    assert.equal((await review({ partnerHotelId: 'P0', decision: 'MATCH', referenceHotelId: hotels[100]!.id })).status, 200);
    assert.equal((await review({ partnerHotelId: 'P1', decision: 'NO_MATCH', note: 'closed' })).status, 200);
    assert.equal((await review({ partnerHotelId: 'P2', decision: 'MATCH', referenceHotelId: hotels[2]!.id })).status, 200);
    const reviewed = await feed(partner, written.position);
    assert.deepEqual(
      reviewed.changes.map((change) => [change.kind, change.partnerHotelId, change.status, change.method, change.referenceHotelId]),
      [
        ['UPDATED', 'P0', 'MATCHED', 'MANUAL', hotels[100]!.id],
        ['UPDATED', 'P1', 'UNMATCHED', 'MANUAL', null],
        ['UPDATED', 'P2', 'MATCHED', 'MANUAL', hotels[2]!.id],
      ],
    );
    const afterReviews = reviewed.position;

    // Next month: P2 moved to another address, P5 is gone, P50 is new.
    const secondRows = firstRows
      .filter((row) => row[0] !== 'P5')
      .map((row) => (row[0] === 'P2' ? [row[0], row[1], '99 Rue Nouvelle', ...row.slice(3)] : row));
    secondRows.push(hotelRow(50));
    const secondJob = await mapInventory(partner, secondRows);

    const month = await feed(partner, afterReviews, 2);
    assert.deepEqual(
      month.changes.map((change) => [change.kind, change.partnerHotelId, change.status]),
      [
        ['UPDATED', 'P2', 'REVIEW'],
        ['DELETED', 'P5', 'DELETED'],
        ['NEW', 'P50', 'MATCHED'],
      ],
    );
    assert.ok(month.changes.every((change) => change.cause.kind === 'JOB' && change.cause.mappingJobId === secondJob));
    const counts = await api.request('GET', `/api/v1/mapping-book/changes/counts?after=${afterReviews}`, { as: partner });
    assert.deepEqual(counts.body, { new: 1, updated: 1, deleted: 1, position: month.position });
    // Each job's write was told to the receiver, with its counts and where to read from.
    await api.messaging.idle();
    const told = received.filter((body) => body.organizationId === partner.organization.id).map((body) => body.data);
    assert.deepEqual(
      told.map((data) => [data.cause.mappingJobId, data.counts]),
      [
        [firstJob, { new: 14, updated: 0, deleted: 0 }],
        [secondJob, { new: 1, updated: 1, deleted: 1 }],
      ],
    );
    assert.deepEqual((await feed(partner, told[1].position)).changes, month.changes);

    // The untouched decisions stand, with what the engine said beside them.
    const p0 = (await entry(partner, 'P0')).body;
    assert.deepEqual([p0.status, p0.method, p0.referenceHotelId, p0.score], ['MATCHED', 'MANUAL', hotels[100]!.id, 1]);
    assert.deepEqual([p0.engine.status, p0.engine.referenceHotelId], ['MATCHED', hotels[0]!.id]);
    const p1 = (await entry(partner, 'P1')).body;
    assert.deepEqual([p1.status, p1.method, p1.decision.note, p1.reasonCode], ['UNMATCHED', 'MANUAL', 'closed', 'DECIDED_NO_MATCH']);
    assert.equal(p0.reasonCode, undefined);
    // The changed hotel is back in REVIEW, saying why, with the decision it had.
    const changed = (await entry(partner, 'P2')).body;
    assert.deepEqual([changed.status, changed.reasonCode], ['REVIEW', 'PARTNER_HOTEL_CHANGED']);
    assert.match(
      changed.reason,
      /^The partner's hotel changed since the decision of \d{4}-\d\d-\d\d \(address ".*" -> "99 Rue Nouvelle"\): review it again\./,
    );
    assert.deepEqual([changed.decision.decision, changed.decision.referenceHotelId], ['MATCH', hotels[2]!.id]);
    assert.deepEqual(
      changed.history.map((line: any) => line.change),
      ['NEW', 'UPDATED', 'UPDATED'],
    );
    const removed = (await entry(partner, 'P5')).body;
    assert.deepEqual([removed.status, removed.reason, removed.reasonCode], ['DELETED', 'No longer in the inventory', undefined]);
    assert.equal((await entry(partner, 'X0')).body.reasonCode, 'NO_CANDIDATES', 'a place the reference lacks');
    assert.equal((await entry(partner, 'P50')).body.status, 'MATCHED');

    // Listing: every entry but the DELETED one, in pages; filters.
    const listed = await allEntries(partner);
    assert.deepEqual(
      listed.map((each) => each.partnerHotelId),
      ['P0', 'P1', 'P10', 'P11', 'P2', 'P3', 'P4', 'P50', 'P6', 'P7', 'P8', 'P9', 'X0', 'X1'],
    );
    assert.deepEqual(
      (await allEntries(partner, '?status=DELETED')).map((each) => each.partnerHotelId),
      ['P5'],
    );
    assert.deepEqual(
      (await allEntries(partner, '?method=MANUAL')).map((each) => each.partnerHotelId),
      ['P0', 'P1'],
    );
    assert.deepEqual(
      (await allEntries(partner, '?status=REVIEW')).map((each) => each.partnerHotelId),
      ['P2'],
    );

    // A decision on the book itself settles it.
    const settled = await api.request('POST', '/api/v1/mapping-book/reviews', {
      as: partner,
      json: { partnerHotelId: 'P2', decision: 'MATCH', referenceHotelId: hotels[2]!.id },
    });
    assert.equal(settled.status, 200, settled.text);
    assert.deepEqual(
      [settled.body.status, settled.body.method, settled.body.decision.partner.address],
      ['MATCHED', 'MANUAL', '99 Rue Nouvelle'],
    );
    const last = await feed(partner, month.position);
    assert.deepEqual(
      last.changes.map((change) => [change.kind, change.partnerHotelId, change.method, change.cause.kind]),
      [['UPDATED', 'P2', 'MANUAL', 'REVIEW']],
    );
    assert.deepEqual((await entry(partner, 'P2')).body.status, 'MATCHED');

    // The book at a glance: the decision just made counted where it put the entry.
    const book = (await api.request('GET', '/api/v1/mapping-book', { as: partner })).body;
    assert.equal(book.entries, 14);
    assert.equal(book.position, last.position);
    assert.equal(book.writing, null);
    assert.equal(book.sources.length, 1);
    const [own] = book.sources;
    assert.equal(own.source, 'OWN');
    assert.deepEqual([own.byStatus.DELETED, own.byStatus.REVIEW, own.byMethod.MANUAL], [1, 0, 3]);
    assert.equal(own.byStatus.MATCHED + own.byStatus.REVIEW + own.byStatus.UNMATCHED, 14);
    assert.equal(own.byMethod.ID + own.byMethod.FUZZY + own.byMethod.MANUAL + own.byMethod.NONE, 14);
    assert.equal(own.byStatus.UNMATCHED, (await allEntries(partner, '?status=UNMATCHED')).length);
  });
});

describe('a decision withdrawn, and the feed since a time', () => {
  it("takes a job row's decision back in the job and the book, unless the book stands by a later one; the feed reads from a time", async () => {
    const partner = await api.newOrganization();
    const before = api.clock.now();
    const jobId = await mapInventory(partner, [hotelRow(60), hotelRow(61), hotelRow(62)]);
    api.clock.advance(3_600_000);
    const decidedFrom = api.clock.now();
    const review = (json: Record<string, unknown>) => api.request('POST', `/api/v1/mapping/${jobId}/reviews`, { as: partner, json });
    const row = async (id: string) =>
      (await api.request('GET', `/api/v1/mapping/${jobId}/results?partnerHotelId=${id}`, { as: partner })).body.results[0];
    const engine = await row('P60');

    const decided = await review({ partnerHotelId: 'P60', decision: 'NO_MATCH', expectedDecidedAt: null });
    assert.equal(decided.status, 200, decided.text);
    assert.equal((await api.request('GET', `/api/v1/mapping/${jobId}`, { as: partner })).body.counts.unmatched, 1);
    // Read before the decision, a second decision is refused, and changes nothing.
    const stale = await review({ partnerHotelId: 'P60', decision: 'MATCH', referenceHotelId: hotels[60]!.id, expectedDecidedAt: null });
    assert.equal(stale.status, 409, stale.text);
    assert.match(stale.body.message, /^The row P60 changed since you read it: it was decided NO_MATCH at /);
    const unreadable = await review({ partnerHotelId: 'P60', decision: 'WITHDRAW', expectedDecidedAt: 'yesterday' });
    assert.equal(unreadable.status, 400, unreadable.text);
    assert.equal((await row('P60')).status, 'UNMATCHED');

    api.clock.advance(60_000);
    const withdrawn = await review({ partnerHotelId: 'P60', decision: 'WITHDRAW', expectedDecidedAt: decided.body.review.decidedAt });
    assert.equal(withdrawn.status, 200, withdrawn.text);
    assert.deepEqual(withdrawn.body, engine);
    assert.deepEqual(await row('P60'), engine);
    const counts = (await api.request('GET', `/api/v1/mapping/${jobId}`, { as: partner })).body.counts;
    assert.deepEqual([counts.matched, counts.unmatched], [3, 0]);
    assert.deepEqual((await api.request('GET', `/api/v1/mapping/${jobId}/results?method=MANUAL`, { as: partner })).body.results, []);
    const p60 = (await entry(partner, 'P60')).body;
    assert.deepEqual([p60.status, p60.method, p60.referenceHotelId, p60.decision], ['MATCHED', 'FUZZY', hotels[60]!.id, undefined]);
    assert.equal(p60.reason, "Decision withdrawn: the engine's answer stands");
    // Another organization can neither decide nor withdraw this job's rows, nor read this book's feed from a time.
    const stranger = await api.newOrganization();
    const foreign = await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
      as: stranger,
      json: { partnerHotelId: 'P60', decision: 'WITHDRAW' },
    });
    assert.equal(foreign.status, 404, foreign.text);
    assert.equal(
      (await api.request('POST', '/api/v1/mapping-book/reviews', { as: stranger, json: { partnerHotelId: 'P61', decision: 'WITHDRAW' } }))
        .status,
      404,
    );
    assert.deepEqual(
      (await api.request('GET', `/api/v1/mapping-book/changes?since=${before.toISOString()}`, { as: stranger })).body.changes,
      [],
    );
    assert.deepEqual(await row('P60'), engine);
    const again = await review({ partnerHotelId: 'P60', decision: 'WITHDRAW' });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.message, 'The row P60 has no decision to withdraw.');

    // A decision on the book made after the job row's stands when the job row's is withdrawn.
    const onRow = await review({ partnerHotelId: 'P61', decision: 'NO_MATCH' });
    api.clock.advance(60_000);
    const onBook = await api.request('POST', '/api/v1/mapping-book/reviews', {
      as: partner,
      json: { partnerHotelId: 'P61', decision: 'MATCH', referenceHotelId: hotels[100]!.id },
    });
    assert.equal(onBook.status, 200, onBook.text);
    api.clock.advance(60_000);
    assert.equal(
      (await review({ partnerHotelId: 'P61', decision: 'WITHDRAW', expectedDecidedAt: onRow.body.review.decidedAt })).status,
      200,
    );
    assert.equal((await row('P61')).method, 'FUZZY');
    const p61 = (await entry(partner, 'P61')).body;
    assert.deepEqual([p61.method, p61.referenceHotelId], ['MANUAL', hotels[100]!.id]);
    // The book's own decision is withdrawn on the book, on the decision read.
    const bookReview = (json: Record<string, unknown>) => api.request('POST', '/api/v1/mapping-book/reviews', { as: partner, json });
    const staleOnBook = await bookReview({ partnerHotelId: 'P61', decision: 'WITHDRAW', expectedDecidedAt: onRow.body.review.decidedAt });
    assert.equal(staleOnBook.status, 409, staleOnBook.text);
    assert.match(staleOnBook.body.message, /^The entry P61 of source OWN changed since you read it: it was decided MATCH at /);
    const undoneOnBook = await bookReview({ partnerHotelId: 'P61', decision: 'WITHDRAW', expectedDecidedAt: p61.decision.decidedAt });
    assert.equal(undoneOnBook.status, 200, undoneOnBook.text);
    assert.deepEqual(
      [undoneOnBook.body.method, undoneOnBook.body.referenceHotelId, undoneOnBook.body.decision],
      ['FUZZY', hotels[61]!.id, undefined],
    );
    const nothingLeft = await bookReview({ partnerHotelId: 'P61', decision: 'WITHDRAW' });
    assert.equal(nothingLeft.status, 409, nothingLeft.text);
    assert.equal(nothingLeft.body.message, 'The entry P61 of source OWN has no decision to withdraw.');

    // Since a time: the decisions, not the job's writing an hour before them.
    const since = async (at: Date) =>
      api.request('GET', `/api/v1/mapping-book/changes?since=${at.toISOString()}&limit=100`, { as: partner });
    const sinceDecisions = await since(decidedFrom);
    assert.equal(sinceDecisions.status, 200, sinceDecisions.text);
    assert.deepEqual(
      sinceDecisions.body.changes.map((change: any) => [change.partnerHotelId, change.method]),
      [
        ['P60', 'MANUAL'],
        ['P60', 'FUZZY'],
        ['P61', 'MANUAL'],
        ['P61', 'MANUAL'],
        ['P61', 'FUZZY'],
      ],
    );
    assert.equal((await since(before)).body.changes.length, 3 + 5);
    const future = await since(new Date(api.clock.now().getTime() + 60_000));
    assert.deepEqual(future.body, { changes: [], position: sinceDecisions.body.position, hasMore: false });
    const tooOld = await since(new Date(api.clock.now().getTime() - 31 * 86_400_000));
    assert.equal(tooOld.status, 410, tooOld.text);
    const both = await api.request('GET', `/api/v1/mapping-book/changes?since=${before.toISOString()}&after=1.0`, { as: partner });
    assert.equal(both.status, 400, both.text);
    assert.equal((await api.request('GET', '/api/v1/mapping-book/changes?since=last-week', { as: partner })).status, 400);
  });
});

describe('a partial inventory', () => {
  it('writes its rows into the book and ends no entry', async () => {
    const partner = await api.newOrganization();
    await mapInventory(partner, [hotelRow(30), hotelRow(31), hotelRow(32)]);
    const written = await feed(partner, undefined);
    const partialJob = await mapInventory(partner, [hotelRow(31), hotelRow(33)], { partial: true });
    assert.equal((await api.request('GET', `/api/v1/mapping/${partialJob}`, { as: partner })).body.partial, true);
    const changes = await feed(partner, written.position);
    assert.deepEqual(
      changes.changes.map((change) => [change.kind, change.partnerHotelId]),
      [['NEW', 'P33']],
    );
    assert.deepEqual(
      (await allEntries(partner)).map((each) => each.partnerHotelId),
      ['P30', 'P31', 'P32', 'P33'],
    );
    const refused = await api.request('POST', '/api/v1/mapping', {
      as: partner,
      json: { partnerInventoryId: '9a3c5e7f-2b4d-4f6a-8c1e-3d5f7a9b1c2e', partial: 'yes' },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /partial: must be true or false/);
  });
});

describe('what the book tells', () => {
  it("tells each decision on the book as a job row's is told (MAPPING_ERROR_RESOLVED, no job); a job that changes nothing moves no position and tells nothing", async () => {
    const partner = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const subscribed = await api.request('POST', '/api/v1/webhook-subscriptions', {
      as: partner,
      json: { url: receiver.url('/told'), events: ['MAPPING_ERROR_RESOLVED', 'MAPPING_BOOK_CHANGED'] },
    });
    assert.equal(subscribed.status, 201, subscribed.text);
    const rows = [hotelRow(70), hotelRow(71)];
    const jobId = await mapInventory(partner, rows);
    assert.equal(
      (await api.request('GET', `/api/v1/mapping/${jobId}`, { as: partner })).body.bookWrite,
      'WRITTEN',
      'the job says when its rows are in the book',
    );
    const decide = (json: Record<string, unknown>) => api.request('POST', '/api/v1/mapping-book/reviews', { as: partner, json });
    assert.equal(
      (await decide({ partnerHotelId: 'P70', decision: 'MATCH', referenceHotelId: hotels[170]!.id, note: 'the annex' })).status,
      200,
    );
    assert.equal((await decide({ partnerHotelId: 'P70', decision: 'WITHDRAW' })).status, 200);
    assert.equal(
      (
        await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
          as: partner,
          json: { partnerHotelId: 'P71', decision: 'NO_MATCH' },
        })
      ).status,
      200,
    );
    const position = (await api.request('GET', '/api/v1/mapping-book', { as: partner })).body.position;
    // The same inventory again: the book takes it, its feed does not move.
    await mapInventory(partner, rows);
    const book = (await api.request('GET', '/api/v1/mapping-book', { as: partner })).body;
    assert.deepEqual([book.position, book.writing], [position, null]);

    await api.messaging.idle();
    const told = received.filter((body) => body.organizationId === partner.organization.id);
    assert.deepEqual(
      told.map(({ type, data }) =>
        type === 'MAPPING_BOOK_CHANGED'
          ? [type, data.cause.mappingJobId, data.counts.new]
          : [type, data.mappingJobId, data.source, data.partnerHotelId, data.decision, data.referenceHotelId],
      ),
      [
        ['MAPPING_BOOK_CHANGED', jobId, 2],
        ['MAPPING_ERROR_RESOLVED', null, 'OWN', 'P70', 'MATCH', hotels[170]!.id],
        ['MAPPING_ERROR_RESOLVED', null, 'OWN', 'P70', 'WITHDRAW', hotels[70]!.id],
        ['MAPPING_ERROR_RESOLVED', jobId, 'OWN', 'P71', 'NO_MATCH', null],
      ],
    );
    assert.deepEqual(
      [told[1]!.data.previousStatus, told[1]!.data.previousReferenceHotelId, told[1]!.data.note],
      ['MATCHED', hotels[70]!.id, 'the annex'],
    );
  });
});

describe('a hotel the inventory no longer lists', () => {
  it('takes no decision, through the book or an older job, and stays DELETED', async () => {
    const partner = await api.newOrganization();
    const olderJob = await mapInventory(partner, [hotelRow(50), hotelRow(51), nowhereRow(5)]);
    await mapInventory(partner, [hotelRow(50)]);
    const before = await feed(partner, undefined);
    assert.deepEqual((await entry(partner, 'P51')).body.status, 'DELETED');
    const attempts = [
      api.request('POST', '/api/v1/mapping-book/reviews', {
        as: partner,
        json: { partnerHotelId: 'P51', decision: 'MATCH', referenceHotelId: hotels[51]!.id },
      }),
      api.request('POST', '/api/v1/mapping-book/reviews', {
        as: partner,
        json: { partnerHotelId: 'X5', decision: 'NO_MATCH', expectedDecidedAt: null },
      }),
      api.request('POST', `/api/v1/mapping/${olderJob}/reviews`, {
        as: partner,
        json: { partnerHotelId: 'P51', decision: 'MATCH', referenceHotelId: hotels[51]!.id },
      }),
      api.request('POST', `/api/v1/mapping/${olderJob}/reviews`, {
        as: partner,
        json: { partnerHotelId: 'X5', decision: 'NO_MATCH', expectedDecidedAt: null },
      }),
    ];
    for (const refused of await Promise.all(attempts)) {
      assert.equal(refused.status, 409, refused.text);
      assert.match(refused.body.message, /was removed at .*no longer in the inventory\. It comes back when an inventory lists it again\./);
    }
    for (const id of ['P51', 'X5']) assert.equal((await entry(partner, id)).body.status, 'DELETED');
    assert.deepEqual((await feed(partner, before.position)).changes, [], 'nothing changed');
    const row = await api.request('GET', `/api/v1/mapping/${olderJob}/results?partnerHotelId=P51`, { as: partner });
    assert.equal(row.body.results[0].method, 'FUZZY', "the older job's row is not decided either");
  });
});

describe('the export of the book', () => {
  const exportBook = (as: Caller, query = '') => api.request('POST', `/api/v1/mapping-book/export${query}`, { as });

  it("writes a source's entries, decisions included, in the organization's export format; answered again until the book or the format changes", async () => {
    const partner = await api.newOrganization();
    const job = await mapInventory(partner, [hotelRow(40), hotelRow(41), nowhereRow(4)]);
    assert.equal(
      (await api.request('POST', `/api/v1/mapping/${job}/reviews`, { as: partner, json: { partnerHotelId: 'P41', decision: 'NO_MATCH' } }))
        .status,
      200,
    );

    const preparing = await exportBook(partner);
    assert.equal(preparing.status, 202, preparing.text);
    assert.deepEqual(preparing.body, {
      status: 'PREPARING',
      source: 'OWN',
      format: 'csv',
      compression: 'none',
      fields: preparing.body.fields,
    });
    assert.equal(preparing.headers.get('retry-after'), '5');
    await api.messaging.idle();
    const ready = await exportBook(partner);
    assert.equal(ready.status, 200, ready.text);
    assert.equal(ready.body.rowCount, 3);
    assert.equal(
      ready.body.position,
      (await api.request('GET', '/api/v1/mapping-book', { as: partner })).body.position,
      'where to follow the feed from',
    );
    const download = await fetch(ready.body.fileUrl);
    assert.equal(
      download.headers.get('content-disposition'),
      `attachment; filename="mapping-book-OWN-${ready.body.position}.csv"`,
      'saved under the documented name',
    );
    const lines = (await download.text()).trimEnd().split('\n');
    assert.ok(lines[0]!.startsWith('partnerHotelId,partnerHotelName,referenceHotelId'), lines[0]);
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(',')[0]),
      ['P40', 'P41', 'X4'],
    );
    assert.match(lines[2]!, /^P41,.*,UNMATCHED,MANUAL,0,/);
    // Asked again: the same file, a new URL, nothing prepared.
    const again = await exportBook(partner);
    assert.deepEqual([again.status, again.body.rowCount, again.body.position], [200, 3, ready.body.position]);

    // A saved format, or a change to the book, prepares the next one.
    assert.equal(
      (
        await api.request('PUT', '/api/v1/export-format', {
          as: partner,
          json: { format: 'jsonl', includeFields: ['partnerHotelId', 'status', 'method'] },
        })
      ).status,
      200,
    );
    assert.equal((await exportBook(partner)).status, 202);
    await api.messaging.idle();
    const jsonl = await exportBook(partner);
    assert.deepEqual([jsonl.status, jsonl.body.format, jsonl.body.fields], [200, 'jsonl', ['partnerHotelId', 'status', 'method']]);
    const rows = (await (await fetch(jsonl.body.fileUrl)).text())
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(rows[1], { partnerHotelId: 'P41', status: 'UNMATCHED', method: 'MANUAL' });
    // XLSX: one sheet of the same rows.
    assert.equal(
      (
        await api.request('PUT', '/api/v1/export-format', {
          as: partner,
          json: { format: 'xlsx', includeFields: ['partnerHotelId', 'status', 'method'] },
        })
      ).status,
      200,
    );
    assert.equal((await exportBook(partner)).status, 202);
    await api.messaging.idle();
    const xlsx = await exportBook(partner);
    assert.deepEqual([xlsx.status, xlsx.body.format, xlsx.body.rowCount], [200, 'xlsx', 3]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await (await fetch(xlsx.body.fileUrl)).arrayBuffer()) as never);
    const cells = (workbook.worksheets[0]!.getSheetValues().slice(1) as unknown[][]).map((values) =>
      [1, 2, 3].map((column) => values[column] ?? null),
    );
    assert.deepEqual(cells, [
      ['partnerHotelId', 'status', 'method'],
      ...rows.map((each) => [each.partnerHotelId, each.status, each.method]),
    ]);
    await api.request('POST', '/api/v1/mapping-book/reviews', { as: partner, json: { partnerHotelId: 'P40', decision: 'NO_MATCH' } });
    assert.equal((await exportBook(partner)).status, 202, 'the book changed');

    // Another organization exports its own (empty) book; a bad source is refused.
    const other = await api.newOrganization();
    assert.equal((await exportBook(other)).status, 202);
    await api.messaging.idle();
    assert.deepEqual([(await exportBook(other)).body.rowCount], [0]);
    const refused = await exportBook(partner, `?source=${'x'.repeat(65)}`);
    assert.equal(refused.status, 400, refused.text);
  });
});

describe('entries by score', () => {
  it('lists the entries lowest or best score first, ties in partner id order, decisions laid over, in pages, with the total', async () => {
    const partner = await api.newOrganization();
    await mapInventory(partner, [
      ...Array.from({ length: 12 }, (_, i) => hotelRow(40 + i)),
      ...Array.from({ length: 4 }, (_, i) => nowhereRow(i)),
    ]);
    // A decision since the book was written: laid over its entry (a MATCH scores 1).
    const decided = await api.request('POST', '/api/v1/mapping-book/reviews', {
      as: partner,
      json: { partnerHotelId: 'X1', decision: 'NO_MATCH' },
    });
    assert.equal(decided.status, 200, decided.text);
    const every = await allEntries(partner);
    for (const [query, kept] of [
      ['', () => true],
      ['status=MATCHED&method=FUZZY&', (held: any) => held.status === 'MATCHED' && held.method === 'FUZZY'],
    ] as const) {
      for (const order of ['ASC', 'DESC'] as const) {
        const sign = order === 'ASC' ? 1 : -1;
        const step = (held: any) => Math.round(held.score * 10_000);
        const expected = every.filter(kept).sort((a, b) => sign * (step(a) - step(b)) || (a.partnerHotelId < b.partnerHotelId ? -1 : 1));
        const listed = await allEntries(partner, `?${query}order=${order}`);
        assert.deepEqual(
          listed.map((held) => held.partnerHotelId),
          expected.map((held) => held.partnerHotelId),
          `${query}${order}`,
        );
        const first = await api.request('GET', `/api/v1/mapping-book/entries?${query}order=${order}&limit=2`, { as: partner });
        assert.equal(first.body.total, expected.length);
      }
    }
    // A cursor goes on in the order it was given in, and nowhere else.
    const page = await api.request('GET', '/api/v1/mapping-book/entries?order=ASC&limit=2', { as: partner });
    const keyPage = await api.request('GET', '/api/v1/mapping-book/entries?limit=2', { as: partner });
    for (const path of [
      `/api/v1/mapping-book/entries?order=DESC&cursor=${encodeURIComponent(page.body.nextCursor)}`,
      `/api/v1/mapping-book/entries?cursor=${encodeURIComponent(page.body.nextCursor)}`,
      `/api/v1/mapping-book/entries?order=ASC&cursor=${encodeURIComponent(keyPage.body.nextCursor)}`,
      `/api/v1/mapping-book/entries?order=ASC&cursor=${Buffer.from(JSON.stringify({ order: 'ASC', score: '10001', after: 'X' })).toString('base64url')}`,
      '/api/v1/mapping-book/entries?order=UP',
    ]) {
      const refused = await api.request('GET', path, { as: partner });
      assert.equal(refused.status, 400, `${path}: ${refused.text}`);
      assert.equal(refused.body.error, 'Bad Request');
    }
    // Another organization's book, in any order, holds none of them.
    const other = await api.newOrganization();
    assert.deepEqual((await api.request('GET', '/api/v1/mapping-book/entries?order=ASC', { as: other })).body, {
      entries: [],
      nextCursor: null,
      total: 0,
    });
    const foreign = await api.request('GET', `/api/v1/mapping-book/entries?order=ASC&cursor=${encodeURIComponent(page.body.nextCursor)}`, {
      as: other,
    });
    assert.deepEqual(foreign.body, { entries: [], nextCursor: null, total: 0 });
  });
});

describe('refused input and other organizations', () => {
  it('answers 400 to bad positions, cursors and filters, changing nothing', async () => {
    const partner = await api.newOrganization();
    for (const path of [
      '/api/v1/mapping-book/changes?after=abc',
      '/api/v1/mapping-book/changes?after=1.5',
      '/api/v1/mapping-book/changes?after=7.0',
      '/api/v1/mapping-book/changes?limit=0',
      '/api/v1/mapping-book/changes/counts?after=-1',
      '/api/v1/mapping-book/entries?cursor=bm90IGEgY3Vyc29y',
      '/api/v1/mapping-book/entries?status=LOST',
      '/api/v1/mapping-book/entries?minScore=2',
      '/api/v1/mapping-book/entries?colour=red',
      '/api/v1/mapping-book/entry',
    ]) {
      const answer = await api.request('GET', path, { as: partner });
      assert.equal(answer.status, 400, `${path}: ${answer.text}`);
      assert.equal(answer.body.error, 'Bad Request');
      assert.equal(typeof answer.body.message, 'string');
    }
    const bad = await api.request('POST', '/api/v1/mapping-book/reviews', {
      as: partner,
      json: { partnerHotelId: 'P0', decision: 'MAYBE' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual((await api.request('GET', '/api/v1/mapping-book/changes', { as: partner })).body, {
      changes: [],
      position: '1.0',
      hasMore: false,
    });
  });

  it("never shows or changes another organization's book", async () => {
    const owner = await api.newOrganization();
    await mapInventory(owner, [hotelRow(20), hotelRow(21)]);
    const other = await api.newOrganization();
    assert.equal((await entry(other, 'P20')).status, 404);
    assert.deepEqual((await api.request('GET', '/api/v1/mapping-book/entries', { as: other })).body, { entries: [], nextCursor: null });
    assert.deepEqual((await api.request('GET', '/api/v1/mapping-book', { as: other })).body, {
      entries: 0,
      sources: [],
      position: '1.0',
      writing: null,
    });
    assert.deepEqual((await api.request('GET', '/api/v1/mapping-book/changes', { as: other })).body, {
      changes: [],
      position: '1.0',
      hasMore: false,
    });
    const review = await api.request('POST', '/api/v1/mapping-book/reviews', {
      as: other,
      json: { partnerHotelId: 'P20', decision: 'NO_MATCH' },
    });
    assert.equal(review.status, 404);
    assert.equal((await entry(owner, 'P20')).body.method, 'FUZZY');
    // The owner's cursor and position mean nothing in another book.
    const ownerPage = await api.request('GET', '/api/v1/mapping-book/entries?limit=1', { as: owner });
    const foreign = await api.request('GET', `/api/v1/mapping-book/entries?cursor=${encodeURIComponent(ownerPage.body.nextCursor)}`, {
      as: other,
    });
    assert.deepEqual(foreign.body, { entries: [], nextCursor: null });
    assert.equal((await api.request('GET', '/api/v1/mapping-book/changes?after=1.1', { as: other })).status, 400);
  });
});
