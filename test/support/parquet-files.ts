/** Parquet files for tests, written by hyparquet-writer (the reader is hyparquet, its companion). */
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';

export interface ParquetColumn {
  name: string;
  data: unknown[];
  type: 'STRING' | 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN';
}

/** A Parquet file of these columns, in row groups of `rowGroupSize` rows, its pages compressed with `codec`. */
export function parquetFile(
  columns: ParquetColumn[],
  options: { codec?: 'UNCOMPRESSED' | 'SNAPPY' | 'GZIP' | 'BROTLI'; rowGroupSize?: number } = {},
): Buffer {
  const { codec = 'SNAPPY', rowGroupSize = 100_000 } = options;
  const bytes = parquetWriteBuffer({
    columnData: columns.map((column) => ({ ...column, data: column.data as never })),
    codec,
    compressors: { GZIP: (input: Uint8Array) => gzipSync(input), BROTLI: (input: Uint8Array) => brotliCompressSync(input) },
    rowGroupSize,
  });
  return Buffer.from(bytes);
}

/** Partner hotel rows as Parquet columns: ids as text, lat and lon as numbers. */
export function hotelColumns(
  rows: { id: string; name: string; city?: string; country?: string; lat?: number; lon?: number }[],
): ParquetColumn[] {
  return [
    { name: 'id', type: 'STRING', data: rows.map((row) => row.id) },
    { name: 'name', type: 'STRING', data: rows.map((row) => row.name) },
    { name: 'city', type: 'STRING', data: rows.map((row) => row.city ?? null) },
    { name: 'country', type: 'STRING', data: rows.map((row) => row.country ?? null) },
    { name: 'lat', type: 'DOUBLE', data: rows.map((row) => row.lat ?? null) },
    { name: 'lon', type: 'DOUBLE', data: rows.map((row) => row.lon ?? null) },
  ];
}
