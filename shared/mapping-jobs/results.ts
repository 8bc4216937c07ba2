/**
 * Reading a job's results, every filter a Query: no filter reads the job's rows in partner id
 * order; a partner id is one key lookup; status, method and score read the status-and-method
 * partitions of GSI1 (sorted by score) that the filter allows, merged best score first.
 */
import { invalidInput } from '../platform/errors';
import { decodeCursor, encodeCursor } from '../platform/table';
import { isReadable, type MappingJob, type StoredResult } from './job';
import { resultPartition, resultSortKey, resultSortKeyCeiling, sortKeyBytes, type MappingJobStore } from './store';

export const RESULT_STATUSES = ['MATCHED', 'REVIEW', 'UNMATCHED'] as const;
export const RESULT_METHODS = ['ID', 'FUZZY', 'MANUAL'] as const;

/** Every status-and-method pair a row can have (UNMATCHED rows have no method unless a person decided). */
const PARTITIONS: readonly { status: string; method: string | null }[] = [
  { status: 'MATCHED', method: 'ID' },
  { status: 'MATCHED', method: 'FUZZY' },
  { status: 'MATCHED', method: 'MANUAL' },
  { status: 'REVIEW', method: 'ID' },
  { status: 'REVIEW', method: 'FUZZY' },
  { status: 'UNMATCHED', method: null },
  { status: 'UNMATCHED', method: 'MANUAL' },
];

export interface ResultFilter {
  status?: (typeof RESULT_STATUSES)[number];
  method?: (typeof RESULT_METHODS)[number];
  minScore?: number;
  maxScore?: number;
  partnerHotelId?: string;
}

export interface ResultsPage {
  results: StoredResult[];
  nextCursor: string | null;
}

export async function queryResults(
  store: Pick<MappingJobStore, 'getResult' | 'resultsInOrder' | 'resultsOfPartition'>,
  jobId: string,
  filter: ResultFilter,
  limit: number,
  cursor: string | undefined,
): Promise<ResultsPage> {
  const minScore = filter.minScore ?? 0;
  const maxScore = filter.maxScore ?? 1;
  if (minScore > maxScore) throw invalidInput('minScore must not be above maxScore.');
  const matches = (result: StoredResult) =>
    (!filter.status || result.status === filter.status) &&
    (!filter.method || result.method === filter.method) &&
    result.score >= minScore &&
    result.score <= maxScore;

  if (filter.partnerHotelId !== undefined) {
    const result = await store.getResult(jobId, filter.partnerHotelId);
    return { results: result && matches(result) ? [result] : [], nextCursor: null };
  }
  const filtered = filter.status || filter.method || filter.minScore !== undefined || filter.maxScore !== undefined;
  if (!filtered) return store.resultsInOrder(jobId, limit, cursor);

  // Best score first across the allowed partitions; the cursor is the last sort key returned.
  const after = cursor === undefined ? undefined : decodeSortKey(cursor);
  const lowest = resultSortKey(minScore, '');
  const highest = after ?? resultSortKeyCeiling(maxScore);
  const partitions = PARTITIONS.filter(
    (partition) => (!filter.status || partition.status === filter.status) && (!filter.method || partition.method === filter.method),
  );
  // One more than a page tells whether there is a next one; one more again when the range starts
  // at the cursor's own row (BETWEEN is inclusive), which is dropped.
  const wanted = limit + 1 + (after === undefined ? 0 : 1);
  const pages = await Promise.all(
    partitions.map((partition) => store.resultsOfPartition(resultPartition(jobId, partition.status, partition.method), lowest, highest, wanted)),
  );
  // Each key's bytes made once, not once per comparison.
  const merged = pages
    .flat()
    .filter((result) => result.sortKey !== after)
    .map((result) => ({ result, bytes: sortKeyBytes(result.sortKey) }))
    .sort((a, b) => Buffer.compare(b.bytes, a.bytes))
    .map(({ result }) => result);
  const page = merged.slice(0, limit);
  const more = merged.length > limit;
  return {
    results: page.map(({ sortKey: _sortKey, ...result }) => result),
    nextCursor: more ? encodeCursor({ after: page[page.length - 1]!.sortKey }) : null,
  };
}

/** The rows of a page that the partner may read (isReadable); no further page when the job has counted nothing yet. */
export function readablePage(job: Pick<MappingJob, 'status' | 'doneChunks'>, page: ResultsPage): ResultsPage {
  const counted = job.status === 'COMPLETED' || (job.doneChunks?.size ?? 0) > 0;
  return counted ? { results: page.results.filter((result) => isReadable(job, result)), nextCursor: page.nextCursor } : { results: [], nextCursor: null };
}

function decodeSortKey(cursor: string): string {
  return decodeCursor(cursor, { partition: {}, attributes: ['after'] })!.after!;
}
