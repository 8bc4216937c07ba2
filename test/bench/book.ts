/**
 * `npm run bench:book`: how fast jobs are written into the mapping book, and the feed read, on the
 * local runtime (DynamoDB Local and s3rver): a --rows job into an empty book, then a second job of as
 * many rows (a tenth on another hotel, a hundredth gone, as many new) into that book, each written
 * range by range as the queue runs them (--parallel at once); then the feed of the first job's
 * changes read to its end in pages of 1,000, as a partner reads it; then a partial job of --partial rows
 * spread over the book (a name changed in each) and one of as many neighbouring rows, with the bytes
 * each read and wrote; then a publication that merged 100
 * hotels taken into the book (what it reads: the entry index's blocks, not the book), and the first page
 * of the UNMATCHED entries (every 50th) through the index; then searches of the book, the first and
 * warm ones; then pages lowest score first (the book's riskiest answers), ten by cursor.
 *   npm run bench:book [-- --rows 100000 --parallel 4]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { localRuntime } from '../../infra/local/messaging';
import { newLocalTokenSigningKey, provisionLocalStack } from '../../infra/local/stack';
import { bookPorts } from '../../shared/mapping-book';
import { listEntries, searchEntries } from '../../shared/mapping-book/book';
import type { ScoredKey } from '../../shared/mapping-book/entry-search';
import { followReference, type FollowPorts } from '../../shared/mapping-book/reference-follow';
import { objectStoreOf } from '../../shared/platform/objects/services';
import { FEED_START, type FeedPosition } from '../../shared/mapping-book/change-log';
import { OWN_SOURCE, type JobRow } from '../../shared/mapping-book/entries';
import { startJobWrite, writeJobRange, type JobRowsSource } from '../../shared/mapping-book/job-writes';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    parallel: { type: 'string', default: '4' },
    partial: { type: 'string', default: '10000' },
  },
});
const ROWS = Number(args.rows);
const PARTIAL_ROWS = Number(args.partial);
const PARALLEL = Number(args.parallel);
/** Rows per block of a job's results views. */
const VIEW_BLOCK_ROWS = 500;

const hotel = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
function row(i: number, referenceHotel = i): JobRow {
  if (i % 50 === 7)
    return {
      ...matchedRow(i, referenceHotel),
      status: 'UNMATCHED',
      method: null,
      referenceHotelId: null,
      referenceHotelName: null,
      score: 0.2,
    };
  return matchedRow(i, referenceHotel);
}

function matchedRow(i: number, referenceHotel: number): JobRow {
  return {
    partnerHotelId: `H-${String(i).padStart(7, '0')}`,
    source: OWN_SOURCE,
    partner: {
      name: `Hotel Number ${i}`,
      address: `${i} Avenida da Liberdade`,
      postalCode: '1250-096',
      city: 'Lisboa',
      country: 'PT',
      latitude: 38.72 + i / 1e6,
      longitude: -9.14,
    },
    status: 'MATCHED',
    method: 'FUZZY',
    referenceHotelId: hotel(referenceHotel),
    referenceHotelName: `Hotel Number ${referenceHotel}`,
    score: 0.93,
    evidence: {
      nameSimilarity: 0.97,
      distanceMeters: 12,
      addressMatch: true,
      addressSimilarity: 0.9,
      postalCodeMatch: true,
      cityMatch: true,
      countryMatch: true,
    },
    candidates: [
      {
        referenceHotelId: hotel(referenceHotel + 1),
        referenceHotelName: `Hotel Number ${referenceHotel + 1}`,
        score: 0.04,
        nameSimilarity: 0.8,
        distanceMeters: 230,
      },
    ],
  };
}

function source(rows: JobRow[]): JobRowsSource {
  const blocks = Array.from({ length: Math.ceil(rows.length / VIEW_BLOCK_ROWS) }, (_, block) =>
    rows.slice(block * VIEW_BLOCK_ROWS, (block + 1) * VIEW_BLOCK_ROWS),
  );
  return {
    outline: async () => ({ firstIds: blocks.map((block) => block[0]!.partnerHotelId), sources: [OWN_SOURCE] }),
    rows: async (from, to) => blocks.slice(from, to).flat(),
  };
}

