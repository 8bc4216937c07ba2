/**
 * Reading a job's results. A completed job's are read through its views (result-views.ts), every
 * filter a range of sorted files: no filter reads the rows in partner id order; a partner id is one
 * lookup; status, method and score read the status-and-method partitions (sorted by score) that the
 * filter allows, merged best score first (lowest first with order=ASC). Until a job has completed, and for one that was cancelled
 * or failed, its rows are read from the files of its counted chunks, chunk by chunk.
 */
import { invalidInput } from '../platform/errors';
import { decodeCursor, encodeCursor } from '../platform/table';
import { isReadable, type MappingJob, type ResultFilter, type StoredResult } from './job';
import { RESULT_PARTITIONS, type ResultViews } from './result-views';
import { partnerIdAt, rowOfPartnerId, searchColumns, searchMatches, type PartRow } from './result-search';
import type { AnswerSearch } from '../mapping';
import { resultSortKey, resultSortKeyCeiling, sortKeyBytes } from './store';

export interface ResultsPage {
  results: StoredResult[];
  nextCursor: string | null;
  /** How many rows the search matched in all (a search of a completed job only). */
  total?: number;
}

/**
 * A completed job's rows that a search and the filter ask for, in partner id order, with their total:
 * the views' search columns scanned, the job's decisions laid over the rows they decided.
 */
export async function searchResults(
  views: Pick<ResultViews, 'searchParts' | 'getEngineResult'>,
  decisions: () => Promise<StoredResult[]>,
  search: AnswerSearch,
  filter: ResultFilter,
  limit: number,
  cursor: string | undefined,
): Promise<ResultsPage> {
  filterOf(filter);
  const after = decodePartRow(cursor);
  const [parts, decidedRows] = await Promise.all([views.searchParts(), decisions()]);
  // Each part's decided rows, by row.
  const decided = parts.map(() => new Map<number, StoredResult>());
  for (const row of decidedRows) {
    for (const [part, columns] of parts.entries()) {
      const at = rowOfPartnerId(columns, row.partnerHotelId);
      if (at !== undefined) decided[part]!.set(at, row);
    }
  }
  // One more than a page tells whether there is a next one.
  const { rows, total } = searchColumns(parts, search, filter, decided, after, limit + 1);
  const page = rows.slice(0, limit);
  const results = await Promise.all(
    page.map(async (at) => decided[at.part]!.get(at.row) ?? (await views.getEngineResult(partnerIdAt(parts[at.part]!, at.row)))!),
  );
  const last = page[page.length - 1];
  return { results, nextCursor: rows.length > limit && last ? encodeCursor({ at: `${last.part}:${last.row}` }) : null, total };
}

function decodePartRow(cursor: string | undefined): PartRow | undefined {
  if (cursor === undefined) return undefined;
  const at = decodeCursor(cursor, { partition: {}, attributes: ['at'] })!.at!;
  const parsed = /^(\d{1,6}):(\d{1,7})$/.exec(at);
  if (!parsed) throw invalidInput('cursor: is not a cursor of this list.');
  return { part: Number(parsed[1]), row: Number(parsed[2]) };
}

export async function queryResults(
  store: Pick<ResultViews, 'getResult' | 'resultsInOrder' | 'resultsOfPartition'>,
  jobId: string,
  filter: ResultFilter,
  limit: number,
  cursor: string | undefined,
): Promise<ResultsPage> {
  const { minScore, maxScore, matches } = filterOf(filter);

  if (filter.partnerHotelId !== undefined) {
    const result = await store.getResult(jobId, filter.partnerHotelId);
    return { results: result && matches(result) ? [result] : [], nextCursor: null };
  }
  if (!byScore(filter)) return store.resultsInOrder(jobId, limit, cursor);

  // Across the allowed partitions by score, best first (or lowest first); the cursor is the last sort key returned.
  const ascending = filter.order === 'ASC';
  const after = cursor === undefined ? undefined : decodeSortKey(cursor);
  const [lowest, highest] = [resultSortKey(minScore, ''), resultSortKeyCeiling(maxScore)];
  // A cursor beyond the range asked for (another filter's) has nothing after it.
  if (after !== undefined && Buffer.compare(sortKeyBytes(after), sortKeyBytes(ascending ? highest : lowest)) * (ascending ? 1 : -1) > 0)
    return { results: [], nextCursor: null };
  const partitions = RESULT_PARTITIONS.filter(
    (partition) => (!filter.status || partition.status === filter.status) && (!filter.method || partition.method === filter.method),
  );
  // One more than a page tells whether there is a next one; one more again when the range starts
  // at the cursor's own row (BETWEEN is inclusive), which is dropped.
  const wanted = limit + 1 + (after === undefined ? 0 : 1);
  const pages = await Promise.all(
    partitions.map((partition) =>
      store.resultsOfPartition(
        partition,
        ascending ? { lowest: after ?? lowest, highest } : { lowest, highest: after ?? highest },
        wanted,
        filter.order,
      ),
    ),
  );
  // Each key's bytes made once, not once per comparison.
  const merged = pages
    .flat()
    .filter((result) => result.sortKey !== after)
    .map((result) => ({ result, bytes: sortKeyBytes(result.sortKey) }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes) * (ascending ? 1 : -1))
    .map(({ result }) => result);
  const page = merged.slice(0, limit);
  const more = merged.length > limit;
  return {
    results: page.map(({ sortKey: _sortKey, ...result }) => result),
    nextCursor: more ? encodeCursor({ after: page[page.length - 1]!.sortKey }) : null,
  };
}

