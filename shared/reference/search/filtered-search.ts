/**
 * Filter mode and advanced search: every hotel passing the filters, in a sort order.
 *
 * Matches are first counted over the smallest set that contains them all (a filter key's hotels, a
 * name word's hotels, the hotels with coordinates, the run of hotels rated high enough, or every
 * hotel). Rows are in name order, so sorting by name then walks the narrowest name-ordered list
 * until the page is full. Sorting by rating or creation time sorts the matches directly when they
 * are few, else walks the precomputed order until the page is full. Hotels without the sort value
 * come last in both directions; ties are in name order.
 */
import { postingLength, postingList } from './columns';
import type { IndexColumns, ReferenceSearchIndex } from './index-model';
import { wordPrefixRange } from './name-search';
import { ANY_KEY, narrowestKeyList, rowPasses, summarize, type RowFilter } from './row-filter';
import { foldWords } from '../../platform/text';
import type { AdvancedSortBy, SearchPage, SortDirection } from './types';

/** Up to this many matches are sorted directly rather than found by walking a precomputed order. */
const DIRECT_SORT_MAX_CANDIDATES = 20_000;

export interface FilteredSearch {
  filter: RowFilter;
  /** Every word must begin a word of the name (advanced search's name). */
  nameWordPrefixes?: string;
  sortBy: AdvancedSortBy;
  sortDir: SortDirection;
  limit: number;
  offset: number;
  /** Overrides DIRECT_SORT_MAX_CANDIDATES (tests use it to exercise both strategies). */
  directSortMaxCandidates?: number;
}

export function searchFiltered(index: ReferenceSearchIndex, search: FilteredSearch): SearchPage {
  const { filter, sortBy, sortDir, limit, offset } = search;
  const { columns } = index;
  const nameLists = search.nameWordPrefixes === undefined ? [] : nameWordLists(index, search.nameWordPrefixes);
  const keyList = narrowestKeyList(index, filter);
  // Lists in name order that contain every match; the shortest one drives the walk.
  const orderedLists = [...nameLists, ...(keyList ? [keyList] : []), ...(filter.requireCoordinates ? [columns.geoHotels] : [])];
  const driving = orderedLists.sort((a, b) => a.length - b.length)[0];
  const matcher = new RowMatcher(index, filter, nameLists, driving);
  const candidates: RowSource = { rows: driving, count: driving ? driving.length : columns.hotelCount, fromDriving: true };

  // Count over the fewest rows that contain every match (order does not matter for counting).
  const rated = Number.isNaN(filter.minRating) ? undefined : ratedAtLeast(columns, filter.minRating);
  const source: RowSource =
    rated && rated.length < candidates.count ? { rows: rated, count: rated.length, fromDriving: false } : candidates;
  // A rating run needs no check when the minimum rating is the only constraint.
  const everySourceRowMatches = source.fromDriving ? matcher.everyCandidateMatches : matcher.constraints === 1;
  const directSortMax = search.directSortMaxCandidates ?? DIRECT_SORT_MAX_CANDIDATES;
  const collectUpTo = sortBy === 'name' ? -1 : directSortMax;
  const { total, matching } = everySourceRowMatches
    ? { total: source.count, matching: source.count <= collectUpTo ? rowsOf(source) : undefined }
    : countMatches(matcher, source, collectUpTo);

  const page = new PageCollector(offset, limit);
  if (sortBy === 'name') {
    pageInNameOrder(matcher, candidates, sortDir, page);
  } else if (matching) {
    const values = sortValues(columns, sortBy);
    matching.sort((a, b) => compareByValue(values, sortDir, a, b));
    for (let i = 0; i < matching.length && !page.isFull(); i++) page.add(matching[i]!);
  } else if (total > offset) {
    // Many matches: walk the precomputed order, skipping rows outside the driving list cheaply.
    const inDriving = driving ? membership(columns.hotelCount, driving) : undefined;
    const order = sortBy === 'rating' ? columns.ratingOrder : columns.createdOrder;
    walkOrder(order, sortValues(columns, sortBy), sortDir, matcher, inDriving, page);
  }
  return { results: page.rows.map((row) => summarize(index, row)), total };
}

/** Rows to visit: a list's rows, or every row when `rows` is undefined. */
interface RowSource {
  rows: Uint32Array | undefined;
  count: number;
  /** The rows come from the driving list (so its own membership needs no check). */
  fromDriving: boolean;
}

function rowsOf(source: RowSource): number[] {
  return source.rows ? Array.from(source.rows) : Array.from({ length: source.count }, (_, row) => row);
}

/**
 * The match test of one query. A class (rather than closures made per query) keeps call targets
 * stable, so that V8 keeps the hot loops optimised across queries.
 */
class RowMatcher {
  /** Constraints set: keys, minimum rating, coordinates, name words. */
  readonly constraints: number;
  /** No constraint, or a single one that the driving list already is. */
  readonly everyCandidateMatches: boolean;
  private readonly otherNameLists: Uint32Array[];

  constructor(
    private readonly index: ReferenceSearchIndex,
    private readonly filter: RowFilter,
    private readonly nameLists: Uint32Array[],
    driving: Uint32Array | undefined,
  ) {
    this.constraints = activeConstraints(filter) + nameLists.length;
    this.everyCandidateMatches = this.constraints === 0 || (this.constraints === 1 && driving !== undefined);
    this.otherNameLists = nameLists.filter((list) => list !== driving);
  }

