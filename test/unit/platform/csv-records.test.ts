/**
 * The fast CSV record reader (shared/platform/files/csv-records.ts), through readTabular and
 * readTabularBatches: it must read every file as csv-parse read it with the options tabular.ts used
 * before (the same rows, cells, line numbers and errors), whole or in chunks, and a file read in
 * two parts (as `npm run map` reads a large reference file on two threads) as the whole file.
 */
import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { parse as parseCsv, type CsvError } from 'csv-parse';
import fc from 'fast-check';
import {
  CsvFastPathUnavailable,
  csvHeaderOf,
  readTabular,
  readTabularBatches,
  recordOfCells,
  TabularParseError,
  type CsvLineEnd,
  type CsvReadOptions,
  type TabularCellsRow,
  type TabularRow,
} from '../../../shared/platform/files/tabular';

/** Fixed, so that CI runs the same files every time; FC_SEED=<n> explores others. */
const SEED = Number(process.env.FC_SEED ?? 20_240_611);

/** A row, or the error that ended the read (with the line it names). */
type Outcome = TabularRow | { line: number; thrown: string };

// ---------------------------------------------------------------------------------------------
// The reader as it was: csv-parse over the whole file, records paired with the header.

function sniffDelimiter(headerLine: string): string {
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    const count = headerLine.split(candidate).length - 1;
    if (count > bestCount) [best, bestCount] = [candidate, count];
  }
  return best;
}

/** readTabular(…, 'csv') before the fast reader (csv-parse with bom, info, relax_column_count, relax_quotes). */
async function csvParseRows(chunks: readonly Buffer[]): Promise<Outcome[]> {
  const rows: Outcome[] = [];
  const delimiter = sniffDelimiter(Buffer.concat(chunks).toString('utf8').split('\n', 1)[0] ?? '');
  const parser = Readable.from(chunks).pipe(parseCsv({ delimiter, bom: true, info: true, relax_column_count: true, relax_quotes: true }));
  let header: string[] | undefined;
  let nextStartLine = 1;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = nextStartLine;
      nextStartLine = info.lines + 1;
      if (record.every((cell) => cell.trim() === '')) continue;
      if (!header) {
        header = record.map((cell) => cell.replace(/^\uFEFF/, '').trim());
        const names = header.filter((name) => name !== '');
        const repeated = names.find((name, index) => names.indexOf(name) !== index);
        if (repeated !== undefined) return [...rows, { line, thrown: `column "${repeated}" appears twice in the header (line ${line})` }];
        if (names.length === 0) return [...rows, { line, thrown: `the header row (line ${line}) has no column names` }];
        continue;
      }
      if (record.slice(header.length).some((cell) => cell.trim() !== '') || record.length < header.length) {
        rows.push({ line, error: `has ${record.length} fields but the header has ${header.length}` });
        continue;
      }
      const fields: Record<string, string> = {};
      header.forEach((name, index) => {
        if (name !== '') fields[name] = record[index] ?? '';
      });
      rows.push({ line, record: fields });
    }
  } catch (error) {
    const csvError = error as CsvError;
    const message =
      csvError.code === 'CSV_QUOTE_NOT_CLOSED'
        ? `unterminated quoted field starting at line ${nextStartLine}`
        : csvError.code === 'CSV_INVALID_CLOSING_QUOTE'
          ? `a closing quote is followed by other characters at line ${nextStartLine}`
          : `the CSV cannot be parsed near line ${nextStartLine}`;
    rows.push({ line: nextStartLine, thrown: message });
  }
  return rows;
}

function isCsvParseFailure(outcome: Outcome | undefined): boolean {
  return (
    outcome !== undefined &&
    'thrown' in outcome &&
    /^(unterminated quoted field|a closing quote is followed|the CSV cannot be parsed)/.test(outcome.thrown)
  );
}

// ---------------------------------------------------------------------------------------------
// The reader as it is.

