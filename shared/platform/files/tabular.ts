/**
 * Generic reader for tabular uploads: CSV (header row), JSONL (one object per line), JSON (an array
 * of objects) and XLSX (first worksheet, header row). Every format yields the same rows: a record of
 * column name -> text, or a per-row error, each tagged with the line (or spreadsheet row) a person
 * would look at in the file. A bad row never stops the read; a file that cannot be parsed at all
 * throws a TabularParseError.
 *
 * CSV, JSONL and XLSX are streamed; JSON is a single document and is read whole.
 */
import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { parse as parseCsv, type CsvError } from 'csv-parse';
import ExcelJS from 'exceljs';

import type { TabularFormat } from './formats';

export type TabularRecord = Record<string, string>;

export type TabularRow = { line: number; record: TabularRecord } | { line: number; error: string };

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


export function readTabular(input: TabularInput, format: TabularFormat): AsyncIterable<TabularRow> {
  switch (format) {
    case 'csv':
      return readCsv(input);
    case 'jsonl':
      return readJsonLines(input);
    case 'json':
      return readJsonArray(input);
    case 'xlsx':
      return readXlsx(input);
  }
}

// ---------------------------------------------------------------------------------------------
// Shared row shaping

function toReadable(input: TabularInput): Readable {
  if (Buffer.isBuffer(input)) return Readable.from([input]);
  return input instanceof Readable ? input : Readable.from(input);
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
 * Pairs cells with the header. Missing trailing cells are a broken row in CSV (usually a quoting or
 * delimiter problem) but normal in XLSX, where empty trailing cells are not stored.
 */
function rowFromCells(header: readonly string[], cells: readonly string[], line: number, allowShortRows: boolean): TabularRow {
  const extra = cells.slice(header.length);
  if (extra.some((cell) => cell.trim() !== '')) {
    return { line, error: `has ${cells.length} fields but the header has ${header.length}` };
  }
  if (!allowShortRows && cells.length < header.length) {
    return { line, error: `has ${cells.length} fields but the header has ${header.length}` };
  }
  const record: TabularRecord = {};
  header.forEach((name, index) => {
    if (name !== '') record[name] = cells[index] ?? '';
  });
  return { line, record };
}

/** JSON values as text: strings as-is, null as empty, nested structures as JSON. */
function stringifyValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function rowFromJsonValue(value: unknown, line: number): TabularRow {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { line, error: 'is not a JSON object' };
  }
  const record: TabularRecord = {};
  for (const [key, field] of Object.entries(value)) record[key.trim()] = stringifyValue(field);
  return { line, record };
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

/** Reads just enough of the stream to see the header line, then replays everything. */
async function peekFirstLine(source: Readable): Promise<{ firstLine: string; replay: Readable }> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const seen: Buffer[] = [];
  let text = '';
  while (!text.includes('\n')) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    seen.push(chunk);
    text += chunk.toString('utf8');
    if (text.length > 1_000_000) break;
  }
  async function* replayChunks(): AsyncGenerator<Buffer> {
    yield* seen;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    }
  }
  return { firstLine: text.split('\n', 1)[0] ?? '', replay: Readable.from(replayChunks()) };
}

async function* readCsv(input: TabularInput): AsyncGenerator<TabularRow> {
  const { firstLine, replay } = await peekFirstLine(toReadable(input));
  const parser = replay.pipe(
    parseCsv({
      delimiter: sniffDelimiter(firstLine),
      bom: true,
      info: true,
      // Rows with a wrong field count become row errors instead of stopping the file.
      relax_column_count: true,
      // A stray quote inside an unquoted field is data, not a reason to reject the file.
      relax_quotes: true,
    }),
  );
  let header: string[] | undefined;
  // Empty lines also come through as records, so the next record always starts one line later.
  let nextStartLine = 1;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = nextStartLine;
      nextStartLine = info.lines + 1;
      if (isBlank(record)) continue;
      if (!header) {
        header = readHeader(record, line);
        continue;
      }
      yield rowFromCells(header, record, line, false);
    }
  } catch (error) {
    if (error instanceof TabularParseError) throw error;
    throw new TabularParseError(describeCsvError(error as CsvError, nextStartLine), nextStartLine);
  }
}

function describeCsvError(error: CsvError, line: number): string {
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return `unterminated quoted field starting at line ${line}`;
  return `CSV cannot be parsed near line ${line}: ${error.message}`;
}

// ---------------------------------------------------------------------------------------------
// JSONL

async function* readJsonLines(input: TabularInput): AsyncGenerator<TabularRow> {
  const lines = createInterface({ input: toReadable(input), crlfDelay: Infinity });
  let line = 0;
  for await (const rawText of lines) {
    line += 1;
    const text = line === 1 ? rawText.replace(/^\uFEFF/, '') : rawText;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { line, error: `is not valid JSON (${(error as Error).message})` };
      continue;
    }
    yield rowFromJsonValue(value, line);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON array

async function readAll(input: TabularInput): Promise<string> {
  if (Buffer.isBuffer(input)) return input.toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of toReadable(input)) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
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

async function* readJsonArray(input: TabularInput): AsyncGenerator<TabularRow> {
  const text = (await readAll(input)).replace(/^\uFEFF/, '');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new TabularParseError(`invalid JSON document: ${(error as Error).message}`);
  }
  if (!Array.isArray(document)) throw new TabularParseError('a JSON file must hold an array of objects');
  const lines = topLevelElementLines(text);
  for (let index = 0; index < document.length; index++) {
    yield rowFromJsonValue(document[index], lines[index] ?? index + 1);
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
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
  if ('text' in value) return cellText(value.text as ExcelJS.CellValue);
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

async function* readXlsx(input: TabularInput): AsyncGenerator<TabularRow> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(toReadable(input), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  let header: string[] | undefined;
  try {
    for await (const worksheet of workbook) {
      for await (const row of worksheet) {
        const cells = rowCells(row);
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
    throw new TabularParseError(`not a readable XLSX workbook: ${(error as Error).message}`);
  }
}
