/** The book's entries counted per source, status and method: kept with each generation, adjusted by the entries decided since. */
import type { BookEntry } from './entries';

/** Per source, the entries of each `STATUS#METHOD` (`NONE` for no method). */
export type BookStatistics = Record<string, Record<string, number>>;

const cell = (entry: Pick<BookEntry, 'status' | 'method'>) => `${entry.status}#${entry.method ?? 'NONE'}`;

/** Counts `entries` into `into` (`sign` -1 takes them out). */
export function countEntries(
  into: BookStatistics,
  entries: Iterable<Pick<BookEntry, 'source' | 'status' | 'method'>>,
  sign: 1 | -1 = 1,
): BookStatistics {
  for (const entry of entries) {
    const source = (into[entry.source] ??= {});
    source[cell(entry)] = (source[cell(entry)] ?? 0) + sign;
  }
  return into;
}

export function addStatistics(into: BookStatistics, more: BookStatistics): BookStatistics {
  for (const [source, cells] of Object.entries(more)) {
    const target = (into[source] ??= {});
    for (const [name, count] of Object.entries(cells)) target[name] = (target[name] ?? 0) + count;
  }
  return into;
}

/** What a partner reads: per source, its entries (DELETED ones apart) by status and by method. */
export function statisticsView(statistics: BookStatistics) {
  const sources = Object.entries(statistics)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([source, cells]) => {
      const byStatus = { MATCHED: 0, REVIEW: 0, UNMATCHED: 0, DELETED: 0 };
      const byMethod = { ID: 0, FUZZY: 0, MANUAL: 0, NONE: 0 };
      for (const [name, count] of Object.entries(cells)) {
        const [status, method] = name.split('#') as [keyof typeof byStatus, keyof typeof byMethod];
        byStatus[status] += count;
        if (status !== 'DELETED') byMethod[method] += count;
      }
      return { source, entries: byStatus.MATCHED + byStatus.REVIEW + byStatus.UNMATCHED, byStatus, byMethod };
    })
    .filter((source) => source.entries + source.byStatus.DELETED > 0);
  return { entries: sources.reduce((sum, source) => sum + source.entries, 0), sources };
}
