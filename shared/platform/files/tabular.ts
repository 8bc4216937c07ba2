/**
 * Generic reader for tabular uploads: CSV (header row), JSONL (one object per line), JSON (an array
 * of objects), XLSX (first worksheet, header row) and Parquet (its columns). Every format yields
 * the same rows: a record of column name -> text, or a per-row error, each tagged with the line (or
 * spreadsheet row, or Parquet row from 1) a person would look at in the file. A bad row never stops
 * the read; a file that cannot be parsed at all throws a TabularParseError.
 *
 * CSV, JSONL and XLSX are streamed; JSON is a single document and is read whole, and so is Parquet
 * (its metadata is at its end), a row group at a time.
 */
import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { CsvError } from 'csv-parse';
// Types only: the library is loaded when an XLSX file is read (it takes longer to load than a large CSV to start).
import type ExcelJS from 'exceljs';

import {
  csvRecordBatches,
  CsvRecordsError,
  firstCsvRecords,
  MAX_CSV_RECORD_CHARACTERS,
  type CsvPartStart,
  type CsvRecordsOptions,
} from './csv-records';
import type { TabularFormat } from './formats';
import { inflateWithin, zipExpandedSize } from './zip-archives';
import { ParquetRefused, parquetRowGroups } from './parquet-files';

export { CsvFastPathUnavailable, type CsvLineEnd } from './csv-records';

export type TabularRecord = Record<string, string>;

export type TabularRow = { line: number; record: TabularRecord } | { line: number; error: string };

/**
 * A row as read, before it is made a record: a CSV row stays its cells beside the header (the same
 * array for every row of a file), so a reader of many rows can look its columns up once.
 */
export type TabularCellsRow = { line: number; header: readonly string[]; cells: readonly string[] };
/**
 * A JSON or JSON Lines row as parsed: the object's values as JSON typed them, for a reader that
 * checks their types; `element` is its index (from 0) in a JSON array, where many rows may share a line.
 */
export type TabularJsonRow = { line: number; element?: number; object: Record<string, unknown> };
export type TabularRawRow = TabularCellsRow | TabularJsonRow | TabularRow;

export type TabularInput = Buffer | NodeJS.ReadableStream;

/** The file as a whole cannot be read (corrupt archive, invalid JSON document, broken quoting). */
export class TabularParseError extends Error {
  override readonly name = 'TabularParseError';
  constructor(
    message: string,
    /** Line or row where the problem was found, when known. */
    readonly line?: number,
  ) {
    super(message);
  }
}

/** What a reader of workbooks and Parquet files may inflate: MAX_XLSX_EXPANDED_BYTES unless the function has memory for more. */
export interface TabularLimits {
  maxExpandedBytes?: number;
}

export function readTabular(input: TabularInput, format: TabularFormat, limits: TabularLimits = {}): AsyncIterable<TabularRow> {
  switch (format) {
    case 'csv':
      return readCsv(input);
    case 'jsonl':
      return recordsOfJsonRows(readJsonLines(input));
    case 'json':
      return recordsOfJsonRows(readJsonArray(input));
    case 'xlsx':
      return readXlsx(input, limits);
    case 'parquet':
      return recordsOfJsonRows(rowsOfBatches(readParquetBatches(input, limits)));
  }
}

/**
 * The same rows as readTabular, in batches (a CSV file's are a chunk of the file each; other
 * formats' one row each), CSV rows as cells and JSON rows as their objects: for readers of large
 * files, which pay for neither a promise nor a record object per row, and for readers that check
 * the types of JSON values.
 */
export function readTabularBatches(
  input: TabularInput,
  format: 'csv',
  csvOptions?: CsvReadOptions,
): AsyncIterable<(TabularCellsRow | TabularRow)[]>;
export function readTabularBatches(
  input: TabularInput,
  format: TabularFormat,
  csvOptions?: CsvReadOptions,
  limits?: TabularLimits,
): AsyncIterable<TabularRawRow[]>;
export function readTabularBatches(
  input: TabularInput,
  format: TabularFormat,
  csvOptions: CsvReadOptions = {},
  limits: TabularLimits = {},
): AsyncIterable<TabularRawRow[]> {
  switch (format) {
    case 'csv':
      return readCsvBatches(input, csvOptions);
    case 'jsonl':
      return batchesOfOne(readJsonLines(input));
    case 'json':
      return batchesOfOne(readJsonArray(input));
    case 'xlsx':
      return batchesOfOne(readXlsx(input, limits));
    case 'parquet':
      return readParquetBatches(input, limits);
  }
}

