/** Searching a job's results: the columns a search scans answer as the rules on each row do, in pages, with totals. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { DomainError } from '../../../shared/platform/errors';
import { FileReads, ReadCache } from '../../../shared/platform/objects/block-files';
import { foldText } from '../../../shared/platform/text';
import type { StoredResult } from '../../../shared/mapping-jobs/job';
import { searchResults } from '../../../shared/mapping-jobs/results';
import type { ResultFilter } from '../../../shared/mapping-jobs/job';
import {
  deserializeSearchColumns,
  searchColumnsOf,
  searchMatches,
  serializeSearchColumns,
} from '../../../shared/mapping-jobs/result-search';
import { answerSearchOf as searchOf, type AnswerSearch as ResultSearch } from '../../../shared/mapping';
import {
  mergePartition,
  partitionsToMerge,
  ResultViews,
  writeViewPart,
  writeViewsManifest,
} from '../../../shared/mapping-jobs/result-views';
import { bytesOf, DecisionsInMemory, ObjectsInMemory } from '../../support/results-in-memory';

const NAMES = [
  'Hôtel Ritz Paris',
  'RITZ-Carlton Berlin',
  'Гостиница Москва',
  'B&B Rose',
  'Hotel Zürich Ost',
  'Ibis Styles',
  'Pension Ritzi',
];
const CITIES = ['Paris', 'PARIS', 'Zürich', 'Zurich', 'Москва', 'Berlin', undefined];
const COUNTRIES = ['France', 'FR', 'CH', 'Switzerland', 'RU', 'Deutschland', undefined];
const SUPPLIERS = [{}, { HOTELBEDS: '1' }, { EXPEDIA: '2' }, { HOTELBEDS: '3', EXPEDIA: '4' }, { AGODA: '5' }];

/** Rows of every kind, partner ids whose UTF-8 order differs from UTF-16's among them. */
function rows(count: number): StoredResult[] {
  return Array.from({ length: count }, (_, i) => {
    const status = (['MATCHED', 'REVIEW', 'UNMATCHED'] as const)[(i * 7) % 3]!;
    const matched = status !== 'UNMATCHED';
    return {
      partnerHotelId: i % 97 === 0 ? `\u{1F3E8}${i}` : i % 89 === 0 ? `\uFF21${i}` : `H-${String((i * 7919) % 100_000).padStart(5, '0')}`,
      partnerHotelName: `${NAMES[i % NAMES.length]} ${i}`,
      partner: {
        name: `${NAMES[i % NAMES.length]} ${i}`,
        ...(CITIES[i % 7] && { city: CITIES[i % 7] }),
        ...(COUNTRIES[(i * 3) % 7] && { country: COUNTRIES[(i * 3) % 7] }),
      },
      referenceHotelId: matched ? `0000000${i % 50}-ref` : null,
      referenceHotelName: matched ? NAMES[(i * 5) % NAMES.length]! : null,
      ...(matched && { supplierCodes: SUPPLIERS[i % SUPPLIERS.length] }),
      status,
      method: matched ? (i % 5 === 0 ? 'ID' : 'FUZZY') : null,
      score: matched ? Math.round(((i * 37) % 100) / 10) / 10 : 0,
      evidence: null,
      candidates: [],
      chunk: Math.floor(i / 400),
    } as StoredResult;
  });
}

const inPartnerIdOrder = (all: readonly StoredResult[]) =>
  [...all].sort((a, b) => Buffer.compare(bytesOf(a.partnerHotelId), bytesOf(b.partnerHotelId)));

let jobs = 0;
async function setUp() {
  const job = { organizationId: 'org-1', id: `search-${++jobs}` };
  const all = rows(1_500);
  const objects = new ObjectsInMemory();
  // Three parts, in partner id order across them, as the finishing stage writes them.
  const ordered = inPartnerIdOrder(all);
  const parts = [ordered.slice(0, 500), ordered.slice(500, 1_100), ordered.slice(1_100)];
  const written = await Promise.all(parts.map((part, n) => writeViewPart(objects, job, n, part)));
  const merged = Object.fromEntries(
    await Promise.all(
      partitionsToMerge(written).map(async (partition) => [partition, await mergePartition(objects, job, partition, written)] as const),
    ),
  );
  await writeViewsManifest(objects, job, written, merged);
  const decisions = new DecisionsInMemory(job.id);
  for (const i of [3, 10, 44, 300, 301, 777, 1_200]) decisions.decide(all[i]!, i % 2 === 0 ? 'MATCH' : 'NO_MATCH');
  const views = new ResultViews({ objects, files: new FileReads(), searchColumns: new ReadCache(8) }, decisions, job);
  const decided = async () => [...decisions.decided.values()].map(({ decision }) => decision);
  return { all, objects, decisions, views, decided };
}

