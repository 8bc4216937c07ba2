/**
 * CSV records, fast: the records csv-parse yields (with the options tabular.ts reads CSV with:
 * BOM stripped, record delimiter discovered, relax_quotes, relax_column_count), each with the line
 * it starts on, in batches.
 *
 * csv-parse handles one byte at a time in JavaScript (about 15 MB/s). Here a record in the common
 * shapes is split with Buffer.indexOf (native) and each field decoded once: fields unquoted (a
 * quote after a field's first character is text, as relax_quotes has it), or quoted with ""
 * escapes and line breaks inside, lines ending the way the file's first line ends (LF or CRLF).
 * Anything else is csv-parse's, so its behaviour there (and its errors) stay exactly what they
 * were: a file unusual from the start (a UTF-16 BOM, a delimiter that is not one plain byte, a first
 * record the fast path cannot read) goes to csv-parse whole, BOM and all; a later record the fast
 * path cannot read (text after a closing quote, a stray CR, an unterminated quote, a record longer
 * than a megabyte) hands csv-parse the rest of the input from that record's first byte on, with
 * the record delimiter found and numbered on from that record's line. Fields are decoded as
 * csv-parse decodes them (UTF-8, each field on its own), as fresh strings: a field kept for long
 * does not keep its chunk of the file alive.
 */
import { Readable } from 'node:stream';
import { CsvError, parse as parseCsv } from 'csv-parse';

/** One CSV record and the line (1-based) it starts on. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** A file's record delimiter, once seen (a lone "\r" is csv-parse's to read). */
export type CsvLineEnd = 'unknown' | 'lf' | 'crlf';

/** Where a part of a file starts: the line its first record is on, and the file's record delimiter. */
export interface CsvPartStart {
  firstLine: number;
  lineEnd: Exclude<CsvLineEnd, 'unknown'>;
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];
const EMPTY = Buffer.alloc(0);

/** The fast path stops here; csv-parse takes the input from `position` of the current buffer on. */
class HandOff {
  constructor(readonly position: number) {}
}

/**
 * Records per batch. Small batches: what a batch holds is alive through every reader above this
 * one, and the young-generation collector copies whatever is alive (a megabyte of rows cost it seconds).
 */
const BATCH_RECORDS = 256;

/** Longest unfinished record kept while waiting for the rest of it. */
const MAX_PENDING_BYTES = 1 << 20;

/** Needs bytes beyond the buffer to finish this record. */
const NEED_MORE = -1;

function startsWith(buffer: Buffer, bytes: readonly number[]): boolean {
  if (buffer.length < bytes.length) return false;
  for (let i = 0; i < bytes.length; i++) if (buffer[i] !== bytes[i]) return false;
  return true;
}

/**
 * Whether the fast path reads a file split on `delimiter` (one ASCII byte that is none of its own
 * markers) and, given the file's `head`, not UTF-16.
 */
function fastPathReads(delimiter: string, head?: Buffer): boolean {
  const code = delimiter.charCodeAt(0);
  const plainByte = delimiter.length === 1 && code < 0x80 && code !== QUOTE && code !== LF && code !== CR;
  return plainByte && !(head !== undefined && startsWith(head, UTF16LE_BOM));
}

/**
 * Splits records off buffers into `records`; `parse` reads from a position of a buffer (see
 * there) and says where it stopped, the caller handing it the unread tail again with the next chunk.
 */
class RecordSplitter {
  lineEnd: CsvLineEnd = 'unknown';
  /** Line the next record starts on. */
  line = 1;
  readonly records: CsvRecord[] = [];
  private readonly cells: string[] = [];
  /**
   * Positions in `scanned` of a quote and a CR at or after every position read from (its length
   * when there is none), kept from call to call on the same buffer: most lines hold neither, and
   * a buffer without any would otherwise be searched to its end at every call.
   */
  private scanned: Buffer | undefined;
  private nextQuote = -1;
  private nextCr = -1;