/** Whether a filter reads rows by score (a status, method or score filter, or an order) rather than in partner id order. */
const byScore = (filter: ResultFilter) =>
  Boolean(filter.status || filter.method || filter.minScore !== undefined || filter.maxScore !== undefined || filter.order);

function filterOf(filter: ResultFilter) {
  const minScore = filter.minScore ?? 0;
  const maxScore = filter.maxScore ?? 1;
  if (minScore > maxScore) throw invalidInput('minScore must not be above maxScore.');
  const matches = (result: StoredResult) =>
    (!filter.status || result.status === filter.status) &&
    (!filter.method || result.method === filter.method) &&
    result.score >= minScore &&
    result.score <= maxScore;
  return { minScore, maxScore, matches };
}

/** Chunk files a page of an unfinished job reads at most: the page holds fewer rows, with a cursor to go on. */
const CHUNKS_PER_PAGE = 4;

/**
 * An unfinished, cancelled or failed job's rows, from the files of its counted chunks: chunk by
 * chunk, each in partner id order (by score with a filter or an order). No one has decided these rows:
 * only a completed job is reviewed.
 */
export async function queryCountedChunks(
  readChunk: (chunk: number) => Promise<StoredResult[]>,
  job: Pick<MappingJob, 'status' | 'doneChunks' | 'chunkCount'>,
  filter: ResultFilter,
  limit: number,
  cursor: string | undefined,
  search: AnswerSearch = {},
): Promise<ResultsPage> {
  filterOf(filter);
  const matches = (result: StoredResult) => searchMatches(result, search, filter);
  const counted = Array.from({ length: job.chunkCount }, (_, chunk) => chunk).filter((chunk) => isReadable(job, { chunk }));
  if (filter.partnerHotelId !== undefined) {
    for (const chunk of counted) {
      const found = (await readChunk(chunk)).find((result) => result.partnerHotelId === filter.partnerHotelId);
      if (found) return { results: matches(found) ? [found] : [], nextCursor: null };
    }
    return { results: [], nextCursor: null };
  }
  const filtered = byScore(filter);
  const keyOf = (result: StoredResult) => (filtered ? resultSortKey(result.score, result.partnerHotelId) : result.partnerHotelId);
  // Partner ids ascending, sort keys descending (ascending with order=ASC): "after" is always further down the list.
  const direction = filtered && filter.order !== 'ASC' ? -1 : 1;
  const beyond = (key: string, after: string) => Buffer.compare(sortKeyBytes(key), sortKeyBytes(after)) * direction > 0;
  const position = decodeChunkCursor(cursor);
  const results: StoredResult[] = [];
  const remaining = counted.filter((chunk) => chunk >= position.chunk);
  for (const [read, chunk] of remaining.slice(0, CHUNKS_PER_PAGE).entries()) {
    const rows = (await readChunk(chunk))
      .filter(
        (result) => matches(result) && (chunk !== position.chunk || position.after === undefined || beyond(keyOf(result), position.after)),
      )
      .map((result) => ({ result, bytes: sortKeyBytes(keyOf(result)) }))
      .sort((a, b) => Buffer.compare(a.bytes, b.bytes) * direction)
      .map(({ result }) => result);
    const room = limit - results.length;
    results.push(...rows.slice(0, room));
    if (rows.length > room)
      return { results, nextCursor: encodeCursor({ chunk: String(chunk), after: keyOf(results[results.length - 1]!) }) };
    const next = remaining[read + 1];
    if (next === undefined) return { results, nextCursor: null };
    if (results.length === limit || read === CHUNKS_PER_PAGE - 1) return { results, nextCursor: encodeCursor({ chunk: String(next) }) };
  }
  return { results, nextCursor: null };
}

function decodeChunkCursor(cursor: string | undefined): { chunk: number; after?: string } {
  if (cursor === undefined) return { chunk: 0 };
  let position: Record<string, string>;
  try {
    position = decodeCursor(cursor, { partition: {}, attributes: ['chunk', 'after'] })!;
  } catch {
    position = decodeCursor(cursor, { partition: {}, attributes: ['chunk'] })!;
  }
  if (!/^\d{1,6}$/.test(position.chunk!)) throw invalidInput('cursor: is not a cursor of this list.');
  return { chunk: Number(position.chunk), after: position.after };
}

/** A sort key as resultSortKey writes it: a score from 0 to 1 with four decimals, '#', a partner id. */
const SORT_KEY = /^(0\.\d{4}|1\.0000)#./su;

function decodeSortKey(cursor: string): string {
  const after = decodeCursor(cursor, { partition: {}, attributes: ['after'] })!.after!;
  if (!SORT_KEY.test(after)) throw invalidInput('cursor: is not a cursor of this list.');
  return after;
}