/** How a CSV file's header reads: what a reader of a later part of the file needs to know. */
export interface CsvHeader {
  /** Column names, as rows are keyed by them. */
  header: string[];
  delimiter: string;
  lineEnd: CsvPartStart['lineEnd'];
}

/**
 * For reading a CSV file in parts (one per thread): `part` is a part after the header, starting at
 * a record boundary, its records numbered from `firstLine`; `strict` reads only what the fast path
 * reads (throwing CsvFastPathUnavailable otherwise, so the caller can read the file whole);
 * `onEnd` gets the line after the last record and the record delimiter.
 */
export interface CsvReadOptions extends Omit<CsvRecordsOptions, 'part'> {
  part?: CsvHeader & { firstLine: number };
}

/**
 * The header of a CSV file from the head of the file (its first megabyte, say), when the fast
 * reader reads it; undefined otherwise (read such a file whole).
 */
export function csvHeaderOf(head: Buffer): CsvHeader | undefined {
  const text = head.toString('utf8', 0, Math.min(head.length, 1_000_000));
  if (!text.includes('\n')) return undefined;
  const delimiter = sniffDelimiter(text.split('\n', 1)[0] ?? '');
  const first = firstCsvRecords(head, delimiter, 64);
  const headerRecord = first?.records.find((record) => !isBlank(record.cells));
  if (!first || !headerRecord || first.lineEnd === 'unknown') return undefined;
  try {
    return { header: readHeader(headerRecord.cells, headerRecord.line), delimiter, lineEnd: first.lineEnd };
  } catch {
    return undefined;
  }
}

/** The record of a row read as cells: column name -> cell, columns without a name left out. */
export function recordOfCells(header: readonly string[], cells: readonly string[]): TabularRecord {
  const record: TabularRecord = {};
  header.forEach((name, index) => {
    if (name !== '') record[name] = cells[index] ?? '';
  });
  return record;
}

/** Each row a batch of its own. */
async function* batchesOfOne<T>(rows: AsyncIterable<T>): AsyncGenerator<T[]> {
  for await (const row of rows) yield [row];
}

async function* rowsOfBatches<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

// ---------------------------------------------------------------------------------------------
// Shared row shaping

function toReadable(input: TabularInput): Readable {
  if (Buffer.isBuffer(input)) return Readable.from([input]);
  return input instanceof Readable ? input : Readable.from(input);
}