  constructor(private readonly delimiter: number) {}

  /**
   * Reads up to `maxRecords` complete records from `start` (`end`: nothing follows the buffer);
   * returns the position of the first unread byte (the buffer's length when all was read), or a HandOff.
   */
  parse(buffer: Buffer, start: number, end: boolean, maxRecords: number): number | HandOff {
    if (buffer !== this.scanned) {
      this.scanned = buffer;
      this.nextQuote = -1;
      this.nextCr = -1;
    }
    const length = buffer.length;
    let position = start;
    while (position < length && this.records.length < maxRecords) {
      if (this.nextQuote < position) this.nextQuote = indexOrLength(buffer, QUOTE, position);
      if (this.nextCr < position) this.nextCr = indexOrLength(buffer, CR, position);
      const lf = buffer.indexOf(LF, position);
      if (this.lineEnd !== 'unknown' && lf >= 0 && this.nextQuote > lf) {
        // A plain line: no quote before its end.
        let contentEnd = lf;
        if (this.lineEnd === 'crlf') {
          if (this.nextCr !== lf - 1 || lf === position) return new HandOff(position);
          contentEnd = lf - 1;
        } else if (this.nextCr < lf) return new HandOff(position);
        this.records.push({ line: this.line, cells: this.splitPlain(buffer, position, contentEnd) });
        this.line += 1;
        position = lf + 1;
        continue;
      }
      const next = this.parseRecord(buffer, position, end);
      if (next instanceof HandOff) return next;
      // A record longer than this is most likely an unterminated quote: csv-parse streams on from
      // here rather than this reader re-reading an ever longer tail.
      if (next === NEED_MORE) return length - position > MAX_PENDING_BYTES ? new HandOff(position) : position;
      position = next;
    }
    return position;
  }

  private splitPlain(buffer: Buffer, from: number, to: number): string[] {
    const cells: string[] = [];
    let start = from;
    for (;;) {
      let stop = buffer.indexOf(this.delimiter, start);
      if (stop < 0 || stop > to) stop = to;
      cells.push(buffer.toString('utf8', start, stop));
      if (stop === to) return cells;
      start = stop + 1;
    }
  }

  /**
   * Any record, one field at a time: returns the position after its record delimiter, NEED_MORE,
   * or a HandOff. Pushes the record (and advances the line) only when it is complete.
   */
  private parseRecord(buffer: Buffer, from: number, end: boolean): number | HandOff {
    const length = buffer.length;
    const cells = this.cells;
    cells.length = 0;
    let breaksInside = 0;
    let position = from;
    for (;;) {
      let value: string;
      let after: number;
      if (buffer[position] === QUOTE) {
        // Quoted: up to a quote followed by a delimiter, a record delimiter or the end; "" is a quote.
        value = '';
        let segment = position + 1;
        for (;;) {
          const quote = buffer.indexOf(QUOTE, segment);
          if (quote < 0) return end ? new HandOff(from) : NEED_MORE;
          for (let k = segment; k < quote; k++) {
            const byte = buffer[k]!;
            if (byte === LF) breaksInside += 1;
            else if (byte === CR) return new HandOff(from);
          }
          if (quote + 1 >= length && !end) return NEED_MORE;
          value += buffer.toString('utf8', segment, quote);
          if (buffer[quote + 1] === QUOTE) {
            value += '"';
            segment = quote + 2;
            continue;
          }
          after = quote + 1;
          break;
        }
      } else {
        // Unquoted: up to a delimiter or a record delimiter. A quote after the first character is
        // text (csv-parse's relax_quotes); a CR must end the record.
        let stop = position;
        while (stop < length) {
          const byte = buffer[stop]!;
          if (byte === this.delimiter || byte === LF || byte === CR) break;
          stop += 1;
        }
        if (stop >= length && !end) return NEED_MORE;
        value = buffer.toString('utf8', position, stop);
        after = stop;
      }
      cells.push(value);
      // What follows the field.
      if (after >= length) {
        if (!end) return NEED_MORE;
        this.finishRecord(cells, breaksInside);
        return length;
      }
      const byte = buffer[after]!;
      if (byte === this.delimiter) {
        position = after + 1;
        if (position >= length) {
          if (!end) return NEED_MORE;
          cells.push('');
          this.finishRecord(cells, breaksInside);
          return length;
        }
        continue;
      }
      if (byte === LF) {
        if (this.lineEnd === 'unknown') this.lineEnd = 'lf';
        if (this.lineEnd !== 'lf') return new HandOff(from);
        this.finishRecord(cells, breaksInside);
        return after + 1;
      }
      if (byte === CR) {
        if (after + 1 >= length && !end) return NEED_MORE;
        if (buffer[after + 1] !== LF) return new HandOff(from);
        if (this.lineEnd === 'unknown') this.lineEnd = 'crlf';
        if (this.lineEnd !== 'crlf') return new HandOff(from);
        this.finishRecord(cells, breaksInside);
        return after + 2;
      }
      // Text after a closing quote: csv-parse's relax_quotes rules apply.
      return new HandOff(from);
    }
  }

