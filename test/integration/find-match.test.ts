/**
 * Find a match now (`POST /api/v1/mapping/match`) through the local runtime: the same answers as a
 * job gives for the same rows, rejected rows answered as rejected, the 100-hotel limit, metering
 * and its 403, idempotency, and other organizations.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { reviewDemoRows } from '../../infra/synthetic/review-queue';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { objectStoreOf } from '../../shared/platform/objects/services';
import { tableOf } from '../../shared/platform/table';
import { importReferenceInventory, referencePortsOf, referenceStoreOf } from '../../shared/reference';
import { completedJob } from '../support/completed-job';
import { startTestApi, type Caller } from '../support/test-api';

const REFERENCE = { hotels: 400, seed: 11 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const api = await startTestApi();
await seedReferenceInventory(api.runtime, REFERENCE);

const COLUMNS = ['id', 'name', 'address', 'city', 'postalCode', 'country', 'lat', 'lon'] as const;
type Row = Partial<Record<(typeof COLUMNS)[number], string | number>>;

/**
 * Partner rows as another supplier writes the reference's hotels, with the review demo's kinds of
 * doubt (chain outlets, namesakes, moved pins…), and two hotels that exist nowhere.
 */
function partnerRows(count: number): Row[] {
  const rows: Row[] = reviewDemoRows(hotels, count - 2, 3).map(({ hotel }) =>
    // The columns the job's file has, no more: the two are sent the same hotels.
    Object.fromEntries(COLUMNS.flatMap((column) => (hotel[column] === undefined ? [] : [[column, hotel[column]]]))),
  );
  rows.push(
    { id: 'X0', name: 'Zzyzx Qwerty Lodge', city: 'Nowhere', country: 'Iceland', lat: 63.1, lon: -19.9 },
    { id: 'X1', name: 'Hotel Nowhere Inn', country: 'IS' },
  );
  return rows;
}

const match = (as: Caller | undefined, json: unknown, headers: Record<string, string> = {}) =>
  api.request('POST', '/api/v1/mapping/match', { as, json, headers });
const bookCounts = async (as: Caller) => (await api.request('GET', '/api/v1/mapping-book/changes/counts', { as })).body;

/**
 * Leaves the kept answer of a request as an invocation that timed out or died after its charge
 * leaves it: in progress, past its expiry (the invocation's deadline), and no answer kept.
 */
async function diedAfterCharging(answeredHotelId: string): Promise<void> {
  const table = tableOf(api.runtime);
  const { Items = [] } = await table.client.send(
    new QueryCommand({ TableName: table.name, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'IDEMPOTENCY' } }),
  );
  const kept = Items.filter((item) => JSON.stringify(item.data ?? null).includes(answeredHotelId));
  assert.equal(kept.length, 1);
  await table.client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: { PK: kept[0]!.PK, SK: kept[0]!.SK },
      UpdateExpression: 'SET #status = :inProgress, in_progress_expiration = :past REMOVE #data',
      ExpressionAttributeNames: { '#status': 'status', '#data': 'data' },
      ExpressionAttributeValues: { ':inProgress': 'INPROGRESS', ':past': Date.now() - 1_000 },
    }),
  );
}

const usedToday = async (as: Caller) => (await api.request('GET', '/api/v1/billing/quota/status', { as })).body.mappingsUsedToday as number;

async function jobResults(as: Caller, rows: Row[]): Promise<Map<string, any>> {
  const csv = [formatCsvRow([...COLUMNS]), ...rows.map((row) => formatCsvRow(COLUMNS.map((column) => row[column])))].join('\n');
  const jobId = await completedJob(api, as, csv);
  const results = await api.request('GET', `/api/v1/mapping/${jobId}/results?limit=1000`, { as });
  return new Map(results.body.results.map((row: any) => [row.partnerHotelId, row]));
}