/** The input's chunks as Buffers (a stream with an encoding set gives strings). */
async function* bufferChunks(input: TabularInput): AsyncGenerator<Buffer> {
  for await (const chunk of toReadable(input) as AsyncIterable<Buffer | string>)
    yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/** Trimmed header names; throws on a duplicate because values would silently overwrite each other. */
function readHeader(cells: readonly string[], line: number): string[] {
  const header = cells.map((cell) => cell.replace(/^\uFEFF/, '').trim());
  const seen = new Set<string>();
  for (const name of header) {
    if (name === '') continue;
    if (seen.has(name)) throw new TabularParseError(`column "${name}" appears twice in the header (line ${line})`, line);
    seen.add(name);
  }
  if (seen.size === 0) throw new TabularParseError(`the header row (line ${line}) has no column names`, line);
  return header;
}

function isBlank(cells: readonly string[]): boolean {
  return cells.every((cell) => cell.trim() === '');
}

/**
 * Checks cells against the header: missing trailing cells are a broken row in CSV (usually a
 * quoting or delimiter problem) but normal in XLSX, where empty trailing cells are not stored.
 * Returns the problem, or undefined.
 */
function cellsProblem(header: readonly string[], cells: readonly string[], allowShortRows: boolean): string | undefined {
  for (let index = header.length; index < cells.length; index++) {
    if (cells[index]!.trim() !== '') return `has ${cells.length} fields but the header has ${header.length}`;
  }
  if (!allowShortRows && cells.length < header.length) return `has ${cells.length} fields but the header has ${header.length}`;
  return undefined;
}

/** Pairs cells with the header (see cellsProblem). */
function rowFromCells(header: readonly string[], cells: readonly string[], line: number, allowShortRows: boolean): TabularRow {
  const error = cellsProblem(header, cells, allowShortRows);
  return error === undefined ? { line, record: recordOfCells(header, cells) } : { line, error };
}

/** JSON values as text: strings as-is, null as empty, nested structures as JSON. */
function stringifyValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A parsed JSON value as a row: an object (its keys trimmed), or the error of anything else. */
function rowFromJsonValue(value: unknown, line: number, element?: number): TabularJsonRow | TabularRow {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { line, error: element === undefined ? 'is not a JSON object' : `element ${element} is not a JSON object` };
  }
  // fromEntries defines each key as an own property: a "__proto__" key stays a key.
  const object: Record<string, unknown> = Object.fromEntries(Object.entries(value).map(([key, field]) => [key.trim(), field]));
  return element === undefined ? { line, object } : { line, element, object };
}

/** JSON rows as records of text (stringifyValue). */
async function* recordsOfJsonRows(rows: AsyncIterable<TabularJsonRow | TabularRow>): AsyncGenerator<TabularRow> {
  for await (const row of rows) {
    if (!('object' in row)) {
      yield row;
      continue;
    }
    const record: TabularRecord = {};
    for (const [key, value] of Object.entries(row.object)) record[key] = stringifyValue(value);
    yield { line: row.line, record };
  }
}

// ---------------------------------------------------------------------------------------------
// CSV

