/** Writing CSV (RFC 4180): the counterpart of the csv reader in tabular.ts. */

export type CsvValue = string | number | boolean | null | undefined;

/** A value as a CSV field: quoted when it holds the delimiter, a quote or a line break; null/undefined empty. */
export function formatCsvField(value: CsvValue, delimiter = ','): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, without the line ending. */
export function formatCsvRow(values: readonly CsvValue[], delimiter = ','): string {
  return values.map((value) => formatCsvField(value, delimiter)).join(delimiter);
}
