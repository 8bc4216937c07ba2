/**
 * Searching a completed job's results: a name it contains, the partner hotel's city and country,
 * its id, the reference hotel's id, a supplier the hotel has a code at; with the status, method
 * and score filters, in partner hotel id order, and the total that matched.
 *
 * The rules are `searchMatches` on a row. At scale the same rules run on search columns: beside each
 * part of a job's views (result-views.ts) the finishing stage writes the fields searched, folded, as
 * one long string per field (a line per row) with each row's status and score in typed arrays, in
 * the part's partner id order. A search reads every part's columns once per function (they are
 * kept in memory), finds text by indexOf over all rows at once, checks the rest row by row in typed
 * arrays, and lays the job's decisions over the rows they decided.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { deserialize, serialize } from 'node:v8';
import { hasCodeAtAny, toCountryCode } from '../mapping';
import { invalidInput } from '../platform/errors';
import { compareUtf8 } from '../platform/objects/block-files';
import { foldText } from '../platform/text';
import { RESULT_METHODS, RESULT_STATUSES, type ResultFilter, type StoredResult } from './job';

/** What a search asks for, normalized: each field absent when not asked. */
export interface ResultSearch {
  /** Folded (foldText): a text the partner hotel's name or the reference hotel's name contains once folded. */
  name?: string;
  /** Folded: the partner hotel's city, folded, is this. */
  city?: string;
  /** ISO 3166-1 alpha-2: the partner hotel's country is this one. */
  country?: string;
  /** The partner hotel id is this one, as the inventory gave it. */
  partnerHotelId?: string;
  /** Lower case: the row's reference hotel. */
  referenceHotelId?: string;
  /** Upper case: the reference hotel has a code at one of these suppliers. */
  suppliers?: string[];
}

/** The search parameters of a results query, as the API takes them. */
export interface ResultSearchQuery {
  name?: string;
  city?: string;
  country?: string;
  referenceHotelId?: string;
  supplier?: string;
}

/** How many suppliers one search may name. */
export const SEARCH_MAX_SUPPLIERS = 20;

/**
 * The search a query asks for, or undefined when it asks none (then the other filters read the
 * views as they are sorted); 400 for a name with nothing to search, a country no one knows, or a
 * supplier the organization is not connected to (`connected`: those it is).
 */
export function searchOf(query: ResultSearchQuery, connected: readonly string[]): Omit<ResultSearch, 'partnerHotelId'> | undefined {
  const search: Omit<ResultSearch, 'partnerHotelId'> = {};
  if (query.name !== undefined) {
    search.name = foldText(query.name);
    if (search.name === '') throw invalidInput('name: give at least one letter or digit to search for.');
  }
  if (query.city !== undefined) {
    search.city = foldText(query.city);
    if (search.city === '') throw invalidInput('city: give at least one letter or digit.');
  }
  if (query.country !== undefined) {
    search.country = toCountryCode(query.country);
    if (search.country === undefined) throw invalidInput(`country: "${query.country}" is not a country (an ISO 3166-1 code such as FR, or a name such as France).`);
  }
  if (query.referenceHotelId !== undefined) search.referenceHotelId = query.referenceHotelId.toLowerCase();
  if (query.supplier !== undefined) {
    const asked = [...new Set(query.supplier.split(',').map((code) => code.trim().toUpperCase()))];
    if (asked.some((code) => code === '') || asked.length > SEARCH_MAX_SUPPLIERS) {
      throw invalidInput(`supplier: give 1 to ${SEARCH_MAX_SUPPLIERS} supplier codes separated by commas, such as HOTELBEDS,EXPEDIA.`);
    }
    const shown = new Set(connected.map((code) => code.toUpperCase()));
    const unknown = asked.filter((code) => !shown.has(code));
    if (unknown.length > 0) throw invalidInput(`supplier: your organization is not connected to ${unknown.join(', ')}; rows show the codes of connected suppliers only.`);
    search.suppliers = asked;
  }
  return Object.keys(search).length === 0 ? undefined : search;
}

// --- the rules on one row --------------------------------------------------------------------

