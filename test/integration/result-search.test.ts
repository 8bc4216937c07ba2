/**
 * Searching a job's results and the mapping book's entries through the local runtime: each search
 * parameter and combinations of them with the filters, checked against a brute-force filter over
 * every row, in pages, with the total; refused input; another organization's data out of reach; and
 * the book's derived files made again from its entries when they are gone.
 */
import assert from 'node:assert/strict';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { toCountryCode } from '../../shared/mapping';
import { BOOK_DERIVED_PREFIX } from '../../shared/mapping-book';
import { resultObjectStoreOf } from '../../shared/platform/objects/services';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { completedJob } from '../support/completed-job';
import { startTestApi, type Caller } from '../support/test-api';

const REFERENCE = { hotels: 300, seed: 5 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const api = await startTestApi();
await seedReferenceInventory(api.runtime, REFERENCE);
const SUPPLIER_IDS = { HOTELBEDS: '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0001', EXPEDIA: '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0002' };

/** 120 reference hotels as a partner lists them (every third name and city shouted), and hotels that exist nowhere. */
const rows = [
  ...hotels
    .slice(0, 120)
    .map((hotel, i) => [
      `P${String(i).padStart(3, '0')}`,
      i % 3 === 0 ? hotel.name.toUpperCase() : hotel.name,
      hotel.address,
      i % 3 === 0 ? hotel.city!.toUpperCase() : hotel.city,
      hotel.country,
      hotel.lat,
      hotel.lon,
    ]),
  ...[0, 1, 2, 3].map((i) => [`X${i}`, `Zzyzx Qwerty Lodge ${i}`, '', 'Nowhere', 'Iceland', 63.1 + i / 100, -19.9]),
];

/** The brute force: a text folded by hand, for the names and cities this data holds (Latin letters, accents, signs). */
const fold = (text: string | null | undefined) =>
  (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
const byPartnerId = (a: { partnerHotelId: string }, b: { partnerHotelId: string }) =>
  Buffer.compare(Buffer.from(a.partnerHotelId), Buffer.from(b.partnerHotelId));

const mappedJob = (as: Caller) =>
  completedJob(
    api,
    as,
    [formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon']), ...rows.map((row) => formatCsvRow(row))].join('\n'),
  );

/** Every row a query finds, page by page, and the totals the pages told. */
async function searchAll(as: Caller, jobId: string, query: Record<string, string>) {
  return searchPages(as, `/api/v1/mapping/${jobId}/results`, 'results', query);
}

async function searchPages(as: Caller, path: string, list: 'results' | 'entries', query: Record<string, string>) {
  const found: any[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, limit: '7', ...(cursor && { cursor }) });
    const page = await api.request('GET', `${path}?${params}`, { as });
    assert.equal(page.status, 200, page.text);
    assert.ok(page.body[list].length <= 7);
    found.push(...page.body[list]);
    totals.add(page.body.total);
    cursor = page.body.nextCursor;
  } while (cursor);
  return { found, totals };
}

describe('GET /api/v1/mapping-book/entries, searched', () => {
  it('finds what a brute-force filter over every entry finds, decisions laid over, in pages, with the total', async () => {
    const partner = await api.newOrganization();
    assert.equal((await api.request('POST', `/api/v1/suppliers/${SUPPLIER_IDS.HOTELBEDS}/connect`, { as: partner })).status, 201);
    const jobId = await mappedJob(partner);
    // Decided since the job's write: laid over the book's files.
    const decided = await api.request('POST', '/api/v1/mapping-book/reviews', {
      as: partner,
      json: { partnerHotelId: 'P004', decision: 'MATCH', referenceHotelId: hotels[250]!.id },
    });
    assert.equal(decided.status, 200, decided.text);
    assert.equal(
      (
        await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
          as: partner,
          json: { partnerHotelId: 'P005', decision: 'NO_MATCH' },
        })
      ).status,
      200,
    );
    const all = (await searchPages(partner, '/api/v1/mapping-book/entries', 'entries', {})).found;
    assert.equal(all.length, rows.length);
    const has = (entry: any, query: Record<string, string>) =>
      (query.name === undefined || `${fold(entry.partner.name)}\t${fold(entry.referenceHotelName)}`.includes(fold(query.name))) &&
      (query.city === undefined || fold(entry.partner.city) === fold(query.city)) &&
      (query.country === undefined || toCountryCode(entry.partner.country) === toCountryCode(query.country)) &&
      (query.partnerHotelId === undefined || entry.partnerHotelId === query.partnerHotelId) &&
      (query.referenceHotelId === undefined || entry.referenceHotelId === query.referenceHotelId) &&
      (query.supplier === undefined || query.supplier in entry.supplierCodes) &&
      (query.status === undefined || entry.status === query.status) &&
      (query.method === undefined || entry.method === query.method);
    const queries: Record<string, string>[] = [
      {
        name: fold(hotels[7]!.name)
          .split(' ')
          .sort((a, b) => b.length - a.length)[0]!,
      },
      { name: hotels[250]!.name },
      { city: hotels[0]!.city!.toUpperCase() },
      { country: hotels[3]!.country! },
      { partnerHotelId: 'P005' },
      { referenceHotelId: hotels[250]!.id },
      { supplier: 'HOTELBEDS', status: 'MATCHED' },
      { name: 'hotel', method: 'MANUAL' },
    ];
    for (const query of queries) {
      const expected = all.filter((entry) => has(entry, query));
      const { found, totals } = await searchPages(partner, '/api/v1/mapping-book/entries', 'entries', query);
      assert.deepEqual(
        found.map((entry) => entry.partnerHotelId),
        expected.map((entry) => entry.partnerHotelId),
        JSON.stringify(query),
      );
      assert.deepEqual([...totals], [expected.length], `${JSON.stringify(query)}: every page tells the total`);
      assert.deepEqual(found, expected, `${JSON.stringify(query)}: the entries as the listing shows them`);
    }
    assert.deepEqual(
      (await searchPages(partner, '/api/v1/mapping-book/entries', 'entries', { name: hotels[250]!.name })).found.map((entry) => [
        entry.partnerHotelId,
        entry.method,
      ]),
      [['P004', 'MANUAL']],
    );

    const refused = await api.request('GET', '/api/v1/mapping-book/entries?supplier=EXPEDIA', { as: partner });
    assert.deepEqual(
      [refused.status, refused.body.message],
      [400, 'supplier: your organization is not connected to EXPEDIA; answers show the codes of connected suppliers only.'],
    );
    const other = await api.newOrganization();
    const theirs = await api.request('GET', `/api/v1/mapping-book/entries?partnerHotelId=P005`, { as: other });
    assert.deepEqual(
      [theirs.status, theirs.body.entries, theirs.body.total],
      [200, [], 0],
      "another organization's book holds none of them",
    );
  });
});

