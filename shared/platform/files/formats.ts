/**
 * The tabular formats and how a file name names one: apart from the readers (tabular.ts), so a
 * function that only checks a name bundles no CSV or XLSX parser.
 */
export type TabularFormat = 'csv' | 'jsonl' | 'json' | 'xlsx';

const FORMAT_BY_EXTENSION: Record<string, TabularFormat> = {
  csv: 'csv',
  txt: 'csv',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
  json: 'json',
  xlsx: 'xlsx',
};

/** Format from a file name's extension (case-insensitive); undefined when not supported. */
export function detectTabularFormat(fileName: string): TabularFormat | undefined {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return undefined;
  return FORMAT_BY_EXTENSION[fileName.slice(dot + 1).toLowerCase()];
}
