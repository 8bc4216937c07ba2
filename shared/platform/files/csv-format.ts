/** Writing CSV (RFC 4180): the counterpart of the csv reader in tabular.ts. */

export type CsvValue = string | number | boolean | null | undefined;

/** First characters that make a spreadsheet read a cell as a formula (OWASP, "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A number as text ("-12.5"): a spreadsheet reads it as the number, not a formula. */
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * A value as a CSV field: quoted when it holds the delimiter, a quote or a line break; null or
 * undefined empty. Text a spreadsheet would run as a formula (`=HYPERLINK(…)`, `@SUM(…)`) is
 * neutralised as OWASP recommends: a leading apostrophe, which spreadsheets show as text.
 */
export function formatCsvField(value: CsvValue, delimiter = ','): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, without the line ending. */
export function formatCsvRow(values: readonly CsvValue[], delimiter = ','): string {
  return values.map((value) => formatCsvField(value, delimiter)).join(delimiter);
}