/** Picks the delimiter that splits the header line most often (Excel writes ';' in many locales). */
function sniffDelimiter(headerLine: string): string {
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    const count = headerLine.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/** Reads just enough of the chunks to see the header line, then replays everything. */
async function peekFirstLine(chunks: AsyncIterable<Buffer>): Promise<{ firstLine: string; replay: AsyncIterable<Buffer> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const seen: Buffer[] = [];
  let text = '';
  while (!text.includes('\n')) {
    const next = await iterator.next();
    if (next.done) break;
    seen.push(next.value);
    text += next.value.toString('utf8');
    if (text.length > 1_000_000) break;
  }
  async function* replayChunks(): AsyncGenerator<Buffer> {
    try {
      yield* seen;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      // Also when the reader stops early: the input is closed.
      await iterator.return?.();
    }
  }
  return { firstLine: text.split('\n', 1)[0] ?? '', replay: replayChunks() };
}

async function* readCsv(input: TabularInput): AsyncGenerator<TabularRow> {
  for await (const rows of readCsvBatches(input)) {
    for (const row of rows) yield 'cells' in row ? { line: row.line, record: recordOfCells(row.header, row.cells) } : row;
  }
}

async function* readCsvBatches(input: TabularInput, options: CsvReadOptions = {}): AsyncGenerator<(TabularCellsRow | TabularRow)[]> {
  const { part } = options;
  let header: readonly string[] | undefined;
  let chunks: AsyncIterable<Buffer>;
  let delimiter: string;
  if (part) {
    header = part.header;
    delimiter = part.delimiter;
    chunks = bufferChunks(input);
  } else {
    const { firstLine, replay } = await peekFirstLine(bufferChunks(input));
    chunks = replay;
    delimiter = sniffDelimiter(firstLine);
  }
  try {
    for await (const records of csvRecordBatches(chunks, delimiter, { ...options, part })) {
      const rows: (TabularCellsRow | TabularRow)[] = [];
      for (const { line, cells } of records) {
        if (isBlank(cells)) continue;
        if (!header) {
          header = readHeader(cells, line);
          continue;
        }
        const error = cellsProblem(header, cells, false);
        rows.push(error === undefined ? { line, header, cells } : { line, error });
      }
      if (rows.length > 0) yield rows;
    }
  } catch (error) {
    // csv-parse's errors only: a failed read of the input is no fault of the file.
    if (error instanceof CsvRecordsError) throw new TabularParseError(describeCsvError(error.failure, error.line), error.line);
    throw error;
  }
}

/** What went wrong in words of the file, not of the parser (its messages change between versions). */
function describeCsvError(error: CsvError, line: number): string {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return `unterminated quoted field starting at line ${line}`;
  if (error.code === 'CSV_MAX_RECORD_SIZE')
    return `the row at line ${line} is longer than ${MAX_CSV_RECORD_CHARACTERS.toLocaleString('en')} characters (is a quote left open?)`;
  if (error.code === 'CSV_INVALID_CLOSING_QUOTE') return `a closing quote is followed by other characters at line ${line}`;
  return `the CSV cannot be parsed near line ${line}`;
}

// ---------------------------------------------------------------------------------------------
// JSONL

async function* readJsonLines(input: TabularInput): AsyncGenerator<TabularJsonRow | TabularRow> {
  const lines = createInterface({ input: toReadable(input), crlfDelay: Infinity });
  let line = 0;
  for await (const rawText of lines) {
    line += 1;
    const text = line === 1 ? rawText.replace(/^\uFEFF/, '') : rawText;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { line, error: 'is not valid JSON' };
      continue;
    }
    yield rowFromJsonValue(value, line);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON array

async function readAll(input: TabularInput): Promise<string> {
  return (await readAllBytes(input)).toString('utf8');
}

async function readAllBytes(input: TabularInput): Promise<Buffer> {
  if (Buffer.isBuffer(input)) return input;
  const chunks: Buffer[] = [];
  for await (const chunk of bufferChunks(input)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Line on which each element of the top-level array starts, so row errors point at the file.
 * Only called on text JSON.parse accepted, so the scan can assume well-formed JSON.
 */
function topLevelElementLines(text: string): number[] {
  const starts: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectingElement = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\n') line += 1;
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === ' ' || char === '\t' || char === '\r' || char === '\n') continue;
    if (depth === 1 && char === ',') {
      expectingElement = true;
      continue;
    }
    if (depth === 1 && expectingElement && char !== ']') {
      starts.push(line);
      expectingElement = false;
    }
    if (char === '"') inString = true;
    else if (char === '[' || char === '{') {
      depth += 1;
      if (depth === 1) expectingElement = true;
    } else if (char === ']' || char === '}') depth -= 1;
  }
  return starts;
}

async function* readJsonArray(input: TabularInput): AsyncGenerator<TabularJsonRow | TabularRow> {
  const text = (await readAll(input)).replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new TabularParseError(
      /unexpected end/i.test((error as Error).message)
        ? 'the JSON document ends early (cut off, or a bracket left open)'
        : 'the file is not a valid JSON document',
    );
  }
  if (!Array.isArray(document)) throw new TabularParseError('a JSON file must hold an array of objects');
  const lines = topLevelElementLines(text);
  for (let index = 0; index < document.length; index++) {
    yield rowFromJsonValue(document[index], lines[index] ?? index + 1, index);
  }
}

// ---------------------------------------------------------------------------------------------
// XLSX

/** Text of a cell as a person sees it: formula results, rich text and hyperlinks flattened. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as ExcelJS.CellFormulaValue).result);
  if ('text' in value) return cellText(value.text);
  if ('error' in value) return value.error;
  return '';
}

function rowCells(row: ExcelJS.Row): string[] {
  // row.values is 1-based (index 0 is unused) and sparse.
  const values = row.values as ExcelJS.CellValue[];
  const cells: string[] = [];
  for (let column = 1; column < values.length; column++) cells.push(cellText(values[column]));
  return cells;
}

/**
 * What a workbook may hold: its parts expanded (checked against the sizes its archive declares,
 * before anything is inflated, then against the bytes they actually inflate to, which must not
 * pass what was declared) and its cells (counted as they are read). A few megabytes of archive
 * can expand to gigabytes of XML. Reading takes about twice the expanded size in memory: 64 MB
 * suits a 512 MB function; the validation worker takes more (TabularLimits).
 */
export const MAX_XLSX_EXPANDED_BYTES = 64 * 1024 * 1024;
export const MAX_XLSX_CELLS = 20_000_000;

const UNREADABLE_WORKBOOK = 'the file is not a readable XLSX workbook (a corrupt or cut-off archive, or another format)';

/**
 * A workbook given whole (an upload) is checked before it is read: the sizes its archive declares
 * within `maxExpandedBytes`, then its parts inflated, counting, and stopped as soon as they pass
 * what was declared (a cheap stop: a lying archive is refused after about what it declares). A
 * stream is a file the operator chose (the command-line tools), read as it is.
 */
function checkWorkbookSize(archive: Buffer, maxExpandedBytes: number): void {
  const declared = zipExpandedSize(archive);
  if (declared === undefined) throw new TabularParseError(UNREADABLE_WORKBOOK);
  if (declared > maxExpandedBytes) {
    throw new TabularParseError(
      `the workbook expands to ${Math.ceil(declared / 1024 / 1024)} MB, more than the ${Math.floor(maxExpandedBytes / 1024 / 1024)} MB taken here: ` +
        (maxExpandedBytes === MAX_XLSX_EXPANDED_BYTES ? 'upload it through a presigned upload, or as CSV' : 'upload it as CSV'),
    );
  }
  const { inflation } = inflateWithin(archive, declared);
  if (inflation === 'unreadable') throw new TabularParseError(UNREADABLE_WORKBOOK);
  if (inflation === 'over')
    throw new TabularParseError(
      'the file is not a readable XLSX workbook: its parts inflate to more than its archive declares (a corrupt or crafted archive)',
    );
}

async function* readXlsx(input: TabularInput, { maxExpandedBytes = MAX_XLSX_EXPANDED_BYTES }: TabularLimits): AsyncGenerator<TabularRow> {
  if (Buffer.isBuffer(input)) checkWorkbookSize(input, maxExpandedBytes);
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookReader(toReadable(input), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  let header: string[] | undefined;
  let cellCount = 0;
  try {
    for await (const worksheet of workbook) {
      for await (const row of worksheet) {
        const cells = rowCells(row);
        cellCount += cells.length;
        if (cellCount > MAX_XLSX_CELLS)
          throw new TabularParseError(
            `the workbook holds more than ${MAX_XLSX_CELLS.toLocaleString('en')} cells; upload it as CSV`,
            row.number,
          );
        if (isBlank(cells)) continue;
        if (!header) {
          header = readHeader(cells, row.number);
          continue;
        }
        yield rowFromCells(header, cells, row.number, true);
      }
      // Only the first worksheet holds the inventory; later sheets are notes or pivots.
      break;
    }
  } catch (error) {
    if (error instanceof TabularParseError) throw error;
    throw new TabularParseError(UNREADABLE_WORKBOOK);
  }
}

// ---------------------------------------------------------------------------------------------
// Parquet

/**
 * A Parquet file's rows as JSON rows (numbered from 1), a batch a row group, its values typed as
 * parquet-files.ts gives them; within the same limits as a workbook (its expansion, its cells).
 */
async function* readParquetBatches(
  input: TabularInput,
  { maxExpandedBytes = MAX_XLSX_EXPANDED_BYTES }: TabularLimits,
): AsyncGenerator<(TabularJsonRow | TabularRow)[]> {
  const groups = parquetRowGroups(await readAllBytes(input), { maxExpandedBytes, maxCells: MAX_XLSX_CELLS });
  for (;;) {
    let next: IteratorResult<{ first: number; rows: Record<string, unknown>[] }>;
    try {
      next = await groups.next();
    } catch (error) {
      throw new TabularParseError(
        error instanceof ParquetRefused
          ? error.message
          : 'the file is not a readable Parquet file (a corrupt or cut-off file, or another format)',
      );
    }
    if (next.done) return;
    const { first, rows } = next.value;
    yield rows.map((row, i) => rowFromJsonValue(row, first + i + 1));
  }
}
