import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { DomainError } from '../../../shared/platform/errors';
import type { StoredResult } from '../../../shared/mapping-jobs/job';
import { queryResults } from '../../../shared/mapping-jobs/results';
import type { ResultFilter } from '../../../shared/mapping-jobs/job';
import { resultPartition, resultSortKey, type ResultPage } from '../../../shared/mapping-jobs/store';
import type { ResultPartition, SortKeyRange } from '../../../shared/mapping-jobs/result-views';

function row(partnerHotelId: string, status: StoredResult['status'], method: StoredResult['method'], score: number): StoredResult {
  return {
    partnerHotelId,
    partnerHotelName: `Hotel ${partnerHotelId}`,
    referenceHotelId: status === 'UNMATCHED' ? null : `ref-${partnerHotelId}`,
    referenceHotelName: status === 'UNMATCHED' ? null : `Reference ${partnerHotelId}`,
    status,
    method,
    score,
    evidence: null,
    candidates: [],
    chunk: 0,
  };
}

/** A job's results, one of each status-and-method pair and a few ties. */
const ROWS: StoredResult[] = [
  row('a', 'MATCHED', 'ID', 1),
  row('b', 'MATCHED', 'FUZZY', 0.92),
  row('c', 'MATCHED', 'FUZZY', 0.5),
  row('d', 'MATCHED', 'MANUAL', 1),
  row('e', 'REVIEW', 'FUZZY', 0.35),
  row('f', 'REVIEW', 'ID', 0.35),
  row('g', 'REVIEW', 'FUZZY', 0.12),
  row('h', 'UNMATCHED', null, 0.05),
  row('i', 'UNMATCHED', null, 0),
  row('j', 'UNMATCHED', 'MANUAL', 0),
];

/**
 * The three reads queryResults makes of the store, over a list in memory: a row by id, rows in
 * partner id order from a cursor, and one status-and-method partition best score first between two
 * sort keys (both included), as the store's methods document them.
 */
class ResultsInMemory {
  readonly calls: string[] = [];

  constructor(private readonly rows: readonly StoredResult[]) {}

  async getResult(_jobId: string, partnerHotelId: string): Promise<StoredResult | undefined> {
    this.calls.push(`getResult ${partnerHotelId}`);
    return this.rows.find((result) => result.partnerHotelId === partnerHotelId);
  }

  async resultsInOrder(_jobId: string, limit: number, cursor: string | undefined): Promise<ResultPage> {
    this.calls.push(`resultsInOrder ${limit} ${cursor}`);
    return {
      results: [...this.rows].sort((a, b) => (a.partnerHotelId < b.partnerHotelId ? -1 : 1)).slice(0, limit),
      nextCursor: 'next-in-order',
    };
  }

  async resultsOfPartition(
    { status, method }: ResultPartition,
    { lowest, highest }: SortKeyRange,
    limit: number,
  ): Promise<(StoredResult & { sortKey: string })[]> {
    this.calls.push(`resultsOfPartition ${resultPartition('job-1', status, method)}`);
    return this.rows
      .filter((result) => result.status === status && result.method === method)
      .map((result) => ({ ...result, sortKey: resultSortKey(result.score, result.partnerHotelId) }))
      .filter(({ sortKey }) => lowest <= sortKey && sortKey <= highest)
      .sort((a, b) => (a.sortKey < b.sortKey ? 1 : -1))
      .slice(0, limit);
  }
}

function setUp(rows: readonly StoredResult[] = ROWS) {
  const store = new ResultsInMemory(rows);
  // queryResults reads through these three methods of the store only.
  const query = (filter: ResultFilter, limit = 50, cursor?: string) => queryResults(store, 'job-1', filter, limit, cursor);
  return { store, query };
}

const ids = (page: { results: StoredResult[] }) => page.results.map((result) => result.partnerHotelId);

