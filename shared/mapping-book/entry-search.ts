/**
 * Searching the mapping book's entries (the answer search of shared/mapping/answer-search.ts) with
 * the listing's filters (source, status, method, score), in key order (partner id, then source) or
 * by score (ties in key order), with the total that matched.
 *
 * The rule is `entryMatches` on an entry. At scale the same rule runs on search columns: each part
 * of a segment carries in its file, after its blocks, its entries' answer columns with their
 * source, status, method, score and what the generation folded of each (snapshot.ts). A search
 * reads a generation's columns once per function, hides an older segment's entries that a newer
 * one holds (worked out once per generation), lays the entries changed since (the table's items)
 * over them, marks the matching rows by indexOf over all of them at once, and reads only the page's
 * entries.
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
  type ScoreOrder,
  type SearchedAnswer,
} from '../mapping';
import { compareUtf8 } from '../platform/objects/block-files';
import { textAtLine, textLinesFrom, textLinesOf, type TextLines } from '../platform/text-lines';
import { ENTRY_METHODS, ENTRY_STATUSES, type BookEntry } from './entries';

/** What an entry is searched by. */
const searchedOf = (entry: BookEntry): SearchedAnswer => ({
  partnerHotelId: entry.partnerHotelId,
  partnerHotelName: entry.partner.name,
  partnerCity: entry.partner.city,
  partnerCountry: entry.partner.country,
  referenceHotelId: entry.referenceHotelId,
  referenceHotelName: entry.referenceHotelName,
  supplierCodes: entry.supplierCodes,
});

/** The listing's filters. */
export interface EntryFilter {
  source?: string;
  status?: BookEntry['status'];
  method?: NonNullable<BookEntry['method']> | 'NONE';
  minScore?: number;
  maxScore?: number;
}

/** Whether an entry is one the listing's filter keeps (DELETED ones only when asked for). */
export function filterMatches(entry: BookEntry, filter: EntryFilter): boolean {
  if (filter.source !== undefined && entry.source !== filter.source) return false;
  if (filter.status !== undefined ? entry.status !== filter.status : entry.status === 'DELETED') return false;
  if (filter.method !== undefined && (entry.method ?? 'NONE') !== filter.method) return false;
  if (filter.minScore !== undefined && entry.score < filter.minScore) return false;
  if (filter.maxScore !== undefined && entry.score > filter.maxScore) return false;
  return true;
}

/** Whether an entry is one the search and the filter ask for. */
export function entryMatches(entry: BookEntry, search: AnswerSearch, filter: EntryFilter): boolean {
  return filterMatches(entry, filter) && answerMatches(searchedOf(entry), search);
}

const STATUSES = [...ENTRY_STATUSES];
const METHODS = [null, ...ENTRY_METHODS];
/** Scores are kept, filtered and ordered in ten-thousandths. */
export const SCORE_STEPS = 10_000;
const stepOf = (score: number) => Math.round(score * SCORE_STEPS);

/** A place in a score order: the score in ten-thousandths, and the entry key that broke the tie. */
export interface ScoredKey {
  score: number;
  key: string;
}

/** Where a page starts: after an entry key in key order, or after a place in a score order. */
export type PageStart = { order: 'KEY'; afterKey: string | null } | { order: ScoreOrder; after: ScoredKey | null };

/** A part's entries as searches read them, in key order. */
export interface EntryColumns {
  rows: number;
  answers: AnswerColumns;
  sources: TextLines;
  /** Per entry, its status (ENTRY_STATUSES index) × 4 + its method (none, then ENTRY_METHODS). */
  statusMethods: Uint8Array;
  /** Per entry, its score × 10,000. */
  scores: Uint16Array;
  /** Per entry, the sequence of the laid-over item the generation folded of it (0: none). */
  folded: Float64Array;
}

/** The columns of entries in key order, each with what the generation folded of it. */
export function entryColumnsOf(entries: readonly (BookEntry & { folded: number })[]): EntryColumns {
  return {
    rows: entries.length,
    answers: answerColumnsOf(entries.map(searchedOf)),
    sources: textLinesOf(entries.map((entry) => entry.source)),
    statusMethods: Uint8Array.from(entries, (entry) => STATUSES.indexOf(entry.status) * 4 + METHODS.indexOf(entry.method)),
    scores: Uint16Array.from(entries, (entry) => stepOf(entry.score)),
    folded: Float64Array.from(entries, (entry) => entry.folded),
  };
}