describe("the mapping book's derived files", () => {
  it('are made again from the entries when they are gone: listings and searches answer the same', async () => {
    const partner = await api.newOrganization();
    await mappedJob(partner);
    // Gone before anything read them (a restore brings back the backed-up files bucket only).
    const s3 = new S3Client({
      region: api.config.region,
      endpoint: api.config.s3Endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const listed = await s3.send(
      new ListObjectsV2Command({ Bucket: api.config.resultsBucketName, Prefix: `${BOOK_DERIVED_PREFIX}${partner.organization.id}/` }),
    );
    const derived = (listed.Contents ?? []).map((object) => object.Key!);
    assert.ok(derived.length > 0, 'the write put its derived files in the results bucket');
    await resultObjectStoreOf(api.runtime).delete(derived);

    const all = (await searchPages(partner, '/api/v1/mapping-book/entries', 'entries', {})).found;
    assert.equal(all.length, rows.length);
    for (const status of ['MATCHED', 'REVIEW', 'UNMATCHED']) {
      const { found } = await searchPages(partner, '/api/v1/mapping-book/entries', 'entries', { status });
      assert.deepEqual(
        found,
        all.filter((entry) => entry.status === status),
        status,
      );
    }
    const name = fold(hotels[9]!.name)
      .split(' ')
      .sort((a, b) => b.length - a.length)[0]!;
    const { found, totals } = await searchPages(partner, '/api/v1/mapping-book/entries', 'entries', { name });
    const expected = all.filter((entry) => `${fold(entry.partner.name)}\t${fold(entry.referenceHotelName)}`.includes(name));
    assert.ok(expected.length > 0);
    assert.deepEqual(found, expected);
    assert.deepEqual([...totals], [expected.length]);
  });
});

describe('GET /api/v1/mapping/{jobId}/results, searched', () => {
  it('finds what a brute-force filter over every row finds, for each search and combinations with the filters, in pages, with the total', async () => {
    const partner = await api.newOrganization();
    for (const id of Object.values(SUPPLIER_IDS))
      assert.equal((await api.request('POST', `/api/v1/suppliers/${id}/connect`, { as: partner })).status, 201);
    const jobId = await mappedJob(partner);
    // A person's decisions: searches find the rows as decided.
    const decide = (json: unknown) => api.request('POST', `/api/v1/mapping/${jobId}/reviews`, { as: partner, json });
    assert.equal((await decide({ partnerHotelId: 'P001', decision: 'MATCH', referenceHotelId: hotels[200]!.id })).status, 200);
    assert.equal((await decide({ partnerHotelId: 'P002', decision: 'NO_MATCH' })).status, 200);
    const all = (await api.request('GET', `/api/v1/mapping/${jobId}/results?limit=1000`, { as: partner })).body.results as any[];
    assert.equal(all.length, rows.length);

    // The commonest word of four letters or more in the partner's names: several rows hold it.
    const counts = new Map<string, number>();
    for (const hotel of hotels.slice(0, 120))
      for (const name of new Set(fold(hotel.name).split(' '))) if (name.length >= 4) counts.set(name, (counts.get(name) ?? 0) + 1);
    const word = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const city = hotels[0]!.city!;
    const country = hotels[3]!.country!;
    const referenceHotelId = all.find((row) => row.status === 'MATCHED' && row.partnerHotelId !== 'P001')!.referenceHotelId;
    const has = (row: any, query: Record<string, string>) =>
      (query.name === undefined || `${fold(row.partnerHotelName)}\t${fold(row.referenceHotelName)}`.includes(fold(query.name))) &&
      (query.city === undefined || fold(row.partnerHotel?.city) === fold(query.city)) &&
      (query.country === undefined || toCountryCode(row.partnerHotel?.country) === toCountryCode(query.country)) &&
      (query.referenceHotelId === undefined || row.referenceHotelId === query.referenceHotelId) &&
      (query.partnerHotelId === undefined || row.partnerHotelId === query.partnerHotelId) &&
      (query.supplier === undefined || query.supplier.split(',').some((supplier) => supplier.toUpperCase() in row.supplierCodes)) &&
      (query.status === undefined || row.status === query.status) &&
      (query.method === undefined || row.method === query.method) &&
      (query.minScore === undefined || row.score >= Number(query.minScore));
    const queries: Record<string, string>[] = [
      { name: word },
      { name: word.toUpperCase() },
      { name: hotels[200]!.name },
      { city: city.toUpperCase() },
      { country },
      { country: toCountryCode(country)! },
      { referenceHotelId },
      { supplier: 'HOTELBEDS' },
      { supplier: 'expedia,HOTELBEDS' },
      { name: 'hotel', status: 'MATCHED' },
      { city, supplier: 'HOTELBEDS', minScore: '0.5' },
      { country, method: 'MANUAL' },
      { name: 'zzyzx', partnerHotelId: 'X2' },
      { name: 'no hotel is named so' },
    ];
    for (const query of queries) {
      const expected = all.filter((row) => has(row, query)).sort(byPartnerId);
      const { found, totals } = await searchAll(partner, jobId, query);
      assert.deepEqual(
        found.map((row) => row.partnerHotelId),
        expected.map((row) => row.partnerHotelId),
        JSON.stringify(query),
      );
      assert.deepEqual([...totals], [expected.length], `${JSON.stringify(query)}: every page tells the total`);
      assert.deepEqual(found, expected, `${JSON.stringify(query)}: the rows as the listing shows them`);
    }
    const found = (query: Record<string, string>) => all.filter((row) => has(row, query)).length;
    assert.deepEqual(
      [found({ name: word }) > 1, found({ city }) > 1, found({ supplier: 'HOTELBEDS' }) > 10],
      [true, true, true],
      `the searches find several rows: ${word}, ${city}`,
    );
    assert.deepEqual(
      (await searchAll(partner, jobId, { name: hotels[200]!.name })).found.map((row) => row.partnerHotelId),
      ['P001'],
      "a person's match is found by its hotel's name",
    );
  });

  it('refuses what it cannot search with a clear 400, and keeps another organization out', async () => {
    const partner = await api.newOrganization();
    const jobId = await mappedJob(partner);
    for (const [query, message] of [
      ['supplier=HOTELBEDS', /^supplier: your organization is not connected to HOTELBEDS/],
      ['country=Atlantis', /^country: "Atlantis" is not a country/],
      ['name=%21%21', /^name: give at least one letter or digit/],
      ['referenceHotelId=not-a-uuid', /^referenceHotelId: /],
      ['name=ritz&cursor=bm90LWEtY3Vyc29y', /^cursor: /],
    ] as const) {
      const refused = await api.request('GET', `/api/v1/mapping/${jobId}/results?${query}`, { as: partner });
      assert.equal(refused.status, 400, query);
      assert.equal(refused.body.error, 'Bad Request', query);
      assert.match(refused.body.message, message, query);
    }
    const other = await api.newOrganization();
    assert.equal((await api.request('GET', `/api/v1/mapping/${jobId}/results?name=hotel`, { as: other })).status, 404);
  });
});