/** Every row a search finds, page by page, and the total each page told. */
async function searchAll(setup: Awaited<ReturnType<typeof setUp>>, search: ResultSearch, filter: ResultFilter, limit: number) {
  const found: StoredResult[] = [];
  const totals = new Set<number>();
  let cursor: string | undefined;
  do {
    const page = await searchResults(setup.views, setup.decided, search, filter, limit, cursor);
    assert.ok(page.results.length <= limit);
    found.push(...page.results);
    totals.add(page.total!);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return { found, totals };
}

const SEARCHES: [string, ResultSearch, ResultFilter][] = [
  ['a name, folded', { name: 'ritz' }, {}],
  ['a name across scripts and signs', { name: 'gostinitsa' }, {}],
  ['B&B, folded as names are', { name: foldText('B&B') }, {}],
  ['a city, folded', { city: 'zurich' }, {}],
  ['a country', { country: 'FR' }, {}],
  ['a reference hotel', { referenceHotelId: '00000007-ref' }, {}],
  ['a partner hotel', { partnerHotelId: 'H-07919' }, {}],
  ['suppliers', { suppliers: ['EXPEDIA', 'AGODA'] }, {}],
  ['a name and a status', { name: 'hotel' }, { status: 'REVIEW' }],
  ['a city, a supplier and scores', { city: 'paris', suppliers: ['HOTELBEDS'] }, { minScore: 0.2, maxScore: 0.8 }],
  ['a country and a method', { country: 'CH' }, { method: 'MANUAL' }],
  ['nothing matches', { name: 'no such hotel anywhere' }, {}],
];

describe('searching a completed job', () => {
  it.each(SEARCHES)(
    '%s: the rows the rules on each row find, decisions laid over, in partner id order, in pages, with the total',
    async (asked, search, filter) => {
      const setup = await setUp();
      const current = setup.all.map((row) => setup.decisions.decided.get(row.partnerHotelId)?.decision ?? row);
      const expected = inPartnerIdOrder(current.filter((row) => searchMatches(row, search, filter))).map((row) => row.partnerHotelId);
      assert.equal(expected.length === 0, asked === 'nothing matches', `${expected.length} rows`);
      for (const limit of [1, 7, 1_000]) {
        const { found, totals } = await searchAll(setup, search, filter, limit);
        assert.deepEqual(
          found.map((row) => row.partnerHotelId),
          expected,
          `limit ${limit}`,
        );
        assert.deepEqual([...totals], [expected.length], `every page tells the same total (limit ${limit})`);
      }
      if (search.name === 'ritz') assert.ok(expected.length > 100 && expected.length < 1_500, `${expected.length} rows`);
    },
  );

  it('shows a decided row as decided: found by what the person decided, not by what the engine said', async () => {
    const setup = await setUp();
    const [engine] = [...setup.decisions.decided.values()]
      .filter(({ decision }) => decision.status === 'MATCHED')
      .map(({ engine }) => engine);
    const found = (await searchAll(setup, { partnerHotelId: engine!.partnerHotelId }, { method: 'MANUAL' }, 10)).found;
    assert.deepEqual(
      found.map((row) => [row.partnerHotelId, row.status, row.referenceHotelId]),
      [[engine!.partnerHotelId, 'MATCHED', 'ref-chosen']],
    );
    assert.deepEqual((await searchAll(setup, { partnerHotelId: engine!.partnerHotelId }, { method: engine!.method! }, 10)).found, []);
  });

  it('makes the columns of a part written before they were from its rows: the same answers', async () => {
    const setup = await setUp();
    const search: ResultSearch = { name: 'hotel', suppliers: ['HOTELBEDS'] };
    const before = await searchAll(setup, search, {}, 50);
    await setup.objects.delete([...setup.objects.files.keys()].filter((key) => key.endsWith('.search')));
    const fresh = new ResultViews({ objects: setup.objects, files: new FileReads(), searchColumns: new ReadCache(8) }, setup.decisions, {
      organizationId: 'org-1',
      id: `search-${jobs}`,
    });
    const after = await searchAll({ ...setup, views: fresh }, search, {}, 50);
    assert.deepEqual(
      after.found.map((row) => row.partnerHotelId),
      before.found.map((row) => row.partnerHotelId),
    );
  });

  it('keeps its columns whole through storage', () => {
    const columns = searchColumnsOf(inPartnerIdOrder(rows(300)));
    // Plain arrays: v8's deserialize makes typed arrays of Node's realm, not the test's.
    const plain = (value: unknown): unknown =>
      ArrayBuffer.isView(value)
        ? Array.from(value as Uint32Array)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([key, field]) => [key, plain(field)]))
          : value;
    assert.deepEqual(plain(deserializeSearchColumns(serializeSearchColumns(columns))), plain(columns));
  });

  it('refuses a cursor that is not one of its own', async () => {
    const setup = await setUp();
    await assert.rejects(
      searchResults(setup.views, setup.decided, { name: 'ritz' }, {}, 10, 'bm90IGEgY3Vyc29y'),
      (error: unknown) => error instanceof DomainError && error.kind === 'invalid_input',
    );
  });
});

describe('what a search asks for', () => {
  const refused = (query: Parameters<typeof searchOf>[0], message: RegExp) =>
    assert.throws(
      () => searchOf(query, ['HOTELBEDS', 'EXPEDIA']),
      (error: unknown) => error instanceof DomainError && error.kind === 'invalid_input' && message.test(error.message),
    );

  it('folds names and cities, reads countries by code or name, and takes connected suppliers in any case', () => {
    assert.deepEqual(
      searchOf({ name: '  Hôtel  RITZ!', city: 'ZÜRICH', country: 'France', supplier: 'hotelbeds, Expedia', referenceHotelId: 'ABC' }, [
        'HOTELBEDS',
        'EXPEDIA',
      ]),
      {
        name: 'hotel ritz',
        city: 'zurich',
        country: 'FR',
        referenceHotelId: 'abc',
        suppliers: ['HOTELBEDS', 'EXPEDIA'],
      },
    );
    assert.equal(searchOf({}, []), undefined, 'no search: the other filters read the sorted views');
  });

  it('refuses a name of nothing, an unknown country, and a supplier the organization is not connected to', () => {
    refused({ name: '!!!' }, /^name: give at least one letter or digit/);
    refused({ country: 'Atlantis' }, /^country: "Atlantis" is not a country/);
    refused({ supplier: 'HOTELBEDS,AGODA' }, /^supplier: your organization is not connected to AGODA/);
    refused({ supplier: 'HOTELBEDS,,' }, /^supplier: give 1 to 20 supplier codes/);
  });
});
