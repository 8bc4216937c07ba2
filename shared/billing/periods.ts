/**
 * Metering periods, all in UTC: the day (daily allowance) and the billing month (usage,
 * metrics). A billing period is the calendar month.
 */

/** "2026-11-22" */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** "2026-11" */
export function billingMonth(at: Date): string {
  return at.toISOString().slice(0, 7);
}

export function daysInMonth(month: string): number {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
}

/** The month `offset` months after `month` (negative: before). */
export function addMonths(month: string, offset: number): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return billingMonth(new Date(Date.UTC(year, monthNumber - 1 + offset, 1)));
}

/** `count` months ending with `latest`, most recent first, none before `earliest`. */
export function recentMonths(latest: string, count: number, earliest?: string): string[] {
  const months: string[] = [];
  for (let offset = 0; offset < count; offset++) {
    const month = addMonths(latest, -offset);
    if (earliest && month < earliest) break;
    months.push(month);
  }
  return months;
}