describe('reading a job’s results', () => {
  it('without a filter, lists them in partner id order through the store’s own cursor', async () => {
    const { store, query } = setUp();
    const page = await query({}, 3, 'a-cursor');
    assert.deepEqual(ids(page), ['a', 'b', 'c']);
    assert.equal(page.nextCursor, 'next-in-order');
    assert.deepEqual(store.calls, ['resultsInOrder 3 a-cursor']);
  });

  it('by partner id, is one lookup that the other filters still apply to', async () => {
    const { store, query } = setUp();
    assert.deepEqual(await query({ partnerHotelId: 'e' }), { results: [ROWS[4]], nextCursor: null });
    assert.deepEqual(await query({ partnerHotelId: 'e', status: 'MATCHED' }), { results: [], nextCursor: null });
    assert.deepEqual(await query({ partnerHotelId: 'e', minScore: 0.36 }), { results: [], nextCursor: null });
    assert.deepEqual(await query({ partnerHotelId: 'zzz' }), { results: [], nextCursor: null });
    assert.deepEqual(store.calls, ['getResult e', 'getResult e', 'getResult e', 'getResult zzz']);
  });

  it('by status, merges that status’s partitions best score first, ties by partner id from the last', async () => {
    const { store, query } = setUp();
    assert.deepEqual(ids(await query({ status: 'MATCHED' })), ['d', 'a', 'b', 'c']);
    assert.deepEqual(ids(await query({ status: 'REVIEW' })), ['f', 'e', 'g']);
    assert.deepEqual(ids(await query({ status: 'UNMATCHED' })), ['h', 'j', 'i']);
    assert.ok(store.calls.every((call) => call.startsWith('resultsOfPartition')));
  });

  it('by method, reads every status that method can have: MANUAL rows are matched or unmatched', async () => {
    const { store, query } = setUp();
    assert.deepEqual(ids(await query({ method: 'MANUAL' })), ['d', 'j']);
    assert.deepEqual(store.calls.sort(), ['resultsOfPartition JOB#job-1#MATCHED#MANUAL', 'resultsOfPartition JOB#job-1#UNMATCHED#MANUAL']);
    assert.deepEqual(ids(await query({ method: 'ID' })), ['a', 'f']);
    assert.deepEqual(ids(await query({ status: 'REVIEW', method: 'FUZZY' })), ['e', 'g']);
  });

  it('by score, includes both bounds, across every partition', async () => {
    const { query } = setUp();
    assert.deepEqual(ids(await query({ minScore: 0.35, maxScore: 0.92 })), ['b', 'c', 'f', 'e']);
    assert.deepEqual(ids(await query({ maxScore: 0 })), ['j', 'i']);
    assert.deepEqual(ids(await query({ minScore: 1 })), ['d', 'a']);
    assert.equal((await query({ minScore: 0 })).results.length, ROWS.length);
  });

  it('refuses a minimum score above the maximum, before reading anything', async () => {
    const { store, query } = setUp();
    await assert.rejects(
      query({ minScore: 0.8, maxScore: 0.2 }),
      (error: unknown) =>
        error instanceof DomainError && error.kind === 'invalid_input' && error.message === 'minScore must not be above maxScore.',
    );
    assert.deepEqual(store.calls, []);
  });

  it('pages through a filter: every row once, in order, and no cursor after the last page', async () => {
    const { query } = setUp();
    const everything = ids(await query({ minScore: 0 }));
    for (const limit of [1, 2, 3, 4, 10, 11]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await query({ minScore: 0 }, limit, cursor);
        assert.ok(page.results.length <= limit);
        seen.push(...ids(page));
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor !== undefined && pages < 20);
      assert.deepEqual(seen, everything, `pages of ${limit}`);
      assert.equal(pages, Math.max(1, Math.ceil(ROWS.length / limit)), `pages of ${limit}`);
    }
  });

  it('hands out no stored sort key with the rows', async () => {
    const { query } = setUp();
    for (const result of (await query({ status: 'MATCHED' })).results) assert.ok(!('sortKey' in result));
  });

  it('refuses a cursor that is not one of a filtered list', async () => {
    const { query } = setUp();
    const inOrder = Buffer.from(JSON.stringify({ job: 'job-1', after: 'c' })).toString('base64url');
    for (const cursor of [inOrder, 'not-a-cursor']) {
      await assert.rejects(
        query({ status: 'MATCHED' }, 10, cursor),
        (error: unknown) => error instanceof DomainError && error.kind === 'invalid_input',
      );
    }
  });
});