const s3DataDir = mkdtempSync(join(tmpdir(), 'bench-book-'));
const stack = await provisionLocalStack({
  s3DataDir,
  localTokenSigningKey: newLocalTokenSigningKey(),
  localSecretsKey: randomBytes(32).toString('base64'),
});
const { runtime } = localRuntime(stack.config);
const files = objectStoreOf(runtime);
/** Reads of the book's files, and the bytes read and written, counted. */
let reads = 0;
const bytes = { read: 0, written: 0 };
const ports = {
  ...bookPorts(runtime),
  files: {
    ...files,
    get: async (key: string, range?: { start: number; length: number }) => {
      reads++;
      const got = await files.get(key, range);
      bytes.read += got?.length ?? 0;
      return got;
    },
    expireLater: files.expireLater.bind(files),
    put: (key: string, body: string | Buffer, contentType: string) => {
      bytes.written += Buffer.byteLength(body);
      return files.put(key, body, contentType);
    },
  },
};
const organizationId = 'bench-book';

/** Writes a job into the book as the queue would, `PARALLEL` ranges at a time; its wall time in ms. */
async function writeJob(mappingJobId: string, rows: JobRow[], partial = false): Promise<number> {
  const started = performance.now();
  const ranges = await startJobWrite(ports, { organizationId, mappingJobId, partial, listedAt: new Date().toISOString() }, source(rows));
  if (ranges === 'busy') throw new Error('the book is busy');
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < ranges) await writeJobRange(ports, { organizationId, mappingJobId, range: next++ }, source(rows));
    }),
  );
  return performance.now() - started;
}