function streamOf(chunks: readonly Buffer[]): Readable {
  return Readable.from(chunks);
}

async function readRows(chunks: readonly Buffer[]): Promise<Outcome[]> {
  const rows: Outcome[] = [];
  try {
    for await (const row of readTabular(streamOf(chunks), 'csv')) rows.push(row);
  } catch (error) {
    if (!(error instanceof TabularParseError)) throw error;
    rows.push({ line: error.line ?? 0, thrown: error.message });
  }
  return rows;
}

function asRow(row: TabularCellsRow | TabularRow): TabularRow {
  return 'cells' in row ? { line: row.line, record: recordOfCells(row.header, row.cells) } : row;
}

async function readBatches(chunks: readonly Buffer[], options?: CsvReadOptions): Promise<TabularRow[]> {
  const rows: TabularRow[] = [];
  for await (const batch of readTabularBatches(streamOf(chunks), 'csv', options)) for (const row of batch) rows.push(asRow(row));
  return rows;
}

/**
 * The same outcome, but for one allowance: where csv-parse fails, the old reader lost the records
 * it had parsed but not handed over yet (its stream is destroyed with them) and named the first lost
 * record's line. The fast reader has handed those over: its rows begin with the old reader's and end
 * in a failure too, on that line or a later one.
 */
function sameOutcome(expected: Outcome[], actual: Outcome[]): boolean {
  if (isDeepStrictEqual(expected, actual)) return true;
  const last = expected.at(-1);
  const lastActual = actual.at(-1);
  if (!isCsvParseFailure(last) || lastActual === undefined || !('thrown' in lastActual)) return false;
  return lastActual.line >= last!.line && isDeepStrictEqual(expected.slice(0, -1), actual.slice(0, expected.length - 1));
}

// ---------------------------------------------------------------------------------------------
// Random files.

/** Placeholder for the file's delimiter in generated fields. */
const DELIMITER = '\u0001';

/** Any mix of delimiters, quotes, line breaks, BOMs, multi-byte and broken UTF-8. */
const noiseFile = fc
  .tuple(
    fc.constantFrom<number[]>([], [], [], [], [], [], [], [], [0xef, 0xbb, 0xbf], [0xff, 0xfe]),
    fc.array(
      fc.oneof(
        {
          weight: 30,
          arbitrary: fc
            .constantFrom('a', 'é', '中', ',', ',', ';', '"', '""', '\n', '\n', '\r\n', '\r', ' ', '\t', '|', '\0')
            .map((text) => Buffer.from(text)),
        },
        { weight: 1, arbitrary: fc.constantFrom(0xc3, 0xff, 0xe2, 0x82).map((byte) => Buffer.from([byte])) },
      ),
      { maxLength: 80 },
    ),
  )
  .map(([bom, parts]) => Buffer.concat([Buffer.from(bom), ...parts]));

const unquotedField = fc.array(fc.constantFrom('a', 'b', 'é', ' ', '中', 'Z', '1', 'x"y'), { maxLength: 6 }).map((parts) => parts.join(''));

const quotedField = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 30, arbitrary: fc.constantFrom('a', '""', DELIMITER, '\n', 'é', ' ') },
        { weight: 1, arbitrary: fc.constantFrom('\r\n', '\r') },
      ),
      { maxLength: 6 },
    ),
    // Mostly well formed; sometimes text after the closing quote, or no closing quote.
    fc.oneof(
      { weight: 30, arbitrary: fc.constant('"') },
      { weight: 1, arbitrary: fc.constant('"x') },
      { weight: 1, arbitrary: fc.constant('') },
    ),
  )
  .map(([inner, close]) => `"${inner.join('')}${close}`);