/** The text a name search looks in: both names folded, a tab between (a folded search holds none). */
const namesOf = (row: Pick<StoredResult, 'partnerHotelName' | 'referenceHotelName'>) => `${foldText(row.partnerHotelName)}\t${row.referenceHotelName ? foldText(row.referenceHotelName) : ''}`;
const cityOf = (row: Pick<StoredResult, 'partner'>) => foldText(row.partner?.city ?? '');
const countryOf = (row: Pick<StoredResult, 'partner'>) => toCountryCode(row.partner?.country) ?? '';
/** The suppliers the hotel has a code at, each between spaces (a supplier code holds none). */
const suppliersOf = (row: Pick<StoredResult, 'supplierCodes'>) => ` ${Object.keys(row.supplierCodes ?? {}).join(' ')} `;

/** Whether a row is one the search and the filter ask for. */
export function searchMatches(row: StoredResult, search: ResultSearch, filter: ResultFilter): boolean {
  return (
    (!filter.status || row.status === filter.status) &&
    (!filter.method || row.method === filter.method) &&
    row.score >= (filter.minScore ?? 0) &&
    row.score <= (filter.maxScore ?? 1) &&
    (search.name === undefined || namesOf(row).includes(search.name)) &&
    (search.city === undefined || cityOf(row) === search.city) &&
    (search.country === undefined || countryOf(row) === search.country) &&
    (search.partnerHotelId === undefined || row.partnerHotelId === search.partnerHotelId) &&
    (search.referenceHotelId === undefined || row.referenceHotelId === search.referenceHotelId) &&
    (search.suppliers === undefined || hasCodeAtAny(row.supplierCodes, search.suppliers))
  );
}

// --- the same rules on columns ---------------------------------------------------------------

/** A value per row, each after a line break, and a last line break: `\nv0\nv1\n`. Values hold no line break. */
export interface Lines {
  text: string;
  /** Where each row's line break is, and the last one. */
  starts: Uint32Array;
}

const STATUSES = [...RESULT_STATUSES];
const METHODS = [null, ...RESULT_METHODS];

/** A part's rows as searches read them, in the part's order. */
export interface SearchColumns {
  rows: number;
  /** Per row, its status (RESULT_STATUSES index) × 4 + its method (none, then RESULT_METHODS). */
  statusMethods: Uint8Array;
  /** Per row, its score × 10,000. */
  scores: Uint16Array;
  partnerIds: Lines;
  names: Lines;
  cities: Lines;
  countries: Lines;
  referenceIds: Lines;
  suppliers: Lines;
}

const SCORE_STEPS = 10_000;

function linesOf(values: readonly string[]): Lines {
  const starts = new Uint32Array(values.length + 1);
  let at = 0;
  values.forEach((value, row) => {
    starts[row] = at;
    at += value.length + 1;
  });
  starts[values.length] = at;
  return { text: `\n${values.join('\n')}\n`, starts };
}

/** The search columns of rows, in their order. */
export function searchColumnsOf(rows: readonly StoredResult[]): SearchColumns {
  return {
    rows: rows.length,
    statusMethods: Uint8Array.from(rows, (row) => STATUSES.indexOf(row.status) * 4 + METHODS.indexOf(row.method)),
    scores: Uint16Array.from(rows, (row) => Math.round(row.score * SCORE_STEPS)),
    partnerIds: linesOf(rows.map((row) => row.partnerHotelId)),
    names: linesOf(rows.map(namesOf)),
    cities: linesOf(rows.map(cityOf)),
    countries: linesOf(rows.map(countryOf)),
    referenceIds: linesOf(rows.map((row) => row.referenceHotelId ?? '')),
    suppliers: linesOf(rows.map(suppliersOf)),
  };
}

/** The columns as stored: their strings and arrays (line starts are found again on reading), gzip-compressed. */
export function serializeSearchColumns(columns: SearchColumns): Buffer {
  const { rows, statusMethods, scores, ...lines } = columns;
  const texts = Object.fromEntries(Object.entries(lines).map(([field, column]) => [field, column.text]));
  return gzipSync(serialize({ rows, statusMethods, scores, texts }), { level: 4 });
}

export function deserializeSearchColumns(bytes: Buffer): SearchColumns {
  const { rows, statusMethods, scores, texts } = deserialize(gunzipSync(bytes)) as { rows: number; statusMethods: Uint8Array; scores: Uint16Array; texts: Record<string, string> };
  const lines = (field: string): Lines => ({ text: texts[field]!, starts: lineStarts(texts[field]!, rows) });
  return {
    rows,
    statusMethods,
    scores,
    partnerIds: lines('partnerIds'),
    names: lines('names'),
    cities: lines('cities'),
    countries: lines('countries'),
    referenceIds: lines('referenceIds'),
    suppliers: lines('suppliers'),
  };
}

