/** Writing CSV (RFC 4180): the counterpart of the csv reader in tabular.ts. */

export type CsvValue = string | number | boolean | null | undefined;

/** A value as a CSV field: quoted when it holds a delimiter, quote or line break; null/undefined empty. */
export function formatCsvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, without the line ending. */
export function formatCsvRow(values: readonly CsvValue[]): string {
  return values.map(formatCsvField).join(',');
}
