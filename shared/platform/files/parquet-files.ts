/**
 * Parquet files read as tabular rows (hyparquet). A file is checked before anything is inflated: its
 * metadata must be readable, its column chunks within the file, its rows what its row groups add
 * up to, and what it declares it expands to within the reader's limit. Then every compressed page
 * is held to that declaration as it inflates, so a file whose metadata lies is refused after about
 * what it declares, never after what its pages claim.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import { parquetMetadata, parquetReadObjects, parquetSchema, snappyUncompress, type Compressors, type FileMetaData } from 'hyparquet';

/** A file refused as it is, with the reason a person reads. */
export class ParquetRefused extends Error {
  override readonly name = 'ParquetRefused';
}

export interface ParquetLimits {
  /** What the file's pages may inflate to, together. */
  maxExpandedBytes: number;
  /** Rows times columns. */
  maxCells: number;
}

/** A row group's rows: each a record of column name -> value, the first numbered `first` (from 0). */
export interface ParquetRowGroup {
  first: number;
  rows: Record<string, unknown>[];
}

const UNREADABLE = 'the file is not a readable Parquet file (a corrupt or cut-off file, or another format)';

/** The file's row groups, one at a time, its values as JSON would give them (see jsonLike). */
export async function* parquetRowGroups(file: Buffer, limits: ParquetLimits): AsyncGenerator<ParquetRowGroup> {
  const bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
  const { metadata, declared } = checkedMetadata(bytes, limits);
  const integerColumns = new Set(
    parquetSchema(metadata)
      .children.filter(({ element }) => isInteger(element))
      .map(({ element }) => element.name),
  );
  const compressors = inflatingWithin(declared);
  let first = 0;
  for (const group of metadata.row_groups) {
    const rows = Number(group.num_rows);
    if (rows > 0) {
      const read = await parquetReadObjects({ file: bytes, metadata, rowStart: first, rowEnd: first + rows, compressors });
      yield { first, rows: read.map((row) => jsonLike(row, integerColumns)) };
    }
    first += rows;
  }
}

/** The file's metadata and what it declares its pages expand to, once checked. */
function checkedMetadata(bytes: ArrayBuffer, limits: ParquetLimits): { metadata: FileMetaData; declared: number } {
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(bytes);
  } catch {
    throw new ParquetRefused(UNREADABLE);
  }
  const rows = metadata.row_groups.reduce((sum, group) => sum + Number(group.num_rows), 0);
  if (rows !== Number(metadata.num_rows) || metadata.row_groups.some((group) => group.num_rows < 0n)) {
    throw new ParquetRefused(`${UNREADABLE}: its row groups hold ${rows} rows, its metadata says ${metadata.num_rows}`);
  }
  const dataEnd = bytes.byteLength - metadata.metadata_length - 8;
  for (const { meta_data: column } of metadata.row_groups.flatMap((group) => group.columns)) {
    if (!column) throw new ParquetRefused(`${UNREADABLE}: a column chunk has no metadata`);
    const start = column.dictionary_page_offset ?? column.data_page_offset;
    if (
      start < 4n ||
      column.total_compressed_size < 0n ||
      column.total_uncompressed_size < 0n ||
      Number(start + column.total_compressed_size) > dataEnd
    ) {
      throw new ParquetRefused(`${UNREADABLE}: a column chunk lies outside the file`);
    }
  }
  const columns = metadata.row_groups[0]?.columns.length ?? 0;
  if (rows * columns > limits.maxCells) {
    throw new ParquetRefused(
      `the file holds ${rows} rows of ${columns} columns, more than the ${limits.maxCells.toLocaleString('en')} cells taken here; split the file`,
    );
  }
  const declared = declaredExpansion(metadata);
  if (declared > limits.maxExpandedBytes) {
    throw new ParquetRefused(
      `the file expands to ${Math.ceil(declared / 1024 / 1024)} MB, more than the ${Math.floor(limits.maxExpandedBytes / 1024 / 1024)} MB taken here: ` +
        'upload it through a presigned upload, or split the file',
    );
  }
  return { metadata, declared };
}

function declaredExpansion(metadata: FileMetaData): number {
  return metadata.row_groups.reduce(
    (sum, group) => sum + group.columns.reduce((columns, chunk) => columns + Number(chunk.meta_data?.total_uncompressed_size ?? 0n), 0),
    0,
  );
}

/**
 * The codecs a Parquet writer uses, each inflating a page only while the pages together stay within
 * what the file declared (`declared` bytes): a page header claiming more is refused before its
 * buffer is allocated.
 */
export function inflatingWithin(declared: number): Compressors {
  let inflated = 0;
  const within = (inflate: (input: Uint8Array, outputLength: number) => Uint8Array) => (input: Uint8Array, outputLength: number) => {
    inflated += outputLength;
    if (inflated > declared)
      throw new ParquetRefused(`${UNREADABLE}: its pages inflate to more than its metadata declares (a corrupt or crafted file)`);
    return inflate(input, outputLength);
  };
  return {
    SNAPPY: within((input, outputLength) => {
      const output = new Uint8Array(outputLength);
      snappyUncompress(input, output);
      return output;
    }),
    GZIP: within((input, outputLength) => gunzipSync(input, { maxOutputLength: Math.max(outputLength, 1) })),
    BROTLI: within((input, outputLength) => brotliDecompressSync(input, { maxOutputLength: Math.max(outputLength, 1) })),
    ZSTD: within((input, outputLength) => zstdDecompress(input, new Uint8Array(outputLength))),
  };
}

type SchemaElement = FileMetaData['schema'][number];

/** A column of whole numbers: its values are exact, and read as their decimal text. */
function isInteger(element: SchemaElement): boolean {
  if (element.type !== 'INT32' && element.type !== 'INT64') return false;
  const logical = element.logical_type?.type;
  return logical === undefined || logical === 'INTEGER';
}

/**
 * A row's values as the JSON row reader takes them: whole numbers (INT32, INT64) as their exact
 * decimal text, as an id or a postal code is meant; times as ISO 8601; the rest as read (text,
 * floating-point numbers, booleans, a map as an object), for the reader to take or refuse.
 */
function jsonLike(row: Record<string, unknown>, integerColumns: ReadonlySet<string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (typeof value === 'bigint' || (typeof value === 'number' && integerColumns.has(column))) values[column] = String(value);
    else if (value instanceof Date) values[column] = value.toISOString();
    else values[column] = value;
  }
  return values;
}