function lineStarts(text: string, rows: number): Uint32Array {
  const starts = new Uint32Array(rows + 1);
  let at = 0;
  for (let row = 0; row <= rows; row++) {
    starts[row] = at;
    at = text.indexOf('\n', at + 1);
  }
  return starts;
}

/** The row whose line holds text position `at`. */
function rowAt(lines: Lines, at: number): number {
  let [low, high] = [0, lines.starts.length - 1];
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (lines.starts[middle]! <= at) low = middle;
    else high = middle;
  }
  return low;
}

/** Marks in `into` the rows whose line contains `text` (whole line: `text` begins and ends with a line break). */
function markRowsContaining(lines: Lines, text: string, into: Uint8Array, mark: number): void {
  for (let at = lines.text.indexOf(text); at >= 0; ) {
    const row = rowAt(lines, at);
    into[row]! |= mark;
    // On to the next row: a row counts once.
    at = lines.text.indexOf(text, lines.starts[row + 1]);
  }
}

/** A row of a part: the part's number and the row's place in it. */
export interface PartRow {
  part: number;
  row: number;
}

/**
 * The rows of parts that the search and the filter ask for, in order (parts in order, each in its
 * order), from `after` on (excluded): the first `limit`, and how many there are in all. A row
 * `decided` holds (by part and row) is judged as decided, not from the columns.
 */
export function searchColumns(
  parts: readonly SearchColumns[],
  search: ResultSearch,
  filter: ResultFilter,
  decided: ReadonlyMap<string, StoredResult>,
  after: PartRow | undefined,
  limit: number,
): { rows: PartRow[]; total: number } {
  const found: PartRow[] = [];
  let total = 0;
  const [lowest, highest] = [Math.round((filter.minScore ?? 0) * SCORE_STEPS), Math.round((filter.maxScore ?? 1) * SCORE_STEPS)];
  const status = filter.status && STATUSES.indexOf(filter.status);
  const method = filter.method && METHODS.indexOf(filter.method);
  parts.forEach((columns, part) => {
    const texts = textMarks(columns, search);
    for (let row = 0; row < columns.rows; row++) {
      const held = decided.get(`${part}:${row}`);
      const matches = held
        ? searchMatches(held, search, filter)
        : (texts === undefined || texts.marks[row] === texts.all) &&
          (status === undefined || columns.statusMethods[row]! >> 2 === status) &&
          (method === undefined || (columns.statusMethods[row]! & 3) === method) &&
          columns.scores[row]! >= lowest &&
          columns.scores[row]! <= highest;
      if (!matches) continue;
      total++;
      if (found.length < limit && (after === undefined || part > after.part || (part === after.part && row > after.row))) found.push({ part, row });
    }
  });
  return { rows: found, total };
}

/** Each row's marks, a bit per text field the search asks for, and the marks of a row that has them all; undefined when it asks none. */
function textMarks(columns: SearchColumns, search: ResultSearch): { marks: Uint8Array; all: number } | undefined {
  const asked: [Lines, string[]][] = [];
  if (search.name !== undefined) asked.push([columns.names, [search.name]]);
  if (search.city !== undefined) asked.push([columns.cities, [`\n${search.city}\n`]]);
  if (search.country !== undefined) asked.push([columns.countries, [`\n${search.country}\n`]]);
  if (search.partnerHotelId !== undefined) asked.push([columns.partnerIds, [`\n${search.partnerHotelId}\n`]]);
  if (search.referenceHotelId !== undefined) asked.push([columns.referenceIds, [`\n${search.referenceHotelId}\n`]]);
  if (search.suppliers !== undefined) asked.push([columns.suppliers, search.suppliers.map((supplier) => ` ${supplier} `)]);
  if (asked.length === 0) return undefined;
  const marks = new Uint8Array(columns.rows);
  asked.forEach(([lines, texts], field) => {
    for (const text of texts) markRowsContaining(lines, text, marks, 1 << field);
  });
  return { marks, all: (1 << asked.length) - 1 };
}

/** The partner id of a row of a part. */
export const partnerIdAt = (columns: SearchColumns, row: number) => columns.partnerIds.text.slice(columns.partnerIds.starts[row]! + 1, columns.partnerIds.starts[row + 1]);

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
