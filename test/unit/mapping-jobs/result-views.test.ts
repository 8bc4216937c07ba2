import assert from 'node:assert/strict';
import { FileReads, ReadCache } from '../../../shared/platform/objects/block-files';
import { describe, it } from '@jest/globals';
import { DomainError } from '../../../shared/platform/errors';
import type { StoredResult } from '../../../shared/mapping-jobs/job';
import { queryCountedChunks, queryResults } from '../../../shared/mapping-jobs/results';
import type { ResultFilter } from '../../../shared/mapping-jobs/job';
import {
  EngineRowsInOrder,
  ID_BLOCK_ROWS,
  ResultViews,
  VIEW_BLOCK_ROWS,
  writeViewPart,
  writeViewsManifest,
} from '../../../shared/mapping-jobs/result-views';
import { resultSortKey } from '../../../shared/mapping-jobs/store';
import { bytesOf, DecisionsInMemory, ObjectsInMemory } from '../../support/results-in-memory';

/** Each set-up its own job: a function keeps views it read, as views never change. */
let jobs = 0;
const STATUSES = ['MATCHED', 'REVIEW', 'UNMATCHED'] as const;

/** Rows of every engine partition, with ties, and partner ids whose UTF-8 order differs from UTF-16's. */
function engineRows(count: number): StoredResult[] {
  return Array.from({ length: count }, (_, i) => {
    const status = STATUSES[(i * 7) % 3]!;
    const method = status === 'UNMATCHED' ? null : i % 5 === 0 ? 'ID' : 'FUZZY';
    const id = i % 97 === 0 ? `\u{1F3E8}${i}` : i % 89 === 0 ? `\uFF21${i}` : `H-${String((i * 7919) % 100_000).padStart(5, '0')}`;
    return {
      partnerHotelId: id,
      partnerHotelName: `Hotel ${i}`,
      referenceHotelId: status === 'UNMATCHED' ? null : `ref-${i}`,
      referenceHotelName: status === 'UNMATCHED' ? null : `Reference ${i}`,
      status,
      method,
      score: status === 'UNMATCHED' ? 0 : Math.round(((i * 37) % 100) / 10) / 10,
      evidence: null,
      candidates: [],
      chunk: Math.floor(i / 400),
    };
  });
}

/** What every read must answer: the rows as decided, filtered, in id order or by score (best first, or lowest with ASC). */
function expected(rows: readonly StoredResult[], decisions: DecisionsInMemory, filter: ResultFilter): string[] {
  const current = rows.map((row) => decisions.decided.get(row.partnerHotelId)?.decision ?? row);
  const filtered = filter.status || filter.method || filter.minScore !== undefined || filter.maxScore !== undefined || filter.order;
  const kept = current.filter(
    (row) =>
      (!filter.status || row.status === filter.status) &&
      (!filter.method || row.method === filter.method) &&
      row.score >= (filter.minScore ?? 0) &&
      row.score <= (filter.maxScore ?? 1),
  );
  const keyOf = (row: StoredResult) => bytesOf(filtered ? resultSortKey(row.score, row.partnerHotelId) : row.partnerHotelId);
  return kept
    .sort((a, b) => Buffer.compare(keyOf(a), keyOf(b)) * (filtered && filter.order !== 'ASC' ? -1 : 1))
    .map((row) => row.partnerHotelId);
}

async function readAll(
  read: (cursor: string | undefined) => Promise<{ results: StoredResult[]; nextCursor: string | null }>,
  limit: number,
): Promise<StoredResult[]> {
  const rows: StoredResult[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await read(cursor);
    assert.ok(page.results.length <= limit);
    rows.push(...page.results);
    cursor = page.nextCursor ?? undefined;
    assert.ok(++pages < 1_000, 'the pages end');
  } while (cursor !== undefined);
  return rows;
}

async function setUp(count = 2_345, ids: 'mixed' | 'ascii' = 'mixed') {
  const job = { organizationId: 'org-1', id: `job-${++jobs}` };
  // ASCII ids take the sort's fast path (strings compared as they are); the others, their bytes.
  const rows = engineRows(count).map((row, i) => (ids === 'ascii' ? { ...row, partnerHotelId: `A-${(i * 7_919) % 10_007}-${i}` } : row));
  const objects = new ObjectsInMemory();
  // Written as one part of the finishing stage: no partition to merge.
  await writeViewsManifest(objects, job, [await writeViewPart(objects, job, 0, rows)], {});
  const decisions = new DecisionsInMemory(job.id);
  const views = new ResultViews({ objects, files: new FileReads(), searchColumns: new ReadCache(4) }, decisions, job);
  return { job, rows, objects, decisions, views };
}

