/**
 * Jobs written into the mapping book on DynamoDB Local and s3rver, their ranges run at once: one
 * write holds the book at a time, a redelivered range writes nothing twice, a decision made while a
 * write runs wins over it, and a reader paging the feed meanwhile sees every change once, in order.
 */
import assert from 'node:assert/strict';
import { brotliDecompressSync } from 'node:zlib';
import { describe, it } from '@jest/globals';
import { startTestApi } from '../support/test-api';
import { GetObjectTaggingCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { BOOK_FILES_PREFIX, bookPorts } from '../../shared/mapping-book';
import { createS3Client, EXPIRE_TAG } from '../../shared/platform/objects/s3-object-store';
import { currentEntry, decideEntry, listEntries } from '../../shared/mapping-book/book';
import { FEED_START, type BookChange, type FeedPosition } from '../../shared/mapping-book/change-log';
import { applyJobRow, OWN_SOURCE, type JobRow } from '../../shared/mapping-book/entries';
import { Snapshot, writeGeneration, writePart, writeSegment } from '../../shared/mapping-book/snapshot';
import { followReference, type FollowPorts } from '../../shared/mapping-book/reference-follow';
import type { BookPorts, FollowMessage } from '../../shared/mapping-book/ports';
import {
  abandonJobWrite,
  finishJobWrite,
  RANGE_BLOCKS,
  startJobWrite,
  writeJobRange,
  type JobRowsSource,
} from '../../shared/mapping-book/job-writes';
import { entryKey, hotelKeys, listingKey } from '../../shared/mapping-book/keys';

const api = await startTestApi();
const s3 = createS3Client(api.config);

/** The files of a generation in the bucket, each with the tag that expires it (if any). */
async function generationFilesTagged(organizationId: string, generation: string): Promise<Record<string, string | undefined>> {
  const prefix = `${BOOK_FILES_PREFIX}${organizationId}/${generation}/`;
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: api.config.bucketName, Prefix: prefix }));
  const tagged: Record<string, string | undefined> = {};
  for (const object of listed.Contents ?? []) {
    const { TagSet } = await s3.send(new GetObjectTaggingCommand({ Bucket: api.config.bucketName, Key: object.Key }));
    tagged[object.Key!.slice(prefix.length)] = TagSet?.find((tag) => tag.Value === EXPIRE_TAG.value)?.Key;
  }
  return tagged;
}
const ports = bookPorts(api.runtime);
/** When an inventory was uploaded: each later than the one before. */
let uploads = 0;
const listed = () => new Date(Date.UTC(2026, 10, 1) + ++uploads * 60_000).toISOString();
const HOTEL = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

function row(i: number, overrides: Partial<JobRow> = {}): JobRow {
  return {
    partnerHotelId: `P${String(i).padStart(3, '0')}`,
    source: OWN_SOURCE,
    partner: { name: `Hotel ${i}`, city: 'Lisbon' },
    status: 'MATCHED',
    method: 'FUZZY',
    referenceHotelId: HOTEL(i),
    referenceHotelName: `Hotel ${i}`,
    score: 0.9,
    evidence: null,
    candidates: [],
    ...overrides,
  };
}

/** A job's rows in partner id order, two rows a block by default: so few rows still make several ranges. */
function source(rows: JobRow[], perBlock = 2): JobRowsSource {
  const sorted = [...rows].sort((a, b) => (a.partnerHotelId < b.partnerHotelId ? -1 : 1));
  const blocks = Array.from({ length: Math.ceil(sorted.length / perBlock) }, (_, block) =>
    sorted.slice(block * perBlock, (block + 1) * perBlock),
  );
  return {
    outline: async () => ({ firstIds: blocks.map((block) => block[0]!.partnerHotelId), sources: [OWN_SOURCE] }),
    rows: async (from, to) => blocks.slice(from, to).flat(),
  };
}

/** A person's decision on row i, made on the partner's hotel as the job gave it. */
const decision = (i: number, referenceHotelId: string | null, at: string) => ({
  decision: referenceHotelId ? ('MATCH' as const) : ('NO_MATCH' as const),
  referenceHotelId,
  referenceHotelName: referenceHotelId && 'Chosen',
  decidedBy: 'key-1',
  decidedAt: at,
  partner: row(i).partner,
});

/** A reader paging through the feed from its start while writers write, in pages of `limit`; stopped, it reads to the end and answers every change it saw. */
function feedReader(organizationId: string, limit: number): { stop(): Promise<BookChange[]> } {
  const seen: BookChange[] = [];
  let position: FeedPosition = FEED_START;
  let writing = true;
  const reading = (async () => {
    for (;;) {
      const stillWriting = writing;
      const page = await ports.log.read(organizationId, position, limit);
      seen.push(...page.changes);
      position = page.position;
      if (!stillWriting && !page.more) return;
    }
  })();
  return {
    async stop() {
      writing = false;
      await reading;
      return seen;
    },
  };
}

/** Writes a job whole: its start, then its ranges all at once. */
interface WriteOptions {
  partial?: boolean;
  listedAt?: string;
  /** Rows a block of the job's rows (2: so few rows still make several ranges). */
  perBlock?: number;
  ports?: BookPorts;
  /** The rows the engine mapped (unknown: all of them). */
  changedRows?: number;
}