  private finishRecord(cells: string[], breaksInside: number): void {
    this.records.push({ line: this.line, cells: cells.slice() });
    this.line += 1 + breaksInside;
  }
}

function indexOrLength(buffer: Buffer, byte: number, from: number): number {
  const found = buffer.indexOf(byte, from);
  return found < 0 ? buffer.length : found;
}

/** Splits a buffer's records off in batches; returns where it stopped (see RecordSplitter.parse). */
function* splitBuffer(splitter: RecordSplitter, buffer: Buffer, end: boolean): Generator<CsvRecord[], number | HandOff> {
  let stopped: number | HandOff = 0;
  for (;;) {
    stopped = splitter.parse(buffer, stopped, end, BATCH_RECORDS);
    const full = splitter.records.length >= BATCH_RECORDS;
    if (splitter.records.length > 0) yield splitter.records.splice(0);
    if (!full || stopped instanceof HandOff) return stopped;
  }
}

/**
 * The longest row read, in characters: far beyond any inventory row (every field is limited), and
 * a stop to a quote left open that would otherwise swallow the rest of a 200 MB file into one field.
 */
export const MAX_CSV_RECORD_CHARACTERS = 2_000_000;

const CSV_PARSE_OPTIONS = {
  max_record_size: MAX_CSV_RECORD_CHARACTERS,
  // The lines each record spans, for the line the next one starts on.
  info: true,
  // Rows with a wrong field count become row errors instead of stopping the file.
  relax_column_count: true,
  // A stray quote inside an unquoted field is data, not a reason to reject the file.
  relax_quotes: true,
} as const;

/** csv-parse over `chunks`: the whole file (`part` undefined: it strips the BOM and finds the record delimiter itself), or a part of it. */
function csvParser(
  chunks: AsyncIterable<Buffer>,
  delimiter: string,
  part: CsvPartStart | undefined,
): AsyncIterable<{ record: string[]; info: { lines: number } }> {
  const parser = parseCsv(
    part
      ? { ...CSV_PARSE_OPTIONS, delimiter, bom: false, record_delimiter: part.lineEnd === 'crlf' ? '\r\n' : '\n' }
      : { ...CSV_PARSE_OPTIONS, delimiter, bom: true },
  );
  // pipe() does not pass an error of its source on: without this, a failed read would leave the parser waiting.
  return Readable.from(chunks)
    .on('error', (error) => parser.destroy(error))
    .pipe(parser);
}

/**
 * The records csv-parse reads from `chunks` (see csvParser), in batches. Its errors are thrown as
 * CsvRecordsError (after the records before them), the input's as they are.
 */