describe('POST /api/v1/mapping/match', () => {
  it("answers a hotel the mapping book holds with the book's entry, a person's decision first, unless asked for the engine's view or the hotel changed", async () => {
    const partner = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const rows = partnerRows(10);
    const job = await jobResults(partner, rows);
    await api.messaging.idle();
    const [decidedRow, plainRow] = rows.filter((row) => job.get(row.id as string).status === 'MATCHED');
    const elsewhere = hotels.find((hotel) => hotel.id !== job.get(decidedRow!.id as string).referenceHotelId)!;
    const jobId = (await api.request('GET', '/api/v1/mapping?limit=1', { as: partner })).body.jobs[0].mappingJobId;
    const decided = await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
      as: partner,
      json: { partnerHotelId: decidedRow!.id, decision: 'MATCH', referenceHotelId: elsewhere.id },
    });
    assert.equal(decided.status, 200, decided.text);

    const fromBook = await match(partner, { hotels: [decidedRow, plainRow] });
    assert.equal(fromBook.status, 200, fromBook.text);
    const [person, kept] = fromBook.body.results;
    assert.deepEqual(
      [person.from, person.status, person.method, person.referenceHotelId, person.score],
      ['BOOK', 'MATCHED', 'MANUAL', elsewhere.id, 1],
    );
    assert.deepEqual(
      [kept.from, kept.status, kept.referenceHotelId, kept.score],
      ['BOOK', 'MATCHED', job.get(plainRow!.id as string).referenceHotelId, job.get(plainRow!.id as string).score],
    );

    const engine = (await match(partner, { hotels: [decidedRow], view: 'ENGINE' })).body.results[0];
    assert.deepEqual(
      [engine.from, engine.method, engine.referenceHotelId],
      ['ENGINE', 'FUZZY', job.get(decidedRow!.id as string).referenceHotelId],
    );
    const changed = (await match(partner, { hotels: [{ ...decidedRow, name: 'A Completely Different Lodge', address: '1 Other Street' }] }))
      .body.results[0];
    assert.equal(changed.from, 'ENGINE');
    // Another organization's book is not this one's: the same ids answer the engine.
    const other = await api.newOrganization();
    assert.equal((await match(other, { hotels: [decidedRow] })).body.results[0].from, 'ENGINE');
  });

  it("records the answers into the mapping book when asked: NEW entries with their changes in the feed, a person's decision kept, a changed hotel sent back to REVIEW", async () => {
    const partner = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const other = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const rows = partnerRows(6);
    const feed = async (as: Caller) => (await api.request('GET', '/api/v1/mapping-book/changes?limit=100', { as })).body.changes as any[];
    const entryOf = async (id: string | number | undefined) =>
      (await api.request('GET', `/api/v1/mapping-book/entry?partnerHotelId=${id}`, { as: partner })).body;

    const engine = (await match(partner, { hotels: rows, view: 'ENGINE' })).body.results;
    assert.deepEqual(await feed(partner), [], 'nothing is recorded unless asked');
    const recorded = await match(partner, { hotels: [...rows, { id: 'N1' }], record: true });
    assert.equal(recorded.status, 200, recorded.text);
    assert.equal(recorded.body.charged, 50, 'six hotels mapped: the least a request is charged');
    for (const [i, found] of recorded.body.results.slice(0, 6).entries()) {
      const { from, ...answer } = found;
      const { from: _engine, ...engineAnswer } = engine[i];
      assert.equal(from, 'BOOK');
      assert.deepEqual(answer, { ...engineAnswer, reason: engineAnswer.reason ?? 'First mapped' }, String(rows[i]!.id));
    }
    assert.equal(recorded.body.results[6].status, 'REJECTED');
    // The book's record queue writes them, one request of a book at a time.
    await api.messaging.idle();
    const changes = await feed(partner);
    assert.deepEqual(
      changes.map((change) => [change.kind, change.partnerHotelId, change.status, change.referenceHotelId]),
      engine.map((row: any) => ['NEW', row.partnerHotelId, row.status, row.referenceHotelId]),
    );
    const entry = await entryOf(rows[0]!.id);
    assert.deepEqual(
      [entry.status, entry.referenceHotelId, entry.cause.kind, typeof entry.cause.requestedBy],
      [engine[0].status, engine[0].referenceHotelId, 'MATCH', 'string'],
    );
    assert.notEqual(entry.cause.requestedBy, partner.apiKey);
    assert.deepEqual(await feed(other), [], "another organization's book is not written");

    // The same answers again change nothing.
    await match(partner, { hotels: rows, record: true });
    await api.messaging.idle();
    assert.equal((await feed(partner)).length, 6);

    // A person's decision stands; a materially changed hotel goes back to REVIEW under it.
    const decidedRow = rows.find((_, i) => engine[i].status === 'MATCHED')!;
    const elsewhere = hotels.find((hotel) => hotel.id !== engine[rows.indexOf(decidedRow)].referenceHotelId)!;
    const decided = await api.request('POST', '/api/v1/mapping-book/reviews', {
      as: partner,
      json: { partnerHotelId: decidedRow.id, decision: 'MATCH', referenceHotelId: elsewhere.id },
    });
    assert.equal(decided.status, 200, decided.text);
    const kept = (await match(partner, { hotels: [decidedRow], record: true })).body.results[0];
    assert.deepEqual([kept.from, kept.method, kept.referenceHotelId], ['BOOK', 'MANUAL', elsewhere.id]);
    const moved = (
      await match(partner, { hotels: [{ ...decidedRow, name: 'A Completely Different Lodge', address: '1 Other Street' }], record: true })
    ).body.results[0];
    assert.deepEqual([moved.from, moved.status], ['BOOK', 'REVIEW']);
    assert.match(moved.reason, /changed since the decision/);
    await api.messaging.idle();
    const after = await entryOf(decidedRow.id);
    assert.deepEqual(
      [after.status, after.decision.referenceHotelId, after.partner.name],
      ['REVIEW', elsewhere.id, 'A Completely Different Lodge'],
    );
    assert.deepEqual(
      (await feed(partner)).slice(6).map((change) => [change.kind, change.cause.kind]),
      [
        ['UPDATED', 'REVIEW'],
        ['UPDATED', 'MATCH'],
      ],
    );
  });

  it('finds the entries laid over the book whether they are fewer or more than the hotels asked for', async () => {
    const partner = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const rows = partnerRows(24);
    const recorded = await match(partner, { hotels: rows.slice(0, 12), record: true });
    assert.ok(recorded.body.results.every((result: any) => result.from === 'BOOK'));
    await api.messaging.idle();
    // 20 asked for, 12 laid over: one Query finds them all. 10 asked for: read by key, and so is the next 20 for a while.
    for (const asked of [rows.slice(4, 24), rows.slice(2, 12), rows.slice(4, 24)]) {
      const answer = await match(partner, { hotels: asked });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(
        answer.body.results.map((result: any) => result.from),
        asked.map((row) => (rows.indexOf(row) < 12 ? 'BOOK' : 'ENGINE')),
      );
    }
  });

  it('answers each hotel as a job answers the same row: status, hotel, score, evidence, candidates, reason', async () => {
    const partner = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const rows = partnerRows(100);
    const job = await jobResults(partner, rows);
    const answer = await match(partner, { hotels: rows, view: 'ENGINE' });
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.mode, 'STANDARD');
    assert.equal(answer.body.charged, 100);
    assert.equal(answer.body.results.length, 100);
    const statuses = new Set<string>();
    for (const [index, found] of answer.body.results.entries()) {
      assert.equal(found.index, index);
      const { index: _index, from, ...result } = found;
      assert.equal(from, 'ENGINE');
      assert.deepEqual(result, job.get(rows[index]!.id as string), String(rows[index]!.id));
      statuses.add(found.status);
    }
    // The set holds every kind of answer, so the comparison covers each.
    assert.deepEqual([...statuses].sort(), ['MATCHED', 'REVIEW', 'UNMATCHED']);
  });

  it('answers a hotel an inventory would refuse as REJECTED with the same reason, maps the rest, and charges a request at least 50 mappings, a request of rejected hotels alone nothing', async () => {
    const partner = await api.newOrganization();
    const [good] = partnerRows(3);
    const goodId = good!.id;
    const answer = await match(partner, {
      hotels: [good, { id: 'N1' }, { ...good, id: 'B1', lat: 123, lon: 2 }, good, { id: 'Z1', name: 'Zed', region: 'Nowhere' }],
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(
      answer.body.results.map((result: any) => [
        result.index,
        result.status === 'REJECTED' ? `${result.reasonCode}: ${result.reason}` : 'mapped',
      ]),
      [
        [0, 'mapped'],
        [1, 'INVALID_INPUT: name is missing'],
        [2, 'INVALID_INPUT: lat 123 is outside -90..90'],
        [3, `INVALID_INPUT: id "${goodId}" already used on line 1`],
        [4, 'mapped'],
      ],
    );
    assert.equal(answer.body.charged, 50, 'two hotels mapped: the least a request is charged');
    assert.equal(await usedToday(partner), 50);

    const one = await match(partner, { hotels: [good] });
    assert.equal(one.body.charged, 50, 'one hotel: 50');
    const many = await match(partner, { hotels: partnerRows(60) });
    assert.equal(many.body.charged, 60, 'above 50, one a hotel');
    const refused = await match(partner, { hotels: [{ id: 'N1' }, { id: 'N2', name: 'Far', lat: 123, lon: 2 }] });
    assert.equal(refused.status, 200, refused.text);
    assert.equal(refused.body.charged, 0, 'nothing mapped, nothing charged');
    assert.equal(await usedToday(partner), 160);
  });

  it(`refuses a request of no hotel, more than 100 or over its size whole, charging nothing`, async () => {
    const partner = await api.newOrganization();
    const many = Array.from({ length: 101 }, (_, i) => ({ id: `H${i}`, name: `Hotel ${i}` }));
    for (const [body, message] of [
      [{ hotels: many }, /^hotels: must hold at most 100 hotels/],
      [{ hotels: [] }, /^hotels: must hold at least one hotel/],
      [{ hotels: [{ id: 'H1', name: 'Hotel' }], mode: 'FAST' }, /^mode: must be STANDARD, ID_TO_ID or HYBRID/],
      [{ hotels: [{ id: 'H1', name: 'Hotel' }], mode: 'ID_TO_ID' }, /^ID_TO_ID mapping needs a supplierCode/],
      [
        { hotels: [{ id: 'H1', name: 'Hotel', supplierHotelId: '77' }], mode: 'HYBRID', supplierCode: 'HOTELBEDS' },
        /not connected to HOTELBEDS/,
      ],
      // A field no inventory row has (a typo) is refused, as every unknown field is.
      [
        {
          hotels: [
            { id: 'H1', name: 'Hotel' },
            { id: 'H2', name: 'Hotel', adress: '1 Main St' },
          ],
        },
        /^Unknown field "hotels\.1\.adress" in the body\.$/,
      ],
    ] as const) {
      const refused = await match(partner, body);
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.body.message, message);
    }
    // A value nested deeper than any request nests (written out: too deep for JSON.stringify here too) is refused before anything reads it.
    for (const [text, message] of [
      [
        `{"hotels":[{"id":"H1","name":"Hotel","address":${'{"a":'.repeat(5_000)}"x"${'}'.repeat(5_000)}}]}`,
        /^The request body nests objects and arrays more than 32 deep \(at hotels\.0\.address\.a\.a\.a…\)\.$/,
      ],
      [
        `{"hotels":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
        /^The request body nests objects and arrays more than 32 deep \(at hotels\.0\.0\.0\.0\.0…\)\.$/,
      ],
    ] as const) {
      const refused = await api.request('POST', '/api/v1/mapping/match', {
        as: partner,
        body: text,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(refused.status, 400, refused.text);
      assert.match(refused.body.message, message);
    }
    // Over the route's body limit (256 KiB), however few the hotels: 413, whole.
    const tooLarge = await match(partner, {
      hotels: Array.from({ length: 30 }, (_, i) => ({ id: `H${i}`, name: 'Hotel', address: 'x'.repeat(10_000) })),
    });
    assert.equal(tooLarge.status, 413, tooLarge.text);
    assert.equal(tooLarge.body.error, 'Payload Too Large');
    assert.equal(await usedToday(partner), 0);
    assert.equal((await match(undefined, { hotels: [{ id: 'H1', name: 'Hotel' }] })).status, 401);
  });

  it("answers 403 when today's allowance and the credits do not cover the hotels, mapping nothing", async () => {
    const partner = await api.newOrganization({ planType: 'FREE' });
    const hundred = partnerRows(100);
    for (let i = 0; i < 10; i++) assert.equal((await match(partner, { hotels: hundred })).status, 200);
    assert.equal(await usedToday(partner), 1_000);
    const over = await match(partner, { hotels: hundred.slice(0, 1) });
    assert.equal(over.status, 403, over.text);
    assert.match(over.body.message, /^Not enough quota/);
    assert.equal(await usedToday(partner), 1_000);
  });

  it('keeps the matching index in memory between requests and uses a new publication from the next request on', async () => {
    const partner = await api.newOrganization();
    const [row] = partnerRows(3);
    const publish = async () => {
      async function* rows() {
        for (const [i, hotel] of hotels.entries()) yield { line: i + 2, hotel };
      }
      await importReferenceInventory(referencePortsOf(api.runtime), rows(), 'the same hotels again');
      return (await referenceStoreOf(api.runtime).getCurrent())!;
    };
    const first = await publish();
    const loaded = await match(partner, { hotels: [row] });
    // The publication's id, as a job, GET /reference and the book's feed name it.
    assert.equal(loaded.body.referenceVersionId, first.artifactsId);
    const jobView = (
      await api.request('GET', `/api/v1/mapping/${await completedJob(api, partner, `id,name\n${row!.id},${row!.name}`)}`, { as: partner })
    ).body;
    assert.equal(jobView.referenceVersionId, loaded.body.referenceVersionId);
    // Its file gone from the bucket, the index in memory still answers: it is not read again per request.
    await objectStoreOf(api.runtime).delete([first.artifacts.matchingIndexKey!]);
    const again = await match(partner, { hotels: [row] });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, loaded.body);
    const second = await publish();
    const renewed = await match(partner, { hotels: [row] });
    assert.equal(renewed.status, 200, renewed.text);
    assert.equal(renewed.body.referenceVersionId, second.artifactsId);
    assert.notEqual(second.artifacts.matchingIndexKey, first.artifacts.matchingIndexKey, 'a publication has an index of its own');
  });

  it('answers a repeated Idempotency-Key with the first answer, charged once; other organizations are charged nothing', async () => {
    const partner = await api.newOrganization();
    const other = await api.newOrganization();
    const body = { hotels: partnerRows(5) };
    const first = await match(partner, body, { 'idempotency-key': 'find-1' });
    const again = await match(partner, body, { 'idempotency-key': 'find-1' });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(await usedToday(partner), 50);
    assert.equal(await usedToday(other), 0);
    const changed = await match(partner, { hotels: partnerRows(4) }, { 'idempotency-key': 'find-1' });
    assert.equal(changed.status, 422, changed.text);
  });

  it('answers a request that died after its charge, sent again with its Idempotency-Key, at no new charge, its hotels recorded once', async () => {
    const partner = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const hotelsOf = (prefix: string) => partnerRows(40).map((row, i) => ({ ...row, id: `${prefix}-${i}` }));
    // Recorded into the book, and not.
    for (const [key, body] of [
      ['died-recording', { hotels: hotelsOf('R'), record: true }],
      ['died-answering', { hotels: hotelsOf('A') }],
    ] as const) {
      const first = await match(partner, body, { 'idempotency-key': key });
      assert.equal(first.status, 200, first.text);
      await diedAfterCharging(body.hotels[0]!.id);
      const retried = await match(partner, body, { 'idempotency-key': key });
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.headers.get('idempotent-replayed'), null, 'answered anew: no answer was kept');
      assert.deepEqual(
        retried.body.results.map((result: any) => [result.partnerHotelId, result.status, result.referenceHotelId]),
        first.body.results.map((result: any) => [result.partnerHotelId, result.status, result.referenceHotelId]),
      );
      assert.equal(retried.body.charged, 50);
    }
    assert.equal(await usedToday(partner), 100, 'each request charged once');
    await api.messaging.idle();
    assert.equal((await bookCounts(partner)).new, 40, 'the recorded hotels are in the book once');
    // Another request under the same key is refused, and charged nothing.
    const reused = await match(partner, { hotels: hotelsOf('B') }, { 'idempotency-key': 'died-answering' });
    assert.equal(reused.status, 422, reused.text);
    assert.equal(await usedToday(partner), 100);
  });

  // Up to a minute beside the rest of the suite: sixteen commits of up to 90 entries to DynamoDB Local, one after another.
  it('answers many recording requests of one organization at once, each charged once and recorded, none waiting on another', async () => {
    const partner = await api.newOrganization({ planType: 'ENTERPRISE' });
    const requests = Array.from({ length: 8 }, (_, r) => ({
      hotels: partnerRows(100).map((row, i) => ({ ...row, id: `P${r}-${i}` })),
      record: true,
    }));
    const answers = await Promise.all(requests.map((body, r) => match(partner, body, { 'idempotency-key': `parallel-${r}` })));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      requests.map(() => 200),
    );
    const charged = answers.reduce((sum, answer) => sum + answer.body.charged, 0);
    assert.equal(charged, 800);
    assert.equal(await usedToday(partner), charged);
    await api.messaging.idle();
    const counts = await bookCounts(partner);
    assert.deepEqual([counts.new, counts.updated, counts.deleted], [800, 0, 0]);
  }, 60_000);
});