async function writeJob(organizationId: string, mappingJobId: string, rows: JobRow[], options: WriteOptions = {}): Promise<void> {
  const { partial = false, listedAt = listed(), perBlock = 2, ports: writePorts = ports, changedRows } = options;
  const ranges = await startJobWrite(
    writePorts,
    { organizationId, mappingJobId, partial, listedAt, ...(changedRows !== undefined && { changedRows }) },
    source(rows, perBlock),
  );
  assert.notEqual(ranges, 'busy');
  await Promise.all(
    Array.from({ length: ranges as number }, (_, range) =>
      writeJobRange(writePorts, { organizationId, mappingJobId, range }, source(rows, perBlock)),
    ),
  );
}

/** Book ports whose files count the bytes written and read. */
function countingPorts() {
  const bytes = { written: 0, read: 0 };
  const files: typeof ports.files = Object.assign(Object.create(ports.files) as typeof ports.files, {
    put: (key: string, body: Buffer | string, contentType: string) => {
      bytes.written += Buffer.byteLength(body);
      return ports.files.put(key, body, contentType);
    },
    get: async (...args: Parameters<typeof ports.files.get>) => {
      const read = await ports.files.get(...args);
      bytes.read += read?.length ?? 0;
      return read;
    },
  });
  return { ports: { ...ports, files }, bytes };
}