/** Shaped like an inventory, with some of everything the fast path hands to csv-parse. */
const shapedFile = fc
  .record({
    lineEnd: fc.constantFrom('\n', '\n', '\r\n'),
    delimiter: fc.constantFrom(',', ',', ';', '\t', '|'),
    header: fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
    rows: fc.array(
      fc.oneof(
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 9, arbitrary: fc.array(fc.oneof(unquotedField, quotedField), { maxLength: 7 }) },
      ),
      { maxLength: 8 },
    ),
    fullRows: fc.boolean(),
    endsWithLineEnd: fc.boolean(),
    bom: fc.constantFrom(false, false, false, false, true),
    mixedLineEnds: fc.constantFrom(false, false, false, false, true),
  })
  .map(({ lineEnd, delimiter, header, rows, fullRows, endsWithLineEnd, bom, mixedLineEnds }) => {
    const lines = [header.map((quoted, i) => (quoted ? `"c${i}"` : `c${i}`)).join(delimiter)];
    for (const row of rows) {
      // Most rows have as many fields as the header (padded with empty fields).
      const fields = row === undefined ? [] : fullRows ? [...row, ...Array<string>(header.length).fill('')].slice(0, header.length) : row;
      lines.push(fields.join(DELIMITER).replaceAll(DELIMITER, delimiter));
    }
    let text = lines.join(lineEnd) + (endsWithLineEnd ? lineEnd : '');
    if (bom) text = `\uFEFF${text}`;
    if (mixedLineEnds) text = text.replace(/\n/, '\r\n');
    return Buffer.from(text);
  });

const csvFile = fc.oneof({ weight: 3, arbitrary: noiseFile }, { weight: 7, arbitrary: shapedFile });

/** How a file arrives: whole (undefined) or in pieces of these sizes, over and over. */
const chunking = fc.option(
  fc.array(fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 40 })), { minLength: 1, maxLength: 20 }),
  { freq: 3 },
);