const FILTERS: ResultFilter[] = [
  {},
  { status: 'MATCHED' },
  { status: 'REVIEW' },
  { status: 'UNMATCHED' },
  { method: 'MANUAL' },
  { method: 'FUZZY', minScore: 0.3 },
  { status: 'REVIEW', method: 'ID' },
  { minScore: 0.5, maxScore: 0.9 },
  { maxScore: 0 },
  { order: 'ASC' },
  { status: 'MATCHED', method: 'FUZZY', order: 'ASC' },
  { method: 'MANUAL', order: 'ASC' },
  { minScore: 0.3, maxScore: 0.8, order: 'ASC' },
  { status: 'REVIEW', order: 'DESC' },
];

describe('a completed job’s results views', () => {
  it("written as one part, are four objects however many rows: the part's blocks laid end to end, its search columns, its index, then the manifest", async () => {
    const { job, objects } = await setUp();
    const views = `mapping-jobs/org-1/${job.id}/views`;
    assert.deepEqual(objects.writes, [
      `${views}/part-00000`,
      `${views}/part-00000.search`,
      `${views}/part-00000.json`,
      `${views}/manifest.json`,
    ]);
  });

  it('answer every filter, page by page, as the rows are: in partner id (UTF-8) order, or best score first', async () => {
    const { job, rows, decisions, views } = await setUp();
    for (const filter of FILTERS) {
      for (const limit of [1_000, 137]) {
        const read = await readAll((cursor) => queryResults(views, job.id, filter, limit, cursor), limit);
        assert.deepEqual(
          read.map((row) => row.partnerHotelId),
          expected(rows, decisions, filter),
          `${JSON.stringify(filter)} in pages of ${limit}`,
        );
      }
    }
  });

  it('sort ASCII partner ids the same way, by their bytes', async () => {
    const { job, rows, decisions, views } = await setUp(1_234, 'ascii');
    for (const filter of [{}, { status: 'MATCHED' as const }, { minScore: 0.2 }]) {
      const read = await readAll((cursor) => queryResults(views, job.id, filter, 300, cursor), 300);
      assert.deepEqual(
        read.map((row) => row.partnerHotelId),
        expected(rows, decisions, filter),
        JSON.stringify(filter),
      );
    }
  });

  it('show a decided row as decided, where the decision put it, and never where the engine had', async () => {
    const { job, rows, decisions, views } = await setUp();
    rows.filter((_, i) => i % 13 === 0).forEach((row, i) => decisions.decide(row, i % 2 ? 'MATCH' : 'NO_MATCH'));
    for (const filter of FILTERS) {
      const read = await readAll((cursor) => queryResults(views, job.id, filter, 200, cursor), 200);
      assert.deepEqual(
        read.map((row) => row.partnerHotelId),
        expected(rows, decisions, filter),
        JSON.stringify(filter),
      );
      for (const row of read) assert.deepEqual(row, decisions.decided.get(row.partnerHotelId)?.decision ?? row);
    }
    const decided = [...decisions.decided.values()][1]!;
    assert.deepEqual(await views.getResult(job.id, decided.engine.partnerHotelId), decided.decision);
    assert.deepEqual(await views.getResult(job.id, rows[1]!.partnerHotelId), rows[1]);
    assert.equal(await views.getResult(job.id, 'no-such-row'), undefined);
  });

  it('read a page from one or two blocks, and keep what they read', async () => {
    const { job, objects, views } = await setUp();
    await queryResults(views, job.id, {}, 100, undefined);
    assert.equal(objects.reads.length, 2, 'the manifest and one block');
    objects.reads.length = 0;
    await queryResults(views, job.id, {}, 100, undefined);
    assert.deepEqual(objects.reads, [], 'the same page again reads nothing');
    const page = await queryResults(views, job.id, {}, VIEW_BLOCK_ROWS, undefined);
    await queryResults(views, job.id, {}, VIEW_BLOCK_ROWS, page.nextCursor!);
    assert.ok(objects.reads.length <= 2, objects.reads.join(', '));
  });

  it('refuse a cursor of another job or another list', async () => {
    const { job, views } = await setUp(10);
    const another = Buffer.from(JSON.stringify({ job: 'another-job', after: 'H-1' })).toString('base64url');
    const filtered = Buffer.from(JSON.stringify({ after: '0.5000#H-1' })).toString('base64url');
    for (const cursor of [another, filtered, 'not-a-cursor']) {
      await assert.rejects(
        queryResults(views, job.id, {}, 10, cursor),
        (error: unknown) => error instanceof DomainError && error.kind === 'invalid_input',
      );
    }
  });

  it('hand the book its rows in groups of blocks of about the rows it weighs its work in, all of them, in order', async () => {
    const { job, rows, objects } = await setUp();
    const inOrder = new EngineRowsInOrder({ objects, files: new FileReads() }, job, 500);
    const { firstIds } = await inOrder.outline();
    assert.equal(ID_BLOCK_ROWS, 100);
    assert.equal(firstIds.length, Math.ceil(rows.length / 500), 'five blocks of 100 rows a group');
    objects.reads.length = 0;
    await inOrder.rows(2, 3);
    assert.equal(objects.reads.length, 1, 'a group is read by one range');
    const all = (await inOrder.rows(0, firstIds.length)).map((row) => row.partnerHotelId);
    assert.deepEqual(
      all,
      [...rows].map((row) => row.partnerHotelId).sort((a, b) => Buffer.compare(bytesOf(a), bytesOf(b))),
    );
    assert.deepEqual(
      (await inOrder.rows(1, 2)).map((row) => row.partnerHotelId),
      all.slice(500, 1_000),
    );
    assert.equal(firstIds[1], all[500]);
  });

  it('of a job with no row answer empty pages', async () => {
    const { job, views } = await setUp(0);
    assert.deepEqual(await queryResults(views, job.id, {}, 10, undefined), { results: [], nextCursor: null });
    assert.deepEqual(await queryResults(views, job.id, { status: 'REVIEW' }, 10, undefined), { results: [], nextCursor: null });
    assert.equal(await views.getResult(job.id, 'H-1'), undefined);
  });
});

