/**
 * Filter mode and advanced search: every hotel passing the filters, in a sort order.
 *
 * Rows are already in name order, so sorting by name walks the narrowest candidate list (a filter
 * key's hotels, a name word's hotels, or all hotels). Sorting by rating or creation time walks the
 * precomputed order for broad candidate sets and sorts small ones directly. Hotels without the
 * sort value come last in both directions; ties are in name order.
 */
import { postingLength, postingList } from './columns';
import type { IndexColumns, ReferenceSearchIndex } from './index-model';
import { wordPrefixRange } from './name-search';
import { narrowestKeyList, rowPasses, summarize, type RowFilter } from './row-filter';
import { distinctTokens } from './text';
import type { AdvancedSortBy, SearchPage, SortDirection } from './types';

/** Candidate sets up to this size are sorted directly rather than by walking a whole order. */
const DIRECT_SORT_MAX_CANDIDATES = 20_000;

export interface FilteredSearch {
  filter: RowFilter;
  /** Every word must begin a word of the name (advanced search's name). */
  nameWordPrefixes?: string;
  sortBy: AdvancedSortBy;
  sortDir: SortDirection;
  limit: number;
  offset: number;
}

export function searchFiltered(index: ReferenceSearchIndex, search: FilteredSearch): SearchPage {
  const nameLists = search.nameWordPrefixes === undefined ? [] : nameWordLists(index, search.nameWordPrefixes);
  const keyList = narrowestKeyList(index, search.filter);
  const lists = keyList ? [...nameLists, keyList] : nameLists;
  lists.sort((a, b) => a.length - b.length);
  const [driving, ...others] = lists;
  const passes = (row: number) => rowPasses(index, search.filter, row) && others.every((list) => sortedIncludes(list, row));

  const page = new PageCollector(search.offset, search.limit);
  if (search.sortBy === 'name') {
    walkRows(driving, index.columns.hotelCount, search.sortDir, (row) => passes(row) && page.add(row));
  } else if (driving && driving.length <= DIRECT_SORT_MAX_CANDIDATES) {
    const values = sortValues(index.columns, search.sortBy);
    const rows = Array.from(driving).filter(passes);
    rows.sort((a, b) => compareByValue(values, search.sortDir, a, b));
    rows.forEach((row) => page.add(row));
  } else {
    const inDriving = driving ? membership(index.columns.hotelCount, driving) : undefined;
    const order = search.sortBy === 'rating' ? index.columns.ratingOrder : index.columns.createdOrder;
    walkOrder(order, sortValues(index.columns, search.sortBy), search.sortDir, (row) => {
      if ((!inDriving || inDriving[row] === 1) && passes(row)) page.add(row);
    });
  }
  return { results: page.rows.map((row) => summarize(index, row)), total: page.total };
}

/** Counts every match and keeps those inside the page. */
class PageCollector {
  readonly rows: number[] = [];
  total = 0;

  constructor(
    private readonly offset: number,
    private readonly limit: number,
  ) {}

  add(row: number): boolean {
    if (this.total >= this.offset && this.rows.length < this.limit) this.rows.push(row);
    this.total++;
    return true;
  }
}

/** Hotels with a name word beginning with each query word (one ascending list per word). */
function nameWordLists(index: ReferenceSearchIndex, text: string): Uint32Array[] {
  const { vocabulary, wordHotels, hotelCount } = index.columns;
  return distinctTokens(text).map((prefix) => {
    const [from, to] = wordPrefixRange(vocabulary, prefix);
    if (to - from === 1) return postingList(wordHotels, from);
    let postings = 0;
    for (let word = from; word < to; word++) postings += postingLength(wordHotels, word);
    // Many words (a short prefix): mark a bitmap and read it back in row order.
    if (postings > hotelCount / 8) {
      const marked = new Uint8Array(hotelCount);
      for (let word = from; word < to; word++) for (const row of postingList(wordHotels, word)) marked[row] = 1;
      const rows: number[] = [];
      marked.forEach((flag, row) => flag && rows.push(row));
      return Uint32Array.from(rows);
    }
    const rows = new Uint32Array(postings);
    let length = 0;
    for (let word = from; word < to; word++) {
      rows.set(postingList(wordHotels, word), length);
      length += postingLength(wordHotels, word);
    }
    rows.sort();
    return rows.filter((row, i) => i === 0 || row !== rows[i - 1]);
  });
}

function sortedIncludes(sorted: Uint32Array, row: number): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < row) low = middle + 1;
    else high = middle;
  }
  return sorted[low] === row;
}

function membership(hotelCount: number, rows: Uint32Array): Uint8Array {
  const member = new Uint8Array(hotelCount);
  for (const row of rows) member[row] = 1;
  return member;
}

/** Rows of the list (or all rows) in name order, or reversed for desc. */
function walkRows(list: Uint32Array | undefined, hotelCount: number, direction: SortDirection, visit: (row: number) => void): void {
  const length = list ? list.length : hotelCount;
  if (direction === 'asc') for (let i = 0; i < length; i++) visit(list ? list[i]! : i);
  else for (let i = length - 1; i >= 0; i--) visit(list ? list[i]! : i);
}

function sortValues(columns: IndexColumns, sortBy: Exclude<AdvancedSortBy, 'name'>): Float64Array {
  return sortBy === 'rating' ? columns.rating : columns.createdAt;
}

/** By value in the direction, missing values (NaN) last, then by row (name). */
function compareByValue(values: Float64Array, direction: SortDirection, a: number, b: number): number {
  const valueA = values[a]!;
  const valueB = values[b]!;
  const missingA = Number.isNaN(valueA);
  const missingB = Number.isNaN(valueB);
  if (missingA || missingB) return missingA === missingB ? a - b : missingA ? 1 : -1;
  return (direction === 'asc' ? valueA - valueB : valueB - valueA) || a - b;
}

/**
 * Visits a precomputed ascending order (valued rows, then missing ones). For desc, runs of equal
 * values are visited from the highest value down but each run stays in name order.
 */
function walkOrder(order: Uint32Array, values: Float64Array, direction: SortDirection, visit: (row: number) => void): void {
  let valued = order.length;
  while (valued > 0 && Number.isNaN(values[order[valued - 1]!]!)) valued--;
  if (direction === 'asc') {
    for (let i = 0; i < valued; i++) visit(order[i]!);
  } else {
    let runEnd = valued;
    while (runEnd > 0) {
      const value = values[order[runEnd - 1]!]!;
      let runStart = runEnd - 1;
      while (runStart > 0 && values[order[runStart - 1]!] === value) runStart--;
      for (let i = runStart; i < runEnd; i++) visit(order[i]!);
      runEnd = runStart;
    }
  }
  for (let i = valued; i < order.length; i++) visit(order[i]!);
}
