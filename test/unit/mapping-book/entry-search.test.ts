/** Searching the book's entries: a generation's columns, newer segments hiding older ones, entries changed since laid over, against the rule on each entry. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import type { AnswerSearch } from '../../../shared/mapping';
import type { BookEntry } from '../../../shared/mapping-book/entries';
import {
  deserializeEntryColumns,
  entryColumnsOf,
  entryMatches,
  hiddenRows,
  searchGeneration,
  serializeEntryColumns,
  type EntryFilter,
  type ScoredKey,
} from '../../../shared/mapping-book/entry-search';
import { compareKeys, entryKey } from '../../../shared/mapping-book/keys';

const NAMES = ['Hôtel Ritz Paris', 'Ritz-Carlton Berlin', 'Гостиница Москва', 'Ibis Styles', 'Pension Ritzi'];
const CITIES = ['Paris', 'ZÜRICH', 'Москва', undefined];
const STATUSES = ['MATCHED', 'REVIEW', 'UNMATCHED', 'DELETED'] as const;

/** An entry of a partner hotel and source, its fields varied by `n` (one version of it). */
function entry(id: number, source: string, n: number): BookEntry & { folded: number } {
  const status = STATUSES[(id + n) % 4]!;
  const matched = status === 'MATCHED' || status === 'REVIEW';
  return {
    source,
    partnerHotelId: id % 13 === 0 ? `\u{1F3E8}${id}` : `P-${String(id).padStart(4, '0')}`,
    partner: {
      name: `${NAMES[(id + n) % NAMES.length]} ${id}`,
      ...(CITIES[id % 4] && { city: CITIES[id % 4] }),
      country: id % 3 === 0 ? 'France' : 'CH',
    },
    status,
    method: matched ? (n % 2 === 0 ? 'FUZZY' : 'MANUAL') : null,
    referenceHotelId: matched ? `ref-${(id * 7 + n) % 20}` : null,
    referenceHotelName: matched ? NAMES[(id * 3 + n) % NAMES.length]! : null,
    ...(matched && (id + n) % 2 === 0 && { supplierCodes: { HOTELBEDS: `${id}`, ...((id + n) % 4 === 0 && { EXPEDIA: `E${id}` }) } }),
    score: matched ? ((id * 37 + n) % 100) / 100 : 0,
    evidence: null,
    candidates: [],
    engine: {
      status: 'UNMATCHED',
      method: null,
      referenceHotelId: null,
      referenceHotelName: null,
      score: 0,
      evidence: null,
      candidates: [],
    },
    reason: 'test',
    changedAt: '2026-11-29T10:00:00.000Z',
    cause: { kind: 'JOB', mappingJobId: 'job-1' },
    history: [],
    folded: (id % 5) * 10,
  };
}

const sorted = <T extends Pick<BookEntry, 'partnerHotelId' | 'source'>>(entries: T[]) =>
  entries.sort((a, b) => compareKeys(entryKey(a), entryKey(b)));

/** Three segments, oldest first, overlapping in keys; each cut into two parts. */
const segments = [
  sorted(Array.from({ length: 400 }, (_, id) => entry(id, id % 7 === 0 ? 'HOTELBEDS' : 'OWN', 0))),
  sorted(Array.from({ length: 150 }, (_, k) => entry(k * 3, (k * 3) % 7 === 0 ? 'HOTELBEDS' : 'OWN', 1))),
  sorted([
    ...Array.from({ length: 60 }, (_, k) => entry(k * 5, (k * 5) % 7 === 0 ? 'HOTELBEDS' : 'OWN', 2)),
    ...Array.from({ length: 20 }, (_, k) => entry(500 + k, 'OWN', 2)),
  ]),
];
const generation = segments.map((entries) => [
  entryColumnsOf(entries.slice(0, Math.floor(entries.length / 2))),
  entryColumnsOf(entries.slice(Math.floor(entries.length / 2))),
]);
/** Entries changed since: some newer than what the generation folded (they stand), some not (the generation stands), some new. */
const laidOver = [
  ...[3, 9, 10, 33, 45].map((id) => ({ entry: entry(id, id % 7 === 0 ? 'HOTELBEDS' : 'OWN', 7), sequence: 1_000 })),
  ...[20, 40].map((id) => ({ entry: entry(id, 'OWN', 9), sequence: 0 })),
  { entry: entry(900, 'OWN', 3), sequence: 5 },
];

/** The book as every read sees it: each key's newest segment entry, or its laid-over entry when newer than what the generation folded of it. */
function current(): BookEntry[] {
  const byKey = new Map<string, BookEntry & { folded: number }>();
  for (const entries of segments) for (const held of entries) byKey.set(entryKey(held), held);
  const result = new Map<string, BookEntry>(byKey);
  for (const { entry: laid, sequence } of laidOver) {
    const held = byKey.get(entryKey(laid));
    if (!held || sequence > held.folded) result.set(entryKey(laid), laid);
  }
  return sorted([...result.values()]);
}