describe('jobs written into the book', () => {
  it('one write holds the book at a time; a decision made meanwhile wins over it; a reader meanwhile sees every change once', async () => {
    const organizationId = `org-${Date.now()}`;
    const first = Array.from({ length: 100 }, (_, i) => row(i));
    const firstSource = source(first);
    assert.equal(Math.ceil((await firstSource.outline()).firstIds.length / RANGE_BLOCKS), 3, 'three ranges');
    await writeJob(organizationId, 'job-1', first);
    assert.equal((await ports.store.write(organizationId, 'job-1'))?.sequence, 1);

    // The second job: every tenth row on another hotel, row 99 gone, rows 100-104 new.
    const second = [
      ...first.slice(0, 99).map((each, i) => (i % 10 === 0 ? { ...each, referenceHotelId: HOTEL(500 + i) } : each)),
      ...Array.from({ length: 5 }, (_, i) => row(100 + i)),
    ];
    const ranges = await startJobWrite(
      ports,
      { organizationId, mappingJobId: 'job-2', partial: false, listedAt: listed() },
      source(second),
    );
    assert.equal(ranges, 3);
    // A third job waits for the second to commit.
    assert.equal(
      await startJobWrite(ports, { organizationId, mappingJobId: 'job-3', partial: false, listedAt: listed() }, source(first)),
      'busy',
    );

    const reader = feedReader(organizationId, 7);
    const now = () => api.clock.now().toISOString();
    await Promise.all([
      ...Array.from({ length: 3 }, (_, range) => writeJobRange(ports, { organizationId, mappingJobId: 'job-2', range }, source(second))),
      // Decided while job-2 is written: row 10 (which job-2 moves), row 11 (which it leaves).
      decideEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: 'P010' }, decision(10, HOTEL(10), now()), {
        kind: 'REVIEW',
        decidedBy: 'key-1',
      }),
      decideEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: 'P011' }, decision(11, null, now()), {
        kind: 'REVIEW',
        decidedBy: 'key-1',
      }),
    ]);
    // A range delivered again after the commit writes nothing.
    await writeJobRange(ports, { organizationId, mappingJobId: 'job-2', range: 1 }, source(second));
    assert.equal(
      await finishJobWrite(ports, organizationId, 'job-2', source(second)),
      (await ports.store.write(organizationId, 'job-2'))!.sequence,
    );
    await writeJob(organizationId, 'job-3', first, { partial: true });
    const seen = await reader.stop();

    // Every change once, in commit order.
    const keys = seen.map(
      (change) =>
        `${change.cause.kind}:${change.cause.kind === 'JOB' ? change.cause.mappingJobId : ''}:${change.partnerHotelId}:${change.kind}`,
    );
    assert.equal(new Set(keys).size, keys.length, 'no change twice');
    const all = (await ports.log.read(organizationId, FEED_START, 10_000)).changes;
    assert.deepEqual(seen, all);
    const ofJob = (job: string) => all.filter((change) => change.cause.kind === 'JOB' && change.cause.mappingJobId === job);
    assert.equal(ofJob('job-1').length, 100);
    // Job 2: the moved rows but row 10 (a person decided it meanwhile), row 99 ended, five new.
    assert.deepEqual(
      ofJob('job-2').map((change) => [change.kind, change.partnerHotelId]),
      [
        ...[0, 20, 30, 40, 50, 60, 70, 80, 90].map((i) => ['UPDATED', `P${String(i).padStart(3, '0')}`]),
        ['DELETED', 'P099'],
        ...[100, 101, 102, 103, 104].map((i) => ['NEW', `P${i}`]),
      ].sort((a, b) => (a[1]! < b[1]! ? -1 : 1)),
    );
    assert.deepEqual((await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: 'P010' }))?.method, 'MANUAL');
    assert.deepEqual((await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: 'P011' }))?.status, 'UNMATCHED');
    // Job 3 (a partial inventory of the first rows) moves the rows back, keeps the decisions, and ends nothing.
    const third = ofJob('job-3');
    assert.ok(third.every((change) => change.kind !== 'DELETED'));
    assert.deepEqual(
      third.filter((change) => change.kind === 'UPDATED').map((change) => change.partnerHotelId),
      ['P000', 'P020', 'P030', 'P040', 'P050', 'P060', 'P070', 'P080', 'P090'],
    );
    assert.deepEqual(
      third.filter((change) => change.kind === 'NEW').map((change) => change.partnerHotelId),
      ['P099'],
    );
    assert.equal((await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: 'P104' }))?.status, 'MATCHED');
    assert.equal((await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: 'P010' }))?.method, 'MANUAL');
    // Job 3 folded the two decisions into its generation: the table no longer lays them over it.
    assert.deepEqual(await ports.store.laidOverAll(organizationId), []);
  });

  it('a decision committed while the write commits is not followed in the feed by the change it superseded', async () => {
    const organizationId = `org-race-${Date.now()}`;
    await writeJob(organizationId, 'job-1', [row(1)]);
    const ranges = await startJobWrite(
      ports,
      { organizationId, mappingJobId: 'job-2', partial: false, listedAt: listed() },
      source([row(1, { referenceHotelId: HOTEL(7) })]),
    );
    // The person decides row 1 right after the commit has read the decisions laid over the book.
    let decided = false;
    const racing = {
      ...ports,
      store: Object.assign(Object.create(ports.store) as typeof ports.store, {
        laidOverAll: async (organization: string) => {
          const laid = await ports.store.laidOverAll(organization);
          if (!decided) {
            decided = true;
            await decideEntry(
              ports,
              organizationId,
              { source: OWN_SOURCE, partnerHotelId: 'P001' },
              decision(1, null, api.clock.now().toISOString()),
              { kind: 'REVIEW', decidedBy: 'key-1' },
            );
          }
          return laid;
        },
      }),
    };
    await writeJobRange(racing, { organizationId, mappingJobId: 'job-2', range: 0 }, source([row(1, { referenceHotelId: HOTEL(7) })]));
    assert.equal(ranges, 1);
    const feed = (await ports.log.read(organizationId, FEED_START, 100)).changes.map((change) => [
      change.cause.kind,
      change.kind,
      change.status,
    ]);
    // The job's move of row 1 is left out: the decision, made after it was computed, is the last word.
    assert.deepEqual(feed, [
      ['JOB', 'NEW', 'MATCHED'],
      ['REVIEW', 'UPDATED', 'UNMATCHED'],
    ]);
    assert.equal((await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: 'P001' }))?.method, 'MANUAL');
  });

  it("a person's decision made while a whole inventory's write ends the entry does not undo the end, before the commit or racing it", async () => {
    const organizationId = `org-removal-${Date.now()}`;
    const first = Array.from({ length: 10 }, (_, i) => row(i));
    await writeJob(organizationId, 'job-1', first);
    // Job 2 no longer lists rows 3 and 5: a person decides row 3 while its ranges are written, row 5 while it commits.
    const second = first.filter((_, i) => i !== 3 && i !== 5);
    const ranges = await startJobWrite(
      ports,
      { organizationId, mappingJobId: 'job-2', partial: false, listedAt: listed() },
      source(second),
    );
    const decide = (i: number) =>
      decideEntry(
        ports,
        organizationId,
        { source: OWN_SOURCE, partnerHotelId: `P00${i}` },
        decision(i, HOTEL(70 + i), api.clock.now().toISOString()),
        { kind: 'REVIEW', decidedBy: 'key-1' },
      );
    await decide(3);
    let decided = false;
    const racing = {
      ...ports,
      store: Object.assign(Object.create(ports.store) as typeof ports.store, {
        laidOverAll: async (organization: string) => {
          const laid = await ports.store.laidOverAll(organization);
          if (!decided) {
            decided = true;
            await decide(5);
          }
          return laid;
        },
      }),
    };
    for (let range = 0; range < (ranges as number); range++)
      await writeJobRange(racing, { organizationId, mappingJobId: 'job-2', range }, source(second));
    assert.ok(decided);

    for (const id of ['P003', 'P005']) {
      const entry = await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: id });
      assert.deepEqual(
        [entry?.status, entry?.decision?.decision, entry?.cause],
        ['DELETED', 'MATCH', { kind: 'JOB', mappingJobId: 'job-2' }],
        id,
      );
    }
    const feed = (await ports.log.read(organizationId, FEED_START, 100)).changes.filter(
      (change) => change.partnerHotelId === 'P003' || change.partnerHotelId === 'P005',
    );
    assert.deepEqual(
      feed.map((change) => [change.partnerHotelId, change.cause.kind, change.kind]),
      [
        ['P003', 'JOB', 'NEW'],
        ['P005', 'JOB', 'NEW'],
        ['P003', 'REVIEW', 'UPDATED'],
        ['P005', 'REVIEW', 'UPDATED'],
        ['P003', 'JOB', 'DELETED'],
        ['P005', 'JOB', 'DELETED'],
      ],
    );
    // What the book lists and counts is the inventory: eight live entries.
    assert.equal((await listEntries(ports, organizationId, {}, 100, null)).entries.length, 8);
    // Written again (a redelivered last range), the write changes nothing more.
    await finishJobWrite(ports, organizationId, 'job-2', source(second));
    assert.equal((await ports.log.read(organizationId, FEED_START, 100)).changes.length, 10 + 2 + 2);
  });

  it('takes jobs in the order of their inventories, not of their ends: an older inventory written last changes nothing a newer one said', async () => {
    const organizationId = `org-order-${Date.now()}`;
    const [olderAt, newerAt] = [listed(), listed()];
    // The older inventory lists rows 0-5; the newer one moves row 0, no longer lists row 5 and adds row 6.
    const older = Array.from({ length: 6 }, (_, i) => row(i));
    const newer = [row(0, { referenceHotelId: HOTEL(50) }), ...older.slice(1, 5), row(6)];
    // The newer job ends first; the older, larger one after it, whole and then partial.
    await writeJob(organizationId, 'newer', newer, { listedAt: newerAt });
    const written = (await ports.log.read(organizationId, FEED_START, 100)).changes.length;
    await writeJob(organizationId, 'older', older, { listedAt: olderAt });
    await writeJob(organizationId, 'older-partial', older, { partial: true, listedAt: olderAt });
    const entryOf = (i: number) => currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: `P00${i}` });
    assert.equal((await entryOf(0))?.referenceHotelId, HOTEL(50));
    assert.equal(await entryOf(5), undefined, 'the newer inventory never listed row 5');
    assert.equal((await entryOf(6))?.status, 'MATCHED', 'the older inventory does not end what the newer one listed');
    assert.equal((await ports.log.read(organizationId, FEED_START, 100)).changes.length, written, 'the older jobs change nothing');
    // An inventory newer than both is written as always.
    await writeJob(organizationId, 'newest', older);
    assert.deepEqual(
      [(await entryOf(0))?.referenceHotelId, (await entryOf(5))?.status, (await entryOf(6))?.status],
      [HOTEL(0), 'MATCHED', 'DELETED'],
    );
  });

  it('a whole inventory listed again as it was writes no entry, and what it listed still outranks an older inventory written after it', async () => {
    const organizationId = `org-again-${Date.now()}`;
    const id = (i: number) => `P${String(i).padStart(6, '0')}`;
    const rows = Array.from({ length: 2_000 }, (_, i) => row(i, { partnerHotelId: id(i) }));
    const [firstAt, betweenAt, againAt] = [listed(), listed(), listed()];
    await writeJob(organizationId, 'first', rows, { listedAt: firstAt, perBlock: 500 });
    const feed = (await ports.log.read(organizationId, FEED_START, 3_000)).changes.length;
    const entryOf = (i: number) => currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: id(i) });

    // The same inventory again, uploaded later: every entry stands as it was, listed by the book's newest whole inventory.
    const counting = countingPorts();
    await writeJob(organizationId, 'again', rows, { listedAt: againAt, perBlock: 500, changedRows: 0, ports: counting.ports });
    const snapshot = (await Snapshot.open(ports, organizationId, 'again'))!;
    assert.deepEqual(
      snapshot.manifest.segments.map((segment) => [segment.id, segment.entries]),
      [['first', 2_000]],
    );
    assert.ok(counting.bytes.written < 2_000, `${counting.bytes.written} bytes written: the ranges' indexes and the generation's manifest`);
    assert.deepEqual(
      await generationFilesTagged(organizationId, 'again'),
      { 'manifest.json': undefined },
      "the empty segment's files are gone",
    );
    assert.equal((await ports.log.read(organizationId, FEED_START, 3_000)).changes.length, feed);

    // An inventory uploaded between the two, written last, partial or whole: what the later one listed stands.
    const older = [row(3, { partnerHotelId: id(3), referenceHotelId: HOTEL(300) }), row(5_000, { partnerHotelId: id(5_000) })];
    await writeJob(organizationId, 'between-partial', older, { partial: true, listedAt: betweenAt });
    await writeJob(organizationId, 'between', older, { listedAt: betweenAt, changedRows: 2 });
    assert.equal((await entryOf(3))?.referenceHotelId, HOTEL(3));
    assert.equal((await entryOf(50))?.status, 'MATCHED', 'not ended by an older inventory');
    assert.equal(await entryOf(5_000), undefined);
    assert.equal((await ports.log.read(organizationId, FEED_START, 3_000)).changes.length, feed);

    // A later inventory changing five rows writes a segment of five entries beside the first.
    const changed = rows.map((each, i) => (i % 400 === 0 ? { ...each, referenceHotelId: HOTEL(5_000 + i) } : each));
    await writeJob(organizationId, 'later', changed, { perBlock: 500, changedRows: 5 });
    const later = (await Snapshot.open(ports, organizationId, 'later'))!;
    assert.deepEqual(
      later.manifest.segments.map((segment) => [segment.id, segment.entries]),
      [
        ['first', 2_000],
        ['later', 5],
      ],
    );
    assert.equal((await entryOf(400))?.referenceHotelId, HOTEL(5_400));
    assert.equal((await entryOf(401))?.referenceHotelId, HOTEL(401));
    assert.equal((await ports.log.read(organizationId, FEED_START, 3_000)).changes.length, feed + 5);
  });

  it('a job, decisions and a merge written at once: a reader paging meanwhile sees every change once, and replaying them gives the book', async () => {
    const organizationId = `org-all-${Date.now()}`;
    const first = Array.from({ length: 60 }, (_, i) => row(i));
    await writeJob(organizationId, 'job-1', first);
    const second = first.map((each, i) => (i % 5 === 0 ? { ...each, referenceHotelId: HOTEL(600 + i) } : each));
    assert.equal(
      await startJobWrite(ports, { organizationId, mappingJobId: 'job-2', partial: false, listedAt: listed() }, source(second)),
      2,
    );
    // A publication that merged hotels 1, 2, 10 (which job-2 moves) and 12 into others.
    const merged = [1, 2, 10, 12].map((i) => ({ hotelId: HOTEL(i), mergedInto: HOTEL(900 + i), mergedIntoName: `Survivor ${i}` }));
    const publication = {
      artifactsId: 'pub-2',
      previousArtifactsId: 'pub-1',
      number: 2,
      publishedAt: api.clock.now().toISOString(),
      matchingIndexKey: 'unused',
      merged,
      removed: [],
      added: [],
    };
    const waiting: FollowMessage[] = [];
    const following: FollowPorts = {
      ...ports,
      referenceChanges: async (id) => (id === 'pub-2' ? publication : undefined),
      remap: async () => assert.fail('a merge maps nothing again'),
      // The queue's delayed redelivery, run below once the job's write has committed.
      follows: { send: async (message) => void waiting.push(message), sendAll: async () => undefined },
    };

    const reader = feedReader(organizationId, 3);
    const now = () => api.clock.now().toISOString();
    const decide = (i: number) =>
      decideEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: row(i).partnerHotelId }, decision(i, HOTEL(i), now()), {
        kind: 'REVIEW',
        decidedBy: 'key-1',
      });
    await Promise.all([
      ...[0, 1].map((range) => writeJobRange(ports, { organizationId, mappingJobId: 'job-2', range }, source(second))),
      ...[3, 10, 11].map(decide),
      // The follow waits while the job is written into the book.
      followReference(following, { organizationId, referenceVersionId: 'pub-2' }),
    ]);
    assert.deepEqual(waiting, [{ organizationId, referenceVersionId: 'pub-2' }]);
    // Then it runs, while people decide on entries it moves.
    await Promise.all([followReference(following, waiting[0]!), ...[2, 12, 13].map(decide)]);
    const seen = await reader.stop();

    const all = (await ports.log.read(organizationId, FEED_START, 10_000)).changes;
    assert.deepEqual(seen, all, 'the reader saw the feed as it stands, every change once');
    assert.ok(all.some((change) => change.cause.kind === 'MERGE') && all.some((change) => change.cause.kind === 'REVIEW'));
    // Replaying the feed gives the book: the last change of each entry is the entry as it stands.
    const replayed = new Map(all.map((change) => [change.partnerHotelId, change]));
    for (const [partnerHotelId, change] of replayed) {
      const current = await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId });
      assert.deepEqual(
        [current?.status, current?.method, current?.referenceHotelId],
        [change.status, change.method, change.referenceHotelId],
        partnerHotelId,
      );
    }
    // Entries on the merged hotels moved to the survivors, or a person decided them meanwhile; the book followed the publication.
    assert.equal(replayed.get(row(1).partnerHotelId)?.referenceHotelId, HOTEL(901));
    for (const i of [2, 12]) assert.ok([HOTEL(i), HOTEL(900 + i)].includes(replayed.get(row(i).partnerHotelId)!.referenceHotelId!));
    assert.deepEqual((await ports.store.state(organizationId)).followed, { referenceVersionId: 'pub-2', number: 2 });
  });

  it('lists by status, method and source through the index, with the decisions since laid over it, in pages', async () => {
    const organizationId = `org-list-${Date.now()}`;
    const status = (i: number) => (i % 7 === 0 ? 'REVIEW' : i % 11 === 0 ? 'UNMATCHED' : 'MATCHED');
    const rows = Array.from({ length: 90 }, (_, i) =>
      row(i, {
        status: status(i),
        ...(status(i) === 'UNMATCHED' && { method: null, referenceHotelId: null, referenceHotelName: null }),
        ...(i % 3 === 0 && { source: 'EXPEDIA' }),
      }),
    );
    await writeJob(organizationId, 'job-1', rows);
    // Decided since the generation: two REVIEW rows matched, a MATCHED one refused.
    const now = api.clock.now().toISOString();
    for (const [i, hotel] of [
      [7, HOTEL(7)],
      [14, HOTEL(14)],
      [5, null],
    ] as const) {
      await decideEntry(
        ports,
        organizationId,
        { source: rows[i]!.source, partnerHotelId: rows[i]!.partnerHotelId },
        decision(i, hotel, now),
        { kind: 'REVIEW', decidedBy: 'key-1' },
      );
    }
    const everything = await listEntries(ports, organizationId, { status: undefined }, 1_000, null);
    const all = [...everything.entries, ...(await listEntries(ports, organizationId, { status: 'DELETED' }, 1_000, null)).entries];
    assert.equal(all.length, 90);
    for (const filter of [
      { status: 'REVIEW' },
      { status: 'UNMATCHED' },
      { method: 'MANUAL' },
      { method: 'NONE' },
      { source: 'EXPEDIA' },
      { source: 'EXPEDIA', status: 'MATCHED' },
      { status: 'REVIEW', minScore: 0.95 },
    ] as const) {
      const paged = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listEntries>> = await listEntries(ports, organizationId, filter, 4, cursor);
        paged.push(...page.entries);
        cursor = page.nextKey;
      } while (cursor !== null);
      const expected = all.filter(
        (entry) =>
          entry.status !== 'DELETED' &&
          (!('status' in filter) || entry.status === filter.status) &&
          (!('method' in filter) || (entry.method ?? 'NONE') === filter.method) &&
          (!('source' in filter) || entry.source === filter.source) &&
          (!('minScore' in filter) || entry.score >= filter.minScore!),
      );
      assert.deepEqual(
        paged.map((entry) => `${entry.partnerHotelId}/${entry.source}`),
        expected.map((entry) => `${entry.partnerHotelId}/${entry.source}`),
        JSON.stringify(filter),
      );
    }
    assert.deepEqual(
      (await listEntries(ports, organizationId, { status: 'REVIEW' }, 100, null)).entries.map((entry) => entry.partnerHotelId),
      ['P000', 'P021', 'P028', 'P035', 'P042', 'P049', 'P056', 'P063', 'P070', 'P077', 'P084'],
      'the REVIEW rows but the two decided since',
    );
  });

  it('follows a chain of merges listed in any order to the hotel that survives, and a delivery repeated changes nothing more', async () => {
    const organizationId = `org-chain-${Date.now()}`;
    await writeJob(organizationId, 'job-1', [row(1), row(2)]);
    // Hotel 2 was merged into 3, then hotel 1 into 2: listed the other way round.
    const merged = [
      { hotelId: HOTEL(2), mergedInto: HOTEL(3), mergedIntoName: 'Three' },
      { hotelId: HOTEL(1), mergedInto: HOTEL(2), mergedIntoName: null },
    ];
    const publication = {
      artifactsId: 'pub-2',
      previousArtifactsId: 'pub-1',
      number: 2,
      publishedAt: api.clock.now().toISOString(),
      matchingIndexKey: 'unused',
      merged,
      removed: [],
      added: [],
    };
    const following: FollowPorts = {
      ...ports,
      referenceChanges: async (id) => (id === 'pub-2' ? publication : undefined),
      remap: async () => assert.fail('a merge maps nothing again'),
      follows: { send: async () => assert.fail('nothing to wait for'), sendAll: async () => undefined },
    };
    await followReference(following, { organizationId, referenceVersionId: 'pub-2' });
    for (const i of [1, 2]) {
      const entry = await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: row(i).partnerHotelId });
      assert.deepEqual([entry?.referenceHotelId, entry?.referenceHotelName], [HOTEL(3), 'Three']);
    }
    const end = await ports.log.endPosition(organizationId);
    // The same message again (as if the first delivery died before its last step): nothing more in the feed.
    await ports.store.table.client.send(
      new UpdateCommand({
        TableName: ports.store.table.name,
        Key: { PK: `BOOK#${organizationId}`, SK: 'STATE' },
        UpdateExpression: 'REMOVE followed',
      }),
    );
    await followReference(following, { organizationId, referenceVersionId: 'pub-2' });
    assert.deepEqual(await ports.log.endPosition(organizationId), end);
  });

  it('brings the rows of a job mapped against an earlier publication up to the one the book follows', async () => {
    const organizationId = `org-catch-up-${Date.now()}`;
    const sent: FollowMessage[] = [];
    const catching = {
      ...ports,
      follows: { send: async (message: FollowMessage) => void sent.push(message), sendAll: async () => undefined },
    };
    const publications = {
      'pub-1': {
        artifactsId: 'pub-1',
        previousArtifactsId: null,
        number: 1,
        publishedAt: api.clock.now().toISOString(),
        matchingIndexKey: 'unused',
        merged: [],
        removed: [],
        added: [],
      },
      'pub-2': {
        artifactsId: 'pub-2',
        previousArtifactsId: 'pub-1',
        number: 2,
        publishedAt: api.clock.now().toISOString(),
        matchingIndexKey: 'unused',
        merged: [{ hotelId: HOTEL(1), mergedInto: HOTEL(901), mergedIntoName: 'Survivor' }],
        removed: [],
        added: [],
      },
    };
    const following: FollowPorts = {
      ...catching,
      referenceChanges: async (id) => publications[id as keyof typeof publications],
      remap: async () => assert.fail('a merge maps nothing again'),
    };
    const write = async (mappingJobId: string, rows: JobRow[]) => {
      const ranges = await startJobWrite(
        catching,
        { organizationId, mappingJobId, partial: false, mappedAgainst: { referenceVersionId: 'pub-1', number: 1 }, listedAt: listed() },
        source(rows),
      );
      for (let range = 0; range < (ranges as number); range++)
        await writeJobRange(catching, { organizationId, mappingJobId, range }, source(rows));
    };
    await write('job-1', [row(1), row(2)]);
    assert.deepEqual(
      (await ports.store.state(organizationId)).followed,
      { referenceVersionId: 'pub-1', number: 1 },
      'a new book follows what its first job mapped against',
    );
    await followReference(following, { organizationId, referenceVersionId: 'pub-2' });
    const p1 = () => currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: row(1).partnerHotelId });
    assert.equal((await p1())?.referenceHotelId, HOTEL(901));
    assert.deepEqual(sent, []);

    // A job pinned to pub-1 writes row 1 back onto the merged hotel, and a new row 3 onto it too.
    await write('job-2', [row(1), row(2), row(3, { referenceHotelId: HOTEL(1) })]);
    assert.equal((await p1())?.referenceHotelId, HOTEL(1));
    assert.deepEqual(sent, [{ organizationId, referenceVersionId: 'pub-2', since: 'pub-1' }]);
    const before = await ports.log.endPosition(organizationId);
    await followReference(following, sent[0]!);
    assert.equal((await p1())?.referenceHotelId, HOTEL(901));
    assert.equal(
      (await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: row(3).partnerHotelId }))?.referenceHotelId,
      HOTEL(901),
    );
    assert.deepEqual(
      (await ports.log.read(organizationId, before, 10)).changes.map((change) => [change.partnerHotelId, change.cause.kind]),
      [
        [row(1).partnerHotelId, 'MERGE'],
        [row(3).partnerHotelId, 'MERGE'],
      ],
    );
    assert.deepEqual((await ports.store.state(organizationId)).followed, { referenceVersionId: 'pub-2', number: 2 });
  });

  it('a partial job writes a segment of what it changed: the same bytes into a book ten times the size', async () => {
    const written: number[] = [];
    for (const size of [2_000, 20_000]) {
      const organizationId = `org-segment-${size}-${Date.now()}`;
      const rows = Array.from({ length: size }, (_, i) => row(i, { partnerHotelId: `P${String(i).padStart(6, '0')}` }));
      await writeJob(organizationId, 'whole', rows, { perBlock: 500 });
      // 40 rows spread over the whole book, each renamed.
      const partial = Array.from({ length: 40 }, (_, i) => ({
        ...rows[i * (size / 40)]!,
        partner: { name: `Annex ${i}`, city: 'Lisbon' },
      }));
      const counting = countingPorts();
      await writeJob(organizationId, 'partial', partial, { partial: true, perBlock: 500, ports: counting.ports });
      written.push(counting.bytes.written);
      const snapshot = (await Snapshot.open(ports, organizationId, 'partial'))!;
      assert.deepEqual(
        snapshot.manifest.segments.map((segment) => [segment.id, segment.entries]),
        [
          ['whole', size],
          ['partial', 40],
        ],
      );
      assert.equal(
        (await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: partial[7]!.partnerHotelId }))?.partner.name,
        'Annex 7',
      );
      assert.equal(
        (await currentEntry(ports, organizationId, { source: OWN_SOURCE, partnerHotelId: rows[1]!.partnerHotelId }))?.partner.name,
        'Hotel 1',
      );
      // The whole job's files stay: the partial one's generation still reads them.
      const { 'manifest.json': manifest, ...segment } = await generationFilesTagged(organizationId, 'whole');
      assert.equal(manifest, 'expire');
      assert.ok(Object.values(segment).every((tag) => tag === undefined));
    }
    const [small, large] = written as [number, number];
    assert.ok(large <= small * 1.2 && small <= large * 1.2, `${small} and ${large} bytes written`);
  });

  it('partial jobs over partial jobs: a few segments, merged by size, read as one write would have left the book', async () => {
    const organizationId = `org-tiers-${Date.now()}`;
    const names = new Map<string, string>();
    const statuses = new Map<string, JobRow['status']>();
    const rows = Array.from({ length: 600 }, (_, i) => row(i, { partnerHotelId: `P${String(i).padStart(4, '0')}` }));
    await writeJob(organizationId, 'job-0', rows, { perBlock: 50 });
    for (const each of rows)
      [names, statuses].forEach((map, m) => map.set(each.partnerHotelId, m === 0 ? each.partner.name : each.status) as unknown);
    // Twelve partial jobs of 30 rows, each a stride of its own through the book, some new, some sent to REVIEW.
    for (let job = 1; job <= 12; job++) {
      const partial = Array.from({ length: 30 }, (_, i) => {
        const id = `P${String((i * 23 + job * 7) % 640).padStart(4, '0')}`;
        return row(0, {
          partnerHotelId: id,
          partner: { name: `Job ${job} ${id}`, city: 'Lisbon' },
          status: (i + job) % 4 === 0 ? 'REVIEW' : 'MATCHED',
        });
      });
      await writeJob(organizationId, `job-${job}`, partial, { partial: true, perBlock: 50 });
      for (const each of partial)
        [names, statuses].forEach((map, m) => map.set(each.partnerHotelId, m === 0 ? each.partner.name : each.status) as unknown);
      const { generation } = await ports.store.state(organizationId);
      assert.ok((await Snapshot.open(ports, organizationId, generation))!.manifest.segments.length <= 4, `segments after job ${job}`);
    }
    const all = [];
    for (let cursor: string | null = null; ;) {
      const page: Awaited<ReturnType<typeof listEntries>> = await listEntries(ports, organizationId, {}, 70, cursor);
      all.push(...page.entries);
      if ((cursor = page.nextKey) === null) break;
    }
    assert.deepEqual(
      all.map((entry) => [entry.partnerHotelId, entry.partner.name]),
      [...names].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    const review: string[] = [];
    for (let cursor: string | null = null; ;) {
      const page: Awaited<ReturnType<typeof listEntries>> = await listEntries(ports, organizationId, { status: 'REVIEW' }, 5, cursor);
      review.push(...page.entries.map((entry) => entry.partnerHotelId));
      if ((cursor = page.nextKey) === null) break;
    }
    assert.deepEqual(
      review,
      [...statuses]
        .filter(([, status]) => status === 'REVIEW')
        .map(([id]) => id)
        .sort(),
    );
    const { bookStatistics } = await import('../../shared/mapping-book/book');
    assert.deepEqual(
      { ...(await bookStatistics(ports, organizationId))[OWN_SOURCE] },
      { 'MATCHED#FUZZY': names.size - review.length, 'REVIEW#FUZZY': review.length },
    );
    // A segment merged into a newer one goes a day later.
    assert.ok(Object.values(await generationFilesTagged(organizationId, 'job-1')).every((tag) => tag === 'expire'));
  });

  it("stores what an entry says twice once (its engine's answer where it is the entry's own, its last history line), and reads every entry back whole", async () => {
    const organizationId = `org-stored-${Date.now()}`;
    const at = api.clock.now().toISOString();
    const engineDecided = { ...applyJobRow(undefined, row(1, { partnerHotelId: 'P1' }), at, 'job-1', at).entry, folded: 0 };
    // A person's decision over the engine's answer: the two differ, both kept.
    const decided = {
      ...applyJobRow(undefined, row(2, { partnerHotelId: 'P2' }), at, 'job-1', at).entry,
      status: 'UNMATCHED' as const,
      method: 'MANUAL' as const,
      referenceHotelId: null,
      referenceHotelName: null,
      reason: 'No match (decided)',
      folded: 3,
    };
    // History whose last line tells another change than the entry's fields.
    const renamed = {
      ...engineDecided,
      partnerHotelId: 'P3',
      history: [...engineDecided.history, { ...engineDecided.history[0]!, reason: 'Renamed' }],
    };
    const entries = [engineDecided, decided, renamed];
    await writePart(ports.files, organizationId, 'gen-1', 0, entries, {});
    await writeSegment(ports.files, organizationId, 'gen-1', 1);
    await writeGeneration(ports.files, organizationId, {
      generation: 'gen-1',
      statistics: {},
      segments: [{ id: 'gen-1', entries: entries.length, blocks: 1 }],
    });

    const stored = JSON.parse(
      brotliDecompressSync((await ports.files.get(`${BOOK_FILES_PREFIX}${organizationId}/gen-1/part-00000`))!).toString('utf8'),
    );
    assert.deepEqual(
      stored.map((entry: Record<string, unknown>) => [
        'engine' in entry,
        'engineOwn' in entry,
        entry.lastChange ?? null,
        (entry.history as unknown[]).length,
      ]),
      [
        [false, true, 'NEW', 0],
        [true, false, null, 1],
        [false, true, null, 2],
      ],
    );
    const snapshot = (await Snapshot.open(ports, organizationId, 'gen-1'))!;
    assert.deepEqual(await snapshot.entriesAt(entries.map(entryKey)), entries);
  });

  it("finds every entry of an index key whose pairs run over several of the index's blocks", async () => {
    const organizationId = `org-index-${Date.now()}`;
    // 5,000 entries in one part, 4,000 of them on one hotel: its pairs fill two blocks and more.
    const entries = Array.from({ length: 5_000 }, (_, i) => ({
      ...applyJobRow(
        undefined,
        row(i, { partnerHotelId: `P${String(i).padStart(5, '0')}`, referenceHotelId: i % 5 === 4 ? HOTEL(i) : HOTEL(1) }),
        api.clock.now().toISOString(),
        'job-1',
        api.clock.now().toISOString(),
      ).entry,
      folded: 0,
    }));
    await writePart(ports.files, organizationId, 'gen-1', 0, entries, {});
    await writeSegment(ports.files, organizationId, 'gen-1', 1);
    await writeGeneration(ports.files, organizationId, {
      generation: 'gen-1',
      statistics: {},
      segments: [{ id: 'gen-1', entries: entries.length, blocks: 10 }],
    });
    const snapshot = (await Snapshot.open(ports, organizationId, 'gen-1'))!;
    assert.equal((await snapshot.entryKeysFor(hotelKeys([HOTEL(1)]))).size, 4_000);
    const paged: string[] = [];
    for (let after: string | null = null; ;) {
      const page = await snapshot.entryKeysUnder(listingKey.source(OWN_SOURCE), after, 700);
      paged.push(...page.keys);
      if (!page.more) break;
      after = page.keys[page.keys.length - 1]!;
    }
    assert.deepEqual(paged, entries.map(entryKey));
  });

  it('a write that cannot finish gives the book back: the next job is written, the abandoned one never commits', async () => {
    const organizationId = `org-abandon-${Date.now()}`;
    const rows = Array.from({ length: 10 }, (_, i) => row(i));
    assert.equal(
      await startJobWrite(ports, { organizationId, mappingJobId: 'stuck', partial: false, listedAt: listed() }, source(rows)),
      1,
    );
    assert.equal(
      await startJobWrite(ports, { organizationId, mappingJobId: 'next', partial: false, listedAt: listed() }, source(rows)),
      'busy',
    );
    // Its one range was written, then the commit failed every delivery.
    const written = {
      ...ports,
      store: Object.assign(Object.create(ports.store) as typeof ports.store, {
        rangeDone: async () => assert.fail('dies before counting'),
      }),
    };
    await assert.rejects(writeJobRange(written, { organizationId, mappingJobId: 'stuck', range: 0 }, source(rows)));
    await abandonJobWrite(ports, organizationId, 'stuck');
    // What it wrote goes a day later; what it never wrote is not asked for.
    const files = await generationFilesTagged(organizationId, 'stuck');
    assert.deepEqual(files, { 'part-00000': 'expire', 'part-00000.json': 'expire' });
    await writeJob(organizationId, 'next', rows);
    assert.equal((await ports.log.read(organizationId, FEED_START, 100)).changes.length, 10);
    // The abandoned write's late range changes nothing: it no longer holds the book.
    await writeJobRange(ports, { organizationId, mappingJobId: 'stuck', range: 0 }, source(rows));
    assert.equal((await ports.store.write(organizationId, 'stuck'))?.sequence, undefined);
    assert.equal((await ports.store.state(organizationId)).generation, 'next');
    // Abandoning a committed write changes nothing.
    await abandonJobWrite(ports, organizationId, 'next');
    assert.equal((await ports.store.write(organizationId, 'next'))?.sequence, 1);
  });
});
