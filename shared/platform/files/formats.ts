/**
 * The tabular formats and how a file name names one: apart from the readers (tabular.ts), so a
 * function that only checks a name bundles no CSV, XLSX or Parquet reader.
 */
export const TABULAR_FORMATS = ['csv', 'jsonl', 'json', 'xlsx', 'parquet'] as const;
export type TabularFormat = (typeof TABULAR_FORMATS)[number];

const FORMAT_BY_EXTENSION: Record<string, TabularFormat> = {
  csv: 'csv',
  txt: 'csv',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  json: 'json',
  xlsx: 'xlsx',
  parquet: 'parquet',
};

const FORMAT_BY_MEDIA_TYPE: Record<string, TabularFormat> = {
  'text/csv': 'csv',
  'text/plain': 'csv',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/json': 'json',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.apache.parquet': 'parquet',
};

/**
 * The format a file names: its extension (case-insensitive), or, for a name without one (what
 * `FormData.append('file', blob)` sends), the media type it was sent with. Undefined when neither
 * names a supported format.
 */
export function detectTabularFormat(fileName: string, mediaType?: string): TabularFormat | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot >= 0) return FORMAT_BY_EXTENSION[fileName.slice(dot + 1).toLowerCase()];
  return mediaType === undefined ? undefined : FORMAT_BY_MEDIA_TYPE[mediaType.split(';')[0]!.trim().toLowerCase()];
}