/** The columns as a part's file holds them after its blocks, gzip-compressed. */
export function serializeEntryColumns(columns: EntryColumns): Buffer {
  const { rows, statusMethods, scores, folded } = columns;
  return gzipSync(
    serialize({ rows, statusMethods, scores, folded, sources: columns.sources.text, texts: answerColumnTexts(columns.answers) }),
    { level: 4 },
  );
}

export function deserializeEntryColumns(bytes: Buffer): EntryColumns {
  const stored = deserialize(gunzipSync(bytes)) as {
    rows: number;
    statusMethods: Uint8Array;
    scores: Uint16Array;
    folded: Float64Array;
    sources: string;
    texts: Record<string, string>;
  };
  const { rows, statusMethods, scores, folded } = stored;
  return {
    rows,
    answers: answerColumnsFrom(stored.texts, rows),
    sources: textLinesFrom(stored.sources, rows),
    statusMethods,
    scores,
    folded,
  };
}

/** The entry key of a row (partner id, then source: keys.ts entryKey). */
export const keyAt = (columns: EntryColumns, row: number) =>
  `${textAtLine(columns.answers.partnerIds, row)}\u0001${textAtLine(columns.sources, row)}`;

/** The row of a part holding an entry key, by binary search (UTF-8 order); undefined when none does. */
export function rowOfKey(columns: EntryColumns, key: string): number | undefined {
  let [low, high] = [0, columns.rows];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareUtf8(keyAt(columns, middle), key) < 0) low = middle + 1;
    else high = middle;
  }
  return low < columns.rows && keyAt(columns, low) === key ? low : undefined;
}

/** A generation's columns: each segment's parts (oldest segment first, parts in key order). */
export type GenerationColumns = readonly (readonly EntryColumns[])[];

/**
 * Which rows a newer segment hides (it holds the same key): per segment and part, a mark per row.
 * The segments' keys are sorted, so each older part is walked beside each newer one.
 */
export function hiddenRows(generation: GenerationColumns): Uint8Array[][] {
  const hidden = generation.map((parts) => parts.map((columns) => new Uint8Array(columns.rows)));
  const keysOf = (parts: readonly EntryColumns[]) =>
    parts.flatMap((columns) => Array.from({ length: columns.rows }, (_, row) => keyAt(columns, row)));
  const newer: string[][] = [];
  for (let segment = generation.length - 1; segment >= 0; segment--) {
    const parts = generation[segment]!;
    for (const keys of newer) {
      let at = 0;
      parts.forEach((columns, part) => {
        for (let row = 0; row < columns.rows; row++) {
          const key = keyAt(columns, row);
          while (at < keys.length && compareUtf8(keys[at]!, key) < 0) at++;
          if (at < keys.length && keys[at] === key) hidden[segment]![part]![row] = 1;
        }
      });
    }
    newer.push(keysOf(parts));
  }
  return hidden;
}

/** The place of a row of a generation. */
interface GenerationRow {
  segment: number;
  part: number;
  row: number;
}

/** A matching entry with its score (ten-thousandths): a row of the generation, or an entry changed since (laid over it). */
export type Found = ScoredKey & ({ row: GenerationRow } | { entry: BookEntry });

/**
 * The entries that the search and the filter ask for, after `start` (excluded) in its order: the
 * first `limit` (rows of the generation to read, or laid-over entries as they are) and how many
 * there are in all. `laidOver`: the entries changed since, with the sequence of their change.
 */