async function* csvParseRecords(
  chunks: AsyncIterable<Buffer>,
  delimiter: string,
  part: CsvPartStart | undefined,
): AsyncGenerator<CsvRecord[]> {
  const offset = (part?.firstLine ?? 1) - 1;
  // Empty lines also come through as records, so the next record always starts one line later.
  let nextStartLine = offset + 1;
  let batch: CsvRecord[] = [];
  let failure: CsvRecordsError | undefined;
  try {
    for await (const { record, info } of csvParser(chunks, delimiter, part)) {
      batch.push({ line: nextStartLine, cells: record });
      nextStartLine = offset + info.lines + 1;
      if (batch.length < BATCH_RECORDS) continue;
      yield batch;
      batch = [];
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    failure = new CsvRecordsError(error, nextStartLine);
  }
  if (batch.length > 0) yield batch;
  if (failure) throw failure;
}

/** Thrown by csvRecordBatches when csv-parse rejects the file: the line the bad record starts on. */
export class CsvRecordsError extends Error {
  constructor(
    readonly failure: CsvError,
    readonly line: number,
  ) {
    super(failure.message);
  }
}

/** Thrown in strict mode where csv-parse would have to take over (see csvRecordBatches). */
export class CsvFastPathUnavailable extends Error {
  override readonly name = 'CsvFastPathUnavailable';
}

export interface CsvRecordsOptions {
  /**
   * The input is a part of a file starting at a record boundary after the file's first line: no
   * BOM is looked for, records are numbered from `part.firstLine`, and `part.lineEnd` is the
   * file's record delimiter (as csv-parse found it on the first line).
   */
  part?: CsvPartStart;
  /**
   * Only what the fast path reads: throw CsvFastPathUnavailable where csv-parse would take over
   * (for a reader that splits a file between threads, and reads it whole when a part is unusual).
   */
  strict?: boolean;
  /** Called when the input ends: the line after the last record, and the record delimiter found. */
  onEnd?: (end: { line: number; lineEnd: CsvLineEnd }) => void;
}

/** The first records of a file's head (complete ones, at most `count`), read strictly; undefined when the fast path cannot read them. */
export function firstCsvRecords(head: Buffer, delimiter: string, count: number): { records: CsvRecord[]; lineEnd: CsvLineEnd } | undefined {
  if (!fastPathReads(delimiter, head)) return undefined;
  const splitter = new RecordSplitter(delimiter.charCodeAt(0));
  const stopped = splitter.parse(head, startsWith(head, UTF8_BOM) ? 3 : 0, false, count);
  if (stopped instanceof HandOff) return undefined;
  return { records: splitter.records, lineEnd: splitter.lineEnd };
}

/**
 * The records of a CSV file in batches (empty lines included, as [""]), each with its start line.
 * csv-parse's errors are thrown as CsvRecordsError, with the line the record being read starts on;
 * the input's errors as they are.
 */
export async function* csvRecordBatches(
  chunks: AsyncIterable<Buffer>,
  delimiter: string,
  options: CsvRecordsOptions = {},
): AsyncGenerator<CsvRecord[]> {
  const iterator = chunks[Symbol.asyncIterator]();
  try {
    yield* readRecords(iterator, delimiter, options);
  } finally {
    // Also when the reader above stops early: the input (a file stream, say) is closed.
    await iterator.return?.();
  }
}

async function* readRecords(iterator: AsyncIterator<Buffer>, delimiter: string, options: CsvRecordsOptions): AsyncGenerator<CsvRecord[]> {
  const { part, strict = false } = options;
  const joiner = new ChunkJoiner();
  let { buffer, end } = part ? await nextBuffer(iterator, undefined, joiner) : await headOf(iterator, joiner);
  if (!fastPathReads(delimiter, part ? undefined : buffer)) {
    if (strict) throw new CsvFastPathUnavailable('the file needs csv-parse from its start');
    yield* csvParseRecords(replay(buffer, iterator, end), delimiter, part);
    return;
  }
  const splitter = new RecordSplitter(delimiter.charCodeAt(0));
  const bom = !part && startsWith(buffer, UTF8_BOM);
  if (part) {
    splitter.line = part.firstLine;
    splitter.lineEnd = part.lineEnd;
  } else if (bom) buffer = buffer.subarray(3);
  for (;;) {
    const stopped = yield* splitBuffer(splitter, buffer, end);
    if (stopped instanceof HandOff) {
      if (strict) throw new CsvFastPathUnavailable(`the record on line ${splitter.line} needs csv-parse`);
      yield* handOff(splitter, stopped, buffer, bom, iterator, end, delimiter);
      return;
    }
    if (end) {
      options.onEnd?.({ line: splitter.line, lineEnd: splitter.lineEnd });
      return;
    }
    ({ buffer, end } = await nextBuffer(iterator, stopped < buffer.length ? buffer.subarray(stopped) : undefined, joiner));
  }
}

/**
 * csv-parse from where the fast path stopped in `buffer`: before the first record ended (nothing
 * yielded yet, the record delimiter unknown), over the whole file as it read it before (`buffer`
 * then holds the file from its start, but for a BOM taken off); after, over the rest from the
 * record it stopped at.
 */
function handOff(
  splitter: RecordSplitter,
  at: HandOff,
  buffer: Buffer,
  bom: boolean,
  iterator: AsyncIterator<Buffer>,
  end: boolean,
  delimiter: string,
): AsyncGenerator<CsvRecord[]> {
  if (splitter.lineEnd === 'unknown') {
    const whole = bom ? Buffer.concat([Buffer.from(UTF8_BOM), buffer]) : buffer;
    return csvParseRecords(replay(whole, iterator, end), delimiter, undefined);
  }
  return csvParseRecords(replay(buffer.subarray(at.position), iterator, end), delimiter, {
    firstLine: splitter.line,
    lineEnd: splitter.lineEnd,
  });
}

/** The first chunks of the input, together at least three bytes long (the BOM decides how to read), or the whole input when shorter. */
async function headOf(iterator: AsyncIterator<Buffer>, joiner: ChunkJoiner): Promise<{ buffer: Buffer; end: boolean }> {
  let read = await nextBuffer(iterator, undefined, joiner);
  while (!read.end && read.buffer.length < 3) read = await nextBuffer(iterator, read.buffer, joiner);
  return read;
}

/** The next buffer to split: the unread tail of the last one (`pending`) and the next chunk; at the end of the input, the tail alone. */
async function nextBuffer(
  iterator: AsyncIterator<Buffer>,
  pending: Buffer | undefined,
  joiner: ChunkJoiner,
): Promise<{ buffer: Buffer; end: boolean }> {
  const next = await iterator.next();
  if (next.done) return { buffer: pending ?? EMPTY, end: true };
  return { buffer: pending && pending.length > 0 ? joiner.join(pending, next.value) : next.value, end: false };
}

/**
 * Joins the unread tail of the last buffer and the next chunk in one buffer, the same one each
 * time (grown when too small). Fields are decoded into fresh strings, so no record holds on to a
 * buffer once it has been split; a fresh buffer per chunk (Buffer.concat) cost more in page faults
 * than the copy itself. The tail may lie in that buffer already: Buffer.copy handles the overlap.
 * Once csv-parse takes over, nothing is joined any more.
 */
class ChunkJoiner {
  private joined: Buffer = EMPTY;

  join(tail: Buffer, chunk: Buffer): Buffer {
    const length = tail.length + chunk.length;
    if (length > this.joined.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(length, 2 * this.joined.length));
      tail.copy(grown, 0);
      this.joined = grown;
    } else tail.copy(this.joined, 0);
    chunk.copy(this.joined, tail.length);
    return this.joined.subarray(0, length);
  }
}

/** `head`, then the input after the chunks read so far (nothing more when it has ended). */
async function* replay(head: Buffer, iterator: AsyncIterator<Buffer>, ended: boolean): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  if (ended) return;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
}