  /** Full check of any row: keys, rating and coordinates, then every name list. */
  matchesRow(row: number): boolean {
    return rowPasses(this.index, this.filter, row) && inEveryList(this.nameLists, row);
  }

  /** Check of a row taken from the driving list. */
  matchesCandidate(row: number): boolean {
    return this.everyCandidateMatches || (rowPasses(this.index, this.filter, row) && inEveryList(this.otherNameLists, row));
  }

  matches(source: RowSource, row: number): boolean {
    return source.fromDriving ? this.matchesCandidate(row) : this.matchesRow(row);
  }
}

/** Counts the matching rows, keeping them while there are at most `collectUpTo`. */
function countMatches(matcher: RowMatcher, source: RowSource, collectUpTo: number): { total: number; matching?: number[] } {
  const { rows, count } = source;
  let matching: number[] | undefined = collectUpTo >= 0 ? [] : undefined;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const row = rows ? rows[i]! : i;
    if (!matcher.matches(source, row)) continue;
    total++;
    if (matching && matching.push(row) > collectUpTo) matching = undefined;
  }
  return matching ? { total, matching } : { total };
}

function pageInNameOrder(matcher: RowMatcher, candidates: RowSource, direction: SortDirection, page: PageCollector): void {
  const { rows, count } = candidates;
  for (let i = 0; i < count && !page.isFull(); i++) {
    const position = direction === 'asc' ? i : count - 1 - i;
    const row = rows ? rows[position]! : position;
    if (matcher.matchesCandidate(row)) page.add(row);
  }
}

/** Rows rated at least `minimum`: a contiguous run of the rating order, before the unrated rows. */
function ratedAtLeast(columns: IndexColumns, minimum: number): Uint32Array {
  const { ratingOrder, rating } = columns;
  const ratedEnd = firstPosition(ratingOrder.length, (i) => Number.isNaN(rating[ratingOrder[i]!]!));
  const start = firstPosition(ratedEnd, (i) => rating[ratingOrder[i]!]! >= minimum);
  return ratingOrder.subarray(start, ratedEnd);
}

/** First position in 0..length where a monotone (false..., true...) predicate holds, or length. */
function firstPosition(length: number, holds: (position: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (holds(middle)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** How many constraints the filter sets (keys, minimum rating, coordinates). */
function activeConstraints(filter: RowFilter): number {
  return (
    [filter.countryKey, filter.cityKey, filter.regionKey].filter((key) => key !== ANY_KEY).length +
    (Number.isNaN(filter.minRating) ? 0 : 1) +
    (filter.requireCoordinates ? 1 : 0)
  );
}

/** Skips `offset` matches, then keeps up to `limit`. */
class PageCollector {
  readonly rows: number[] = [];
  private skipped = 0;

  constructor(
    private readonly offset: number,
    private readonly limit: number,
  ) {}

  add(row: number): void {
    if (this.skipped < this.offset) this.skipped++;
    else if (this.rows.length < this.limit) this.rows.push(row);
  }

  isFull(): boolean {
    return this.rows.length >= this.limit;
  }
}

/** Hotels with a name word beginning with each query word (one ascending list per word). */
function nameWordLists(index: ReferenceSearchIndex, text: string): Uint32Array[] {
  const { vocabulary, wordHotels, hotelCount } = index.columns;
  return [...new Set(foldWords(text))].map((prefix) => {
    const [from, to] = wordPrefixRange(vocabulary, prefix);
    if (to - from === 1) return postingList(wordHotels, from);
    let postings = 0;
    for (let word = from; word < to; word++) postings += postingLength(wordHotels, word);
    // Many words (a short prefix): mark a bitmap and read it back in row order.
    if (postings > hotelCount / 8) {
      const marked = new Uint8Array(hotelCount);
      for (let word = from; word < to; word++) for (const row of postingList(wordHotels, word)) marked[row] = 1;
      const rows = new Uint32Array(postings);
      let length = 0;
      for (let row = 0; row < hotelCount; row++) if (marked[row] === 1) rows[length++] = row;
      return rows.subarray(0, length);
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

function inEveryList(lists: readonly Uint32Array[], row: number): boolean {
  for (let i = 0; i < lists.length; i++) if (!sortedIncludes(lists[i]!, row)) return false;
  return true;
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
  for (let i = 0; i < rows.length; i++) member[rows[i]!] = 1;
  return member;
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
 * Fills the page from a precomputed ascending order (valued rows, then missing ones). For desc,
 * runs of equal values go from the highest value down, each run in name order.
 */
function walkOrder(
  order: Uint32Array,
  values: Float64Array,
  direction: SortDirection,
  matcher: RowMatcher,
  inDriving: Uint8Array | undefined,
  page: PageCollector,
): void {
  const visit = (row: number) => {
    if ((!inDriving || inDriving[row] === 1) && matcher.matchesRow(row)) page.add(row);
    return !page.isFull();
  };
  let valued = order.length;
  while (valued > 0 && Number.isNaN(values[order[valued - 1]!]!)) valued--;
  if (direction === 'asc') {
    for (let i = 0; i < valued; i++) if (!visit(order[i]!)) return;
  } else {
    let runEnd = valued;
    while (runEnd > 0) {
      const value = values[order[runEnd - 1]!]!;
      let runStart = runEnd - 1;
      while (runStart > 0 && values[order[runStart - 1]!] === value) runStart--;
      for (let i = runStart; i < runEnd; i++) if (!visit(order[i]!)) return;
      runEnd = runStart;
    }
  }
  for (let i = valued; i < order.length; i++) if (!visit(order[i]!)) return;
}