describe('an unfinished, cancelled or failed job’s rows', () => {
  const rows = engineRows(1_000);
  const chunks = [0, 1, 2].map((chunk) => rows.filter((row) => row.chunk === chunk));
  const read: number[] = [];
  const readChunk = async (chunk: number) => {
    read.push(chunk);
    return chunks[chunk]!;
  };
  const running = { status: 'RUNNING' as const, chunkCount: 3, doneChunks: new Set([0, 2]) };
  const inChunks = (filter: ResultFilter, chunkNumbers: number[]) =>
    chunkNumbers.flatMap((chunk) => expected(chunks[chunk]!, new DecisionsInMemory(), filter));

  it('come chunk by chunk from the counted chunks only, each in partner id order or best score first', async () => {
    for (const filter of [{}, { status: 'REVIEW' as const }, { minScore: 0.4 }]) {
      for (const limit of [1_000, 99]) {
        const all = await readAll((cursor) => queryCountedChunks(readChunk, running, filter, limit, cursor), limit);
        assert.deepEqual(
          all.map((row) => row.partnerHotelId),
          inChunks(filter, [0, 2]),
          `${JSON.stringify(filter)} in pages of ${limit}`,
        );
      }
    }
  });

  it('find a partner id in the counted chunks, and not in the others', async () => {
    const counted = chunks[2]![3]!;
    assert.deepEqual(await queryCountedChunks(readChunk, running, { partnerHotelId: counted.partnerHotelId }, 10, undefined), {
      results: [counted],
      nextCursor: null,
    });
    const uncounted = chunks[1]![3]!;
    assert.deepEqual(await queryCountedChunks(readChunk, running, { partnerHotelId: uncounted.partnerHotelId }, 10, undefined), {
      results: [],
      nextCursor: null,
    });
  });

  it('read at most four chunk files a page', async () => {
    read.length = 0;
    const many = Array.from({ length: 10 }, () => [] as StoredResult[]);
    const page = await queryCountedChunks(
      async (chunk) => (read.push(chunk), many[chunk]!),
      { status: 'CANCELLED', chunkCount: 10, doneChunks: new Set([0, 1, 2, 3, 4, 5]) },
      {},
      100,
      undefined,
    );
    assert.deepEqual(read, [0, 1, 2, 3]);
    assert.deepEqual(page.results, []);
    assert.ok(page.nextCursor, 'a page with no row, and a cursor to go on');
  });

  it('refuse a cursor that is not one of these lists', async () => {
    const forged = Buffer.from(JSON.stringify({ chunk: 'x' })).toString('base64url');
    for (const cursor of [forged, 'not-a-cursor']) {
      await assert.rejects(
        queryCountedChunks(readChunk, running, {}, 10, cursor),
        (error: unknown) => error instanceof DomainError && error.kind === 'invalid_input',
      );
    }
  });
});