try {
  console.log(`bench:book: jobs of ${ROWS.toLocaleString('en')} rows, ranges ${PARALLEL} at a time`);
  const first = Array.from({ length: ROWS }, (_, i) => row(i));
  const firstMs = await writeJob('job-1', first);
  console.log(
    `  first job into an empty book: ${(firstMs / 1000).toFixed(1)} s (${Math.round(ROWS / (firstMs / 1000)).toLocaleString('en')} rows/s)`,
  );

  const second = first
    .filter((_, i) => i % 100 !== 1)
    .map((each, i) => (i % 10 === 0 ? { ...each, referenceHotelId: hotel(ROWS + i), referenceHotelName: 'Another' } : each));
  while (second.length < ROWS) second.push(row(ROWS + second.length));
  second.sort((a, b) => (a.partnerHotelId < b.partnerHotelId ? -1 : 1));
  const secondMs = await writeJob('job-2', second);
  const secondWrite = await ports.store.write(organizationId, 'job-2');
  const secondPage = await ports.log.read(organizationId, { sequence: secondWrite!.sequence!, read: 0 }, 1);
  console.log(
    `  second job into a book of ${ROWS.toLocaleString('en')} entries: ${(secondMs / 1000).toFixed(1)} s (${Math.round(ROWS / (secondMs / 1000)).toLocaleString('en')} rows/s), ` +
      `${(await ports.log.counts(organizationId, { sequence: secondWrite!.sequence!, read: 0 })).updated.toLocaleString('en')} updated` +
      (secondPage.changes.length ? '' : ' (no changes?)'),
  );

  // A partial job: a name changed in PARTIAL_ROWS entries spread over the whole book.
  const step = Math.max(1, Math.floor(second.length / PARTIAL_ROWS));
  const partial = second
    .filter((_, i) => i % step === 0)
    .slice(0, PARTIAL_ROWS)
    .map((each) => ({ ...each, partner: { ...each.partner, name: `${each.partner.name} Annex` } }));
  const mb = (count: number) => `${(count / 2 ** 20).toFixed(1)} MB`;
  const partialJob = async (mappingJobId: string, rows: JobRow[], what: string) => {
    bytes.read = 0;
    bytes.written = 0;
    reads = 0;
    const partialMs = await writeJob(mappingJobId, rows, true);
    console.log(
      `  a partial job of ${rows.length.toLocaleString('en')} rows ${what} into a book of ${second.length.toLocaleString('en')} entries: ${(partialMs / 1000).toFixed(1)} s, ` +
        `${mb(bytes.read)} of the book's files read (${reads.toLocaleString('en')} reads), ${mb(bytes.written)} written`,
    );
  };
  await partialJob('job-partial', partial, 'spread over the book');
  // Another: a name changed in PARTIAL_ROWS neighbouring entries (a region, or hotels added at the end of the ids).
  const from = Math.floor(second.length / 3);
  await partialJob(
    'job-neighbours',
    second
      .slice(from, from + PARTIAL_ROWS)
      .map((each) => ({ ...each, partner: { ...each.partner, name: `${each.partner.name} Neighbour` } })),
    'of neighbours',
  );

  const readStarted = performance.now();
  let position: FeedPosition = FEED_START;
  let read = 0;
  for (;;) {
    const page = await ports.log.read(organizationId, position, 1000);
    read += page.changes.length;
    position = page.position;
    if (position.sequence > 1) break;
  }
  const readMs = performance.now() - readStarted;
  console.log(
    `  feed read of the first job's ${read.toLocaleString('en')} changes in pages of 1,000: ${(readMs / 1000).toFixed(1)} s (${Math.round(read / (readMs / 1000)).toLocaleString('en')} changes/s)`,
  );

  // A publication that merged 100 hotels the book points at, taken in as the follow worker does.
  const merged = Array.from({ length: 100 }, (_, n) => (n * 997 + 3) % ROWS).filter((i) => i % 50 !== 7);
  const publication = {
    artifactsId: 'pub-2',
    previousArtifactsId: 'pub-1',
    number: 2,
    publishedAt: new Date().toISOString(),
    matchingIndexKey: 'unused',
    merged: merged.map((i) => ({ hotelId: hotel(i), mergedInto: hotel(2 * ROWS + i), mergedIntoName: 'Survivor' })),
    removed: [],
    added: [],
  };
  const following: FollowPorts = {
    ...ports,
    referenceChanges: async (id) => (id === 'pub-2' ? publication : undefined),
    remap: async () => {
      throw new Error('a merge maps nothing again');
    },
    follows: { send: async () => undefined, sendAll: async () => undefined },
  };
  const beforeFollow = await ports.log.endPosition(organizationId);
  reads = 0;
  const followStarted = performance.now();
  await followReference(following, { organizationId, referenceVersionId: 'pub-2' });
  const followMs = performance.now() - followStarted;
  const moved = (await ports.log.counts(organizationId, beforeFollow)).updated;
  console.log(
    `  a publication merging ${merged.length} of the book's hotels taken in: ${(followMs / 1000).toFixed(2)} s, ${moved} entries moved, ${reads} reads of the book's files (of its ${Math.ceil(ROWS / 500)} entry blocks and their index)`,
  );

  reads = 0;
  const listStarted = performance.now();
  const page = await listEntries(ports, organizationId, { status: 'UNMATCHED' }, 100, null);
  console.log(
    `  first page of ${page.entries.length} UNMATCHED entries (one in 50) through the index: ${Math.round(performance.now() - listStarted)} ms, ${reads} reads`,
  );

  // Searches of the book (entry-search.ts): the first reads every segment part's columns; then warm, as a function serving searches is.
  const searches: [string, Parameters<typeof searchEntries>[2], Parameters<typeof searchEntries>[3]][] = [
    ['a name', { name: 'number 4242' }, {}],
    ['a reference hotel', { referenceHotelId: hotel(777) }, {}],
    ['a name among UNMATCHED', { name: 'number 1' }, { status: 'UNMATCHED' }],
    ['a partner hotel', { partnerHotelId: 'H-0005000' }, {}],
  ];
  reads = 0;
  const coldStarted = performance.now();
  const cold = await searchEntries(ports, organizationId, searches[0]![1], searches[0]![2], 100, { order: 'KEY', afterKey: null });
  console.log(
    `  first search of the book (every part's columns read): ${Math.round(performance.now() - coldStarted)} ms, ${reads} reads, ${cold.total} found`,
  );
  const times: number[] = [];
  for (let k = 0; k < 40; k++) {
    const [, search, filter] = searches[k % searches.length]!;
    const started = performance.now();
    await searchEntries(ports, organizationId, search, filter, 100, { order: 'KEY', afterKey: null });
    times.push(performance.now() - started);
  }
  times.sort((x, y) => x - y);
  console.log(
    `  searches of the book (${searches.map(([kind]) => kind).join(', ')}; total counted, a page of 100 read): p50 ${Math.round(times[20]!)} ms, p95 ${Math.round(times[38]!)} ms`,
  );

  // The book's riskiest answers (GET …/entries?order=ASC): every matching row's score sorted per request, then a page of 100 read.
  const orderedTimes: number[] = [];
  for (const filter of [{ status: 'MATCHED' as const }, {}]) {
    let after: ScoredKey | null = null;
    for (let k = 0; k < 10; k++) {
      const started = performance.now();
      const page = await searchEntries(ports, organizationId, {}, filter, 100, { order: 'ASC', after });
      orderedTimes.push(performance.now() - started);
      after = page.next;
    }
  }
  orderedTimes.sort((x, y) => x - y);
  console.log(
    `  pages of 100 lowest score first (MATCHED, then every entry; ten pages each by cursor): p50 ${Math.round(orderedTimes[10]!)} ms, p95 ${Math.round(orderedTimes[18]!)} ms`,
  );
} finally {
  await stack.stop();
  rmSync(s3DataDir, { recursive: true, force: true });
}