export function searchGeneration(
  generation: GenerationColumns,
  hidden: readonly (readonly Uint8Array[])[],
  laidOver: readonly { entry: BookEntry; sequence: number }[],
  search: AnswerSearch,
  filter: EntryFilter,
  start: PageStart,
  limit: number,
): { found: Found[]; total: number } {
  const afterKey = start.order === 'KEY' ? start.afterKey : null;
  // A laid-over entry newer than what the generation folded of it stands in for the generation's row: marked like a hidden one.
  const replaced = generation.map((parts) => parts.map((): Uint8Array | undefined => undefined));
  const laidFound: Found[] = [];
  const afterLaid = (key: string) => afterKey === null || compareUtf8(key, afterKey) > 0;
  for (const { entry, sequence } of laidOver) {
    const key = `${entry.partnerHotelId}\u0001${entry.source}`;
    const at = visibleRowOf(generation, hidden, key);
    if (at && sequence <= generation[at.segment]![at.part]!.folded[at.row]!) continue;
    if (at) (replaced[at.segment]![at.part] ??= new Uint8Array(generation[at.segment]![at.part]!.rows))[at.row] = 1;
    if (entryMatches(entry, search, filter)) laidFound.push({ key, score: stepOf(entry.score), entry });
  }
  laidFound.sort((a, b) => compareUtf8(a.key, b.key));
  const laidAfter = laidFound.filter((found) => afterLaid(found.key));

  const [lowest, highest] = [Math.round((filter.minScore ?? 0) * SCORE_STEPS), Math.round((filter.maxScore ?? 1) * SCORE_STEPS)];
  const status = filter.status === undefined ? undefined : STATUSES.indexOf(filter.status);
  const deleted = STATUSES.indexOf('DELETED');
  const method = filter.method === undefined ? undefined : METHODS.indexOf(filter.method === 'NONE' ? null : filter.method);
  // By score: each part's matching rows, and how many matches each score has, ahead of the cursor.
  const byScore = start.order === 'KEY' ? undefined : new ScoreTally(start.order, start.after);
  const matchingRows = generation.map((parts) => parts.map((): number[] => []));
  for (const found of laidFound) byScore?.count(found.score);
  // Each segment's matching rows, in key order; the page is the lowest keys of all of them.
  const lists: Found[][] = [laidAfter];
  let total = laidFound.length;
  generation.forEach((parts, segment) => {
    // A segment's keys are sorted: once past `afterKey`, every later row is; a page takes `limit` of each segment at most.
    const list: Found[] = [];
    let past = afterKey === null;
    parts.forEach((columns, part) => {
      const texts = answerMarks(columns.answers, columns.rows, search);
      const [hiddenHere, replacedHere] = [hidden[segment]![part]!, replaced[segment]![part]];
      for (let row = 0; row < columns.rows; row++) {
        if (hiddenHere[row] || replacedHere?.[row]) continue;
        const rowStatus = columns.statusMethods[row]! >> 2;
        if (status === undefined ? rowStatus === deleted : rowStatus !== status) continue;
        if (method !== undefined && (columns.statusMethods[row]! & 3) !== method) continue;
        if (columns.scores[row]! < lowest || columns.scores[row]! > highest) continue;
        if (texts !== undefined && texts.marks[row] !== texts.all) continue;
        if (filter.source !== undefined && textAtLine(columns.sources, row) !== filter.source) continue;
        total++;
        if (byScore) {
          if (byScore.count(columns.scores[row]!)) matchingRows[segment]![part]!.push(row);
          continue;
        }
        if (list.length === limit) continue;
        const key = keyAt(columns, row);
        past ||= compareUtf8(key, afterKey!) > 0;
        if (past) list.push({ key, score: columns.scores[row]!, row: { segment, part, row } });
      }
    });
    lists.push(list);
  });
  if (start.order === 'KEY' || !byScore) return { found: lowestKeys(lists, limit), total };
  // Only the matches of the scores the page can reach are grouped, by score: a few pages' worth, not the book.
  const reached = byScore.reachedBy(limit);
  const tied = new Map<number, { laid: Found[]; parts: { segment: number; part: number; rows: number[] }[] }>();
  const groupOf = (score: number) => {
    let group = tied.get(score);
    if (!group) tied.set(score, (group = { laid: [], parts: [] }));
    return group;
  };
  for (const found of laidFound) if (reached(found.score)) groupOf(found.score).laid.push(found);
  matchingRows.forEach((parts, segment) =>
    parts.forEach((rows, part) => {
      const scores = generation[segment]![part]!.scores;
      const byScoreHere = new Map<number, number[]>();
      for (const row of rows) {
        const score = scores[row]!;
        if (!reached(score)) continue;
        let tiedRows = byScoreHere.get(score);
        if (!tiedRows) byScoreHere.set(score, (tiedRows = []));
        tiedRows.push(row);
      }
      for (const [score, tiedRows] of byScoreHere) groupOf(score).parts.push({ segment, part, rows: tiedRows });
    }),
  );
  return { found: firstByScore(generation, tied, start.order, start.after, limit), total };
}