function chunked(input: Buffer, sizes: readonly number[] | null): Buffer[] {
  if (sizes === null) return [input];
  const chunks: Buffer[] = [];
  for (let at = 0, k = 0; at < input.length; k++) {
    const size = sizes[k % sizes.length]!;
    chunks.push(input.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

function show(input: Buffer): string {
  return JSON.stringify(input.toString('latin1'));
}

async function assertReadsAsCsvParse(input: Buffer, sizes: readonly number[] | null = null): Promise<Outcome[]> {
  const chunks = chunked(input, sizes);
  const [expected, actual] = [await csvParseRows(chunks), await readRows(chunks)];
  assert.ok(
    sameOutcome(expected, actual),
    `${show(input)}\n  csv-parse ${JSON.stringify(expected)}\n  fast      ${JSON.stringify(actual)}`,
  );
  return actual;
}

// ---------------------------------------------------------------------------------------------

describe('fast CSV reader: hand-shaped files', () => {
  /** Reads `csv` whole and one byte at a time: both must give `expected`, as csv-parse does. */
  async function reads(csv: string | Buffer, expected: Outcome[]): Promise<void> {
    const input = Buffer.isBuffer(csv) ? csv : Buffer.from(csv);
    assert.deepEqual(await assertReadsAsCsvParse(input), expected);
    assert.deepEqual(await assertReadsAsCsvParse(input, [1]), expected);
  }

  it('gives a quoted field its line break, and the next row the line after it', async () => {
    await reads('id,name,city\n1,"Two\nLines",Rome\n2,B,C\n', [
      { line: 2, record: { id: '1', name: 'Two\nLines', city: 'Rome' } },
      { line: 4, record: { id: '2', name: 'B', city: 'C' } },
    ]);
  });

  it('reads "" as a quote inside a quoted field, delimiters in it as text', async () => {
    await reads('id,name\n1,"say ""hi"", ok"\n2,"""",\n', [
      { line: 2, record: { id: '1', name: 'say "hi", ok' } },
      { line: 3, record: { id: '2', name: '"' } },
    ]);
  });

  it('reads CRLF files, blank lines counted', async () => {
    await reads('id,name\r\n1,a\r\n\r\n2,b', [
      { line: 2, record: { id: '1', name: 'a' } },
      { line: 4, record: { id: '2', name: 'b' } },
    ]);
  });

  it('keeps csv-parse line numbers where a CRLF inside quotes counts as two lines', async () => {
    await reads('id,name\r\n1,"a\r\nb"\r\n2,c\r\n', [
      { line: 2, record: { id: '1', name: 'a\r\nb' } },
      { line: 5, record: { id: '2', name: 'c' } },
    ]);
  });

  it('keeps a CR that is not part of the line end in the field (and csv-parse counts it as a line)', async () => {
    await reads('id,name\n1,A\r\n2,B\n', [
      { line: 2, record: { id: '1', name: 'A\r' } },
      { line: 4, record: { id: '2', name: 'B' } },
    ]);
    await reads('id,name\n1,A\rB\n2,C\n', [
      { line: 2, record: { id: '1', name: 'A\rB' } },
      { line: 4, record: { id: '2', name: 'C' } },
    ]);
  });

  it('reads old Mac line ends (CR only)', async () => {
    await reads('id,name\r1,A\r2,B\r', [
      { line: 2, record: { id: '1', name: 'A' } },
      { line: 3, record: { id: '2', name: 'B' } },
    ]);
  });

  it('strips a UTF-8 BOM', async () => {
    await reads('\uFEFFid,name\n1,A\n', [{ line: 2, record: { id: '1', name: 'A' } }]);
  });

  it('keeps a stray quote inside an unquoted field as text', async () => {
    await reads('id,name,x\n1,ab"c,d\n', [{ line: 2, record: { id: '1', name: 'ab"c', x: 'd' } }]);
  });

  it('keeps text after a closing quote, quotes and all (relax_quotes)', async () => {
    await reads('id,name,x\n1,"ab"c,d\n2,e,f\n', [
      { line: 2, record: { id: '1', name: '"ab"c', x: 'd' } },
      { line: 3, record: { id: '2', name: 'e', x: 'f' } },
    ]);
  });

  it('throws on an unterminated quote, naming the line it starts on, after the rows before it', async () => {
    await reads('id,name\n1,ok\n2,"never closed\n3,x\n', [
      { line: 2, record: { id: '1', name: 'ok' } },
      { line: 3, thrown: 'unterminated quoted field starting at line 3' },
    ]);
  });

  it('skips blank and whitespace-only lines, counting them', async () => {
    await reads('id,name\n\n  ,  \n1,A\n\n\n2,B\n', [
      { line: 4, record: { id: '1', name: 'A' } },
      { line: 7, record: { id: '2', name: 'B' } },
    ]);
  });

  it('reads ; and tab delimited files, the delimiter quoted inside a field', async () => {
    await reads('id;name;city\n1;"a;b";c\n', [{ line: 2, record: { id: '1', name: 'a;b', city: 'c' } }]);
    await reads('id\tname\n1\t"x\ty"\n', [{ line: 2, record: { id: '1', name: 'x\ty' } }]);
  });

  it('reports a wrong field count as a row error, a trailing empty field as none', async () => {
    await reads('id,name\n1,A,extra\n2\n3,C,\n', [
      { line: 2, error: 'has 3 fields but the header has 2' },
      { line: 3, error: 'has 1 fields but the header has 2' },
      { line: 4, record: { id: '3', name: 'C' } },
    ]);
  });

  it('reads a multi-byte character split between chunks', async () => {
    await reads('id,name\n1,Zürich 中\n', [{ line: 2, record: { id: '1', name: 'Zürich 中' } }]);
  });

  it('reads nothing from an empty file or a header alone, and throws on a repeated column', async () => {
    await reads('', []);
    await reads('id,name\n', []);
    await reads('id,id\n1,2\n', [{ line: 1, thrown: 'column "id" appears twice in the header (line 1)' }]);
  });

  it('hands a UTF-16 file to csv-parse', async () => {
    const input = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('id,name\n1,A\n', 'utf16le')]);
    await assertReadsAsCsvParse(input);
    await assertReadsAsCsvParse(input, [3]);
  });

  it('reads a quoted field longer than a megabyte, and an unterminated quote with a megabyte after it', async () => {
    // Past the megabyte the fast reader waits for, csv-parse reads on from the record's start.
    const long = 'x'.repeat(1_100_000);
    const sizes = [65_536];
    const rows = await assertReadsAsCsvParse(Buffer.from(`id,name\n1,A\n2,"${long}\nend"\n3,C\n`), sizes);
    assert.deepEqual(rows, [
      { line: 2, record: { id: '1', name: 'A' } },
      { line: 3, record: { id: '2', name: `${long}\nend` } },
      { line: 5, record: { id: '3', name: 'C' } },
    ]);
    const broken = await readRows(chunked(Buffer.from(`id,name\n1,A\n2,"${long}\n3,C\n`), sizes));
    assert.deepEqual(broken, [
      { line: 2, record: { id: '1', name: 'A' } },
      { line: 3, thrown: 'unterminated quoted field starting at line 3' },
    ]);
  });
});

describe('fast CSV reader: random files', () => {
  it('reads every file as csv-parse does, whole or in chunks', async () => {
    await fc.assert(
      fc.asyncProperty(csvFile, chunking, async (input, sizes) => {
        await assertReadsAsCsvParse(input, sizes);
      }),
      { seed: SEED, numRuns: 1500 },
    );
  });

  it('hands csv-parse records over in batches too', async () => {
    // Old Mac line ends: csv-parse reads the whole file.
    const csv = ['id,name', ...Array.from({ length: 600 }, (_, i) => `${i},n${i}`)].join('\r');
    const batches: (TabularCellsRow | TabularRow)[][] = [];
    for await (const batch of readTabularBatches(Buffer.from(csv), 'csv')) batches.push(batch);
    assert.ok(batches.length > 1 && batches.length < 10, `${batches.length} batches`);
    assert.deepEqual(batches.flat().map(asRow), await csvParseRows([Buffer.from(csv)]));
  });

  it('gives readTabularBatches the rows of readTabular, in batches, cells beside one header', async () => {
    const csv = ['id,name', ...Array.from({ length: 600 }, (_, i) => (i === 300 ? `${i},"two\nlines"` : `${i},n${i}`))].join('\n');
    const batches: (TabularCellsRow | TabularRow)[][] = [];
    for await (const batch of readTabularBatches(Buffer.from(csv), 'csv')) batches.push(batch);
    assert.ok(batches.length > 1);
    const rows = batches.flat();
    const headers = new Set(rows.map((row) => ('header' in row ? row.header : undefined)));
    assert.equal(headers.size, 1);
    assert.deepEqual(rows.map(asRow), await readRows([Buffer.from(csv)]));
    assert.equal(rows.at(-1)!.line, 602);
  });
});

// ---------------------------------------------------------------------------------------------
// Parts, as `npm run map` reads a large reference CSV on two threads.

type PartsRead = { rows: TabularRow[] } | { unavailable: string };

/**
 * Reads `input` as the CLI does: the bytes before `start` strictly, the rest strictly as a part
 * numbered from 1, then moved on to the line the first part ended on; unavailable when either part
 * needs csv-parse or the first does not end on a record boundary (the CLI then reads the file whole).
 */
async function readInParts(input: Buffer, start: number, sizes: readonly number[] | null): Promise<PartsRead> {
  const header = csvHeaderOf(input);
  if (!header) return { unavailable: 'no header' };
  let end: { line: number; lineEnd: CsvLineEnd } | undefined;
  try {
    const first = await readBatches(chunked(input.subarray(0, start), sizes), { strict: true, onEnd: (found) => (end = found) });
    const second = await readBatches(chunked(input.subarray(start), sizes), { strict: true, part: { ...header, firstLine: 1 } });
    if (!end || end.lineEnd !== header.lineEnd) return { unavailable: 'parts do not meet' };
    const shift = end.line - 1;
    return { rows: [...first, ...second.map((row) => ({ ...row, line: row.line + shift }))] };
  } catch (error) {
    if (error instanceof CsvFastPathUnavailable) return { unavailable: error.message };
    throw error;
  }
}

describe('fast CSV reader: a file read in two parts', () => {
  it('finds the header, delimiter and line end of a file head', () => {
    assert.deepEqual(csvHeaderOf(Buffer.from('\uFEFFid; name ;city\r\n1;a;b\r\n')), {
      header: ['id', 'name', 'city'],
      delimiter: ';',
      lineEnd: 'crlf',
    });
    assert.deepEqual(csvHeaderOf(Buffer.from('\nid,"na\nme"\n1,a\n')), { header: ['id', 'na\nme'], delimiter: ',', lineEnd: 'lf' });
    assert.equal(csvHeaderOf(Buffer.from('id,name')), undefined, 'no line end yet');
    assert.equal(csvHeaderOf(Buffer.from('id,id\n1,2\n')), undefined, 'a header that would throw');
    assert.equal(csvHeaderOf(Buffer.from('id,name\r1,A\r\n')), undefined, 'old Mac line ends');
  });

  it('numbers a part from its first line, and reports where the input ended', async () => {
    const ends: { line: number; lineEnd: CsvLineEnd }[] = [];
    const rows = await readBatches([Buffer.from('7,"a\nb"\n\n8,c,extra\n9,d\n')], {
      strict: true,
      part: { header: ['id', 'name'], delimiter: ',', lineEnd: 'lf', firstLine: 10 },
      onEnd: (end) => ends.push(end),
    });
    assert.deepEqual(rows, [
      { line: 10, record: { id: '7', name: 'a\nb' } },
      { line: 13, error: 'has 3 fields but the header has 2' },
      { line: 14, record: { id: '9', name: 'd' } },
    ]);
    assert.deepEqual(ends, [{ line: 15, lineEnd: 'lf' }]);
  });

  it('throws CsvFastPathUnavailable in strict mode where csv-parse would take over', async () => {
    const strict = (csv: string, options: CsvReadOptions = {}) => readBatches([Buffer.from(csv)], { strict: true, ...options });
    await assert.rejects(strict('id,name\n1,"a"b\n'), CsvFastPathUnavailable);
    await assert.rejects(strict('id,name\n1,"never closed\n'), CsvFastPathUnavailable);
    await assert.rejects(strict('id,name\r1,A\r'), CsvFastPathUnavailable);
    await assert.rejects(
      strict('1,A\r\n', { part: { header: ['id', 'name'], delimiter: ',', lineEnd: 'lf', firstLine: 2 } }),
      CsvFastPathUnavailable,
    );
    // Without strict, the same part is read by csv-parse with the file's line end: the CR stays.
    assert.deepEqual(
      await readBatches([Buffer.from('1,A\r\n')], { part: { header: ['id', 'name'], delimiter: ',', lineEnd: 'lf', firstLine: 2 } }),
      [{ line: 2, record: { id: '1', name: 'A\r' } }],
    );
  });

  it('reads a file split after any line feed as the whole file, or says it cannot', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(shapedFile, fc.nat(), chunking, async (input, at, sizes) => {
        const feeds: number[] = [];
        for (let k = input.indexOf(10); k >= 0; k = input.indexOf(10, k + 1)) feeds.push(k);
        if (feeds.length === 0) return;
        const start = feeds[at % feeds.length]! + 1;
        const read = await readInParts(input, start, sizes);
        if ('unavailable' in read) return;
        compared += 1;
        const whole = await readRows([input]);
        assert.deepEqual(read.rows, whole, `${show(input)} split at byte ${start}`);
      }),
      { seed: SEED, numRuns: 800 },
    );
    // Most shaped files split well: the comparison is not vacuous.
    assert.ok(compared > 200, `only ${compared} files read in parts`);
  });
});
