/**
 * Searching a completed job's results (the answer search of shared/mapping/answer-search.ts) with
 * the status, method and score filters, in partner hotel id order, and the total that matched.
 *
 * The rule is `searchMatches` on a row. At scale the same rule runs on search columns: beside each
 * part of a job's views (result-views.ts) the finishing stage writes the part's answer columns with
 * each row's status, method and score in typed arrays, in the part's partner id order. A search
 * reads every part's columns once per function (they are kept in memory), marks the rows by indexOf
 * over all of them at once, checks the rest row by row, and lays the job's decisions over the rows
 * they decided.
 */
import { deserialize, serialize } from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  answerColumnsFrom,
  answerColumnsOf,
  answerColumnTexts,
  answerMarks,
  answerMatches,
  type AnswerColumns,
  type AnswerSearch,
  type SearchedAnswer,
} from '../mapping';
import { compareUtf8 } from '../platform/objects/block-files';
import { textAtLine } from '../platform/text-lines';
import { RESULT_METHODS, RESULT_STATUSES, type ResultFilter, type StoredResult } from './job';

/** What a row is searched by. */
const searchedOf = (row: StoredResult): SearchedAnswer => ({
  ...row,
  partnerCity: row.partner?.city,
  partnerCountry: row.partner?.country,
});

/** Whether a row is one the search and the filter ask for. */
export function searchMatches(row: StoredResult, search: AnswerSearch, filter: ResultFilter): boolean {
  return (
    (!filter.status || row.status === filter.status) &&
    (!filter.method || row.method === filter.method) &&
    row.score >= (filter.minScore ?? 0) &&
    row.score <= (filter.maxScore ?? 1) &&
    answerMatches(searchedOf(row), search)
  );
}

const STATUSES = [...RESULT_STATUSES];
const METHODS = [null, ...RESULT_METHODS];
const SCORE_STEPS = 10_000;

/** A part's rows as searches read them, in the part's order. */
export interface SearchColumns {
  rows: number;
  answers: AnswerColumns;
  /** Per row, its status (RESULT_STATUSES index) × 4 + its method (none, then RESULT_METHODS). */
  statusMethods: Uint8Array;
  /** Per row, its score × 10,000. */
  scores: Uint16Array;
}

/** The search columns of rows, in their order. */
export function searchColumnsOf(rows: readonly StoredResult[]): SearchColumns {
  return {
    rows: rows.length,
    answers: answerColumnsOf(rows.map(searchedOf)),
    statusMethods: Uint8Array.from(rows, (row) => STATUSES.indexOf(row.status) * 4 + METHODS.indexOf(row.method)),
    scores: Uint16Array.from(rows, (row) => Math.round(row.score * SCORE_STEPS)),
  };
}

/** The columns as stored: their texts and arrays, gzip-compressed. */
export function serializeSearchColumns(columns: SearchColumns): Buffer {
  const { rows, statusMethods, scores } = columns;
  return gzipSync(serialize({ rows, statusMethods, scores, texts: answerColumnTexts(columns.answers) }), { level: 4 });
}

export function deserializeSearchColumns(bytes: Buffer): SearchColumns {
  const { rows, statusMethods, scores, texts } = deserialize(gunzipSync(bytes)) as {
    rows: number;
    statusMethods: Uint8Array;
    scores: Uint16Array;
    texts: Record<string, string>;
  };
  return { rows, answers: answerColumnsFrom(texts, rows), statusMethods, scores };
}

/** A row of a part: the part's number and the row's place in it. */
export interface PartRow {
  part: number;
  row: number;
}

/**
 * The rows of parts that the search and the filter ask for, in order (parts in order, each in its
 * order), from `after` on (excluded): the first `limit`, and how many there are in all. A row
 * `decided` holds (per part, by row) is judged as decided, not from the columns.
 */
export function searchColumns(
  parts: readonly SearchColumns[],
  search: AnswerSearch,
  filter: ResultFilter,
  decided: readonly ReadonlyMap<number, StoredResult>[],
  after: PartRow | undefined,
  limit: number,
): { rows: PartRow[]; total: number } {
  const found: PartRow[] = [];
  let total = 0;
  const [lowest, highest] = [Math.round((filter.minScore ?? 0) * SCORE_STEPS), Math.round((filter.maxScore ?? 1) * SCORE_STEPS)];
  const status = filter.status && STATUSES.indexOf(filter.status);
  const method = filter.method && METHODS.indexOf(filter.method);
  parts.forEach((columns, part) => {
    const texts = answerMarks(columns.answers, columns.rows, search);
    const decidedHere = decided[part]!;
    for (let row = 0; row < columns.rows; row++) {
      const held = decidedHere.size > 0 ? decidedHere.get(row) : undefined;
      const matches = held
        ? searchMatches(held, search, filter)
        : (texts === undefined || texts.marks[row] === texts.all) &&
          (status === undefined || columns.statusMethods[row]! >> 2 === status) &&
          (method === undefined || (columns.statusMethods[row]! & 3) === method) &&
          columns.scores[row]! >= lowest &&
          columns.scores[row]! <= highest;
      if (!matches) continue;
      total++;
      if (found.length < limit && (after === undefined || part > after.part || (part === after.part && row > after.row)))
        found.push({ part, row });
    }
  });
  return { rows: found, total };
}

/** The partner id of a row of a part. */
export const partnerIdAt = (columns: SearchColumns, row: number) => textAtLine(columns.answers.partnerIds, row);

/** The row of a part holding a partner id, by binary search in the part's order (UTF-8 bytes); undefined when none does. */
export function rowOfPartnerId(columns: SearchColumns, partnerHotelId: string): number | undefined {
  let [low, high] = [0, columns.rows];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareUtf8(partnerIdAt(columns, middle), partnerHotelId) < 0) low = middle + 1;
    else high = middle;
  }
  return low < columns.rows && partnerIdAt(columns, low) === partnerHotelId ? low : undefined;
}