/** How many matches each score has from a place in a score order on (the cursor's score included). */
class ScoreTally {
  private readonly counts = new Uint32Array(SCORE_STEPS + 1);
  private readonly sign: 1 | -1;

  constructor(
    order: ScoreOrder,
    private readonly after: ScoredKey | null,
  ) {
    this.sign = order === 'ASC' ? 1 : -1;
  }

  /** Counts a match; false when its score lies before the cursor's (no page from the cursor on reaches it). */
  count(score: number): boolean {
    if (this.after !== null && this.sign * (score - this.after.score) < 0) return false;
    this.counts[score]!++;
    return true;
  }

  /**
   * Whether a score lies within the first `limit` matches from the cursor on: up to the score where
   * they reach `limit`, with that score's ties, beyond the cursor's own score's (which may lie before
   * its key).
   */
  reachedBy(limit: number): (score: number) => boolean {
    const first = this.after?.score ?? (this.sign === 1 ? 0 : SCORE_STEPS);
    const wanted = limit + (this.after === null ? 0 : this.counts[first]!);
    let last = first;
    for (let taken = 0, score = first; score >= 0 && score <= SCORE_STEPS; score += this.sign) {
      taken += this.counts[score]!;
      last = score;
      if (taken >= wanted) break;
    }
    const [low, high] = this.sign === 1 ? [first, last] : [last, first];
    return (score) => score >= low && score <= high;
  }
}

/**
 * The first `limit` of the matches in a score order (ties in key order) after a place in it, from
 * the matches grouped by score. A part's rows are in key order, so of a score's ties only the first
 * few of each part past the cursor have their keys read: a score a million rows share costs a page.
 */
function firstByScore(
  generation: GenerationColumns,
  tied: ReadonlyMap<number, { laid: readonly Found[]; parts: readonly { segment: number; part: number; rows: readonly number[] }[] }>,
  order: ScoreOrder,
  after: ScoredKey | null,
  limit: number,
): Found[] {
  const sign = order === 'ASC' ? 1 : -1;
  const found: Found[] = [];
  for (const score of [...tied.keys()].sort((a, b) => sign * (a - b))) {
    const need = limit - found.length;
    if (need <= 0) break;
    const afterKey = after !== null && score === after.score ? after.key : null;
    const past = (key: string) => afterKey === null || compareUtf8(key, afterKey) > 0;
    const { laid, parts } = tied.get(score)!;
    const lists: Found[][] = [laid.filter((each) => past(each.key)).slice(0, need)];
    for (const { segment, part, rows } of parts) {
      const columns = generation[segment]![part]!;
      // The first of the part's tied rows past the cursor's key.
      let low = 0;
      for (let high = rows.length; low < high;) {
        const middle = (low + high) >> 1;
        if (past(keyAt(columns, rows[middle]!))) high = middle;
        else low = middle + 1;
      }
      lists.push(rows.slice(low, low + need).map((row) => ({ key: keyAt(columns, row), score, row: { segment, part, row } })));
    }
    found.push(...lowestKeys(lists, need));
  }
  return found;
}

/** The row of the newest segment holding a key, unless hidden (then a newer one holds it). */
function visibleRowOf(generation: GenerationColumns, hidden: readonly (readonly Uint8Array[])[], key: string): GenerationRow | undefined {
  for (let segment = generation.length - 1; segment >= 0; segment--) {
    for (const [part, columns] of generation[segment]!.entries()) {
      const row = rowOfKey(columns, key);
      if (row !== undefined && !hidden[segment]![part]![row]) return { segment, part, row };
    }
  }
  return undefined;
}

/** The `limit` lowest keys of sorted lists, in order. */
function lowestKeys(lists: readonly Found[][], limit: number): Found[] {
  const heads = lists.map(() => 0);
  const found: Found[] = [];
  while (found.length < limit) {
    let lowest = -1;
    lists.forEach((list, k) => {
      if (heads[k]! < list.length && (lowest < 0 || compareUtf8(list[heads[k]!]!.key, lists[lowest]![heads[lowest]!]!.key) < 0)) lowest = k;
    });
    if (lowest < 0) break;
    found.push(lists[lowest]![heads[lowest]!++]!);
  }
  return found;
}