const SEARCHES: [string, AnswerSearch, EntryFilter][] = [
  ['a name', { name: 'ritz' }, {}],
  ['a name in another script', { name: 'moskva' }, {}],
  ['a city', { city: 'zurich' }, {}],
  ['a country and a source', { country: 'FR' }, { source: 'HOTELBEDS' }],
  ['a partner hotel', { partnerHotelId: 'P-0045' }, {}],
  ['a reference hotel', { referenceHotelId: 'ref-7' }, {}],
  ['a supplier', { suppliers: ['EXPEDIA'] }, {}],
  ['a name among DELETED entries', { name: 'ibis' }, { status: 'DELETED' }],
  ['a supplier, a method and scores', { suppliers: ['HOTELBEDS'] }, { method: 'MANUAL', minScore: 0.2, maxScore: 0.9 }],
  ['unmatched by the engine', { country: 'CH' }, { method: 'NONE' }],
];

const FROM_THE_START = { order: 'KEY', afterKey: null } as const;

describe("searching the book's entries", () => {
  const hidden = hiddenRows(generation);

  const FILTERS: [string, AnswerSearch, EntryFilter][] = [
    ['every entry', {}, {}],
    ['the automatic matches', {}, { status: 'MATCHED', method: 'FUZZY' }],
    ['a name, between two scores', { name: 'ritz' }, { minScore: 0.2, maxScore: 0.8 }],
    ['a source in REVIEW', {}, { source: 'OWN', status: 'REVIEW' }],
  ];
  it.each(FILTERS)(
    '%s by score, either way: what the rule finds sorted by score then key, in pages, with the total',
    (_, search, filter) => {
      const matching = current().filter((held) => entryMatches(held, search, filter));
      assert.ok(matching.length > 0, 'the listing finds entries');
      for (const order of ['ASC', 'DESC'] as const) {
        const sign = order === 'ASC' ? 1 : -1;
        const step = (held: BookEntry) => Math.round(held.score * 10_000);
        const expected = [...matching].sort((a, b) => sign * (step(a) - step(b)) || compareKeys(entryKey(a), entryKey(b))).map(entryKey);
        for (const limit of [1, 7, 1_000]) {
          const keys: string[] = [];
          let after: ScoredKey | null = null;
          for (let pages = 0; ; pages++) {
            const { found, total } = searchGeneration(generation, hidden, laidOver, search, filter, { order, after }, limit + 1);
            assert.equal(total, matching.length, `the total, on every page (${order}, limit ${limit})`);
            const page = found.slice(0, limit);
            keys.push(...page.map((item) => item.key));
            if (found.length <= limit) break;
            after = { score: page[limit - 1]!.score, key: page[limit - 1]!.key };
            assert.ok(pages < 1_000);
          }
          assert.deepEqual(keys, expected, `${order}, limit ${limit}`);
        }
      }
    },
  );

  it.each(SEARCHES)('%s: what the rule on each current entry finds, in key order, in pages, with the total', (_, search, filter) => {
    const expected = current()
      .filter((held) => entryMatches(held, search, filter))
      .map(entryKey);
    assert.ok(expected.length > 0, 'the search finds entries');
    for (const limit of [1, 6, 1_000]) {
      const keys: string[] = [];
      let after: string | null = null;
      for (let pages = 0; ; pages++) {
        const { found, total } = searchGeneration(
          generation,
          hidden,
          laidOver,
          search,
          filter,
          { order: 'KEY', afterKey: after },
          limit + 1,
        );
        assert.equal(total, expected.length, `the total, on every page (limit ${limit})`);
        keys.push(...found.slice(0, limit).map((item) => item.key));
        if (found.length <= limit) break;
        after = found[limit - 1]!.key;
        assert.ok(pages < 1_000);
      }
      assert.deepEqual(keys, expected, `limit ${limit}`);
    }
  });

  it('answers a laid-over entry as it is, and a row of the generation by its newest segment', () => {
    const { found } = searchGeneration(generation, hidden, laidOver, { partnerHotelId: 'P-0045' }, {}, FROM_THE_START, 10);
    assert.deepEqual(
      found.map((item) => ('entry' in item ? ['laid', item.entry.partner.name] : ['row', item.row.segment])),
      [['laid', entry(45, 'OWN', 7).partner.name]],
    );
    const { found: newest } = searchGeneration(
      generation,
      hidden,
      [],
      { partnerHotelId: 'P-0030' },
      { status: STATUSES[(30 + 2) % 4] },
      FROM_THE_START,
      10,
    );
    assert.deepEqual(
      newest.map((item) => 'row' in item && item.row.segment),
      [2],
      'the newest segment holding it',
    );
  });

  it('keeps its columns whole through storage', () => {
    const plain = (value: unknown): unknown =>
      ArrayBuffer.isView(value)
        ? Array.from(value as Uint32Array)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([key, field]) => [key, plain(field)]))
          : value;
    const columns = generation[0]![0]!;
    assert.deepEqual(plain(deserializeEntryColumns(serializeEntryColumns(columns))), plain(columns));
  });
});
