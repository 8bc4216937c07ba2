/**
 * The matched hotel's supplier codes on every answer, through the local runtime: a job's results,
 * its export (CSV, JSON, XLSX), the mapping book, its export and feed, and find-match, each showing
 * the codes at the suppliers the organization is connected to when it reads, and no other.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { toCountryCode } from '../../shared/mapping';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { completedJob } from '../support/completed-job';
import { startTestApi, type Caller } from '../support/test-api';

const REFERENCE = { hotels: 300, seed: 5 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const byId = new Map(hotels.map((hotel) => [hotel.id, hotel]));
const api = await startTestApi();
await seedReferenceInventory(api.runtime, REFERENCE);
const SUPPLIER_IDS = { HOTELBEDS: '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0001', EXPEDIA: '0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0002' };

/** The first 30 reference hotels as a partner lists them, and three hotels that exist nowhere. */
const partnerRows = [
  ...hotels.slice(0, 30).map((hotel, i) => [`P${i}`, hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat, hotel.lon]),
  ...[0, 1, 2].map((i) => [`X${i}`, `Zzyzx Qwerty Lodge ${i}`, '', 'Nowhere', 'Iceland', 63.1 + i / 100, -19.9]),
];
const partnerCsv = [
  formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon']),
  ...partnerRows.map((row) => formatCsvRow(row)),
].join('\n');

/** The reference hotel's codes at `suppliers`, as a reader connected to them must see them. */
function expectedCodes(referenceHotelId: string | null, suppliers: readonly string[]): Record<string, string> {
  const codes = (referenceHotelId && byId.get(referenceHotelId)?.supplierCodes) || {};
  return Object.fromEntries(suppliers.flatMap((supplier) => (codes[supplier] ? [[supplier, codes[supplier]]] : [])));
}

const mapPartnerFile = (as: Caller) => completedJob(api, as, partnerCsv);

const results = async (as: Caller, jobId: string) => {
  const page = await api.request('GET', `/api/v1/mapping/${jobId}/results?limit=1000`, { as });
  assert.equal(page.status, 200, page.text);
  return page.body.results as any[];
};

async function jobExport(as: Caller, jobId: string, format: unknown): Promise<Buffer> {
  assert.equal((await api.request('PUT', '/api/v1/export-format', { as, json: format })).status, 200);
  const answer = await api.request('POST', `/api/v1/mapping/${jobId}/export`, { as });
  assert.equal(answer.status, 200, answer.text);
  return Buffer.from(await (await fetch(answer.body.fileUrl)).arrayBuffer());
}

/** The CSV lines of a file, split on commas (the fields asked for hold none). */
const csvCells = (bytes: Buffer) =>
  bytes
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((line) => line.split(','));

async function bookExport(as: Caller): Promise<Buffer> {
  if ((await api.request('POST', '/api/v1/mapping-book/export', { as })).status === 202) await api.messaging.idle();
  const ready = await api.request('POST', '/api/v1/mapping-book/export', { as });
  assert.equal(ready.status, 200, ready.text);
  return Buffer.from(await (await fetch(ready.body.fileUrl)).arrayBuffer());
}

describe('supplier codes on every answer', () => {
  it('shows the codes of the connected suppliers, and no other, on results, exports, the book and find-match; a disconnected one disappears', async () => {
    const partner = await api.newOrganization();
    for (const supplier of ['HOTELBEDS', 'EXPEDIA'] as const) {
      assert.equal((await api.request('POST', `/api/v1/suppliers/${SUPPLIER_IDS[supplier]}/connect`, { as: partner })).status, 201);
    }
    const both = ['HOTELBEDS', 'EXPEDIA'];
    const jobId = await mapPartnerFile(partner);

    const rows = await results(partner, jobId);
    const matched = rows.filter((row) => row.status === 'MATCHED');
    assert.ok(matched.length >= 25, `most copies match (${matched.length})`);
    const coded = matched.filter((row) => Object.keys(row.supplierCodes).length > 0);
    assert.ok(coded.length >= 10, `many matched hotels have codes at these suppliers (${coded.length})`);
    assert.ok(
      matched.some((row) => Object.keys(byId.get(row.referenceHotelId)!.supplierCodes).some((code) => !both.includes(code))),
      'some have codes at other suppliers too',
    );
    for (const row of matched) {
      const hotel = byId.get(row.referenceHotelId)!;
      assert.deepEqual(row.supplierCodes, expectedCodes(row.referenceHotelId, both), row.partnerHotelId);
      assert.deepEqual(
        [row.referenceHotelCity, row.referenceHotelCountryCode],
        [hotel.city, toCountryCode(hotel.country)],
        row.partnerHotelId,
      );
    }
    for (const row of rows.filter((result) => result.status === 'UNMATCHED')) {
      assert.deepEqual([row.supplierCodes, row.referenceHotelCity, row.referenceHotelCountryCode], [{}, null, null], row.partnerHotelId);
    }
    const rowOf = (id: string) => rows.find((row) => row.partnerHotelId === id)!;

    // The export: a column per connected supplier in CSV and XLSX, an object in JSON.
    const fields = ['partnerHotelId', 'mappingJobId', 'referenceHotelCountryCode', 'supplierCodes'];
    const csv = csvCells(await jobExport(partner, jobId, { format: 'csv', includeFields: fields }));
    assert.deepEqual(csv[0], [
      'partnerHotelId',
      'mappingJobId',
      'referenceHotelCountryCode',
      'supplierCodes.HOTELBEDS',
      'supplierCodes.EXPEDIA',
    ]);
    assert.equal(csv.length, rows.length + 1);
    for (const [id, job, country, hotelbeds, expedia] of csv.slice(1)) {
      const row = rowOf(id!);
      assert.deepEqual(
        [job, country, hotelbeds, expedia],
        [jobId, row.referenceHotelCountryCode ?? '', row.supplierCodes.HOTELBEDS ?? '', row.supplierCodes.EXPEDIA ?? ''],
        id,
      );
    }
    const json = JSON.parse(
      (await jobExport(partner, jobId, { format: 'json', includeFields: ['partnerHotelId', 'supplierCodes'] })).toString('utf8'),
    );
    assert.deepEqual(
      json.map((line: any) => [line.partnerHotelId, line.supplierCodes]).sort(),
      rows.map((row) => [row.partnerHotelId, row.supplierCodes]).sort(),
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      (await jobExport(partner, jobId, { format: 'xlsx', includeFields: ['partnerHotelId', 'supplierCodes'] })) as never,
    );
    const sheet = workbook.worksheets[0]!;
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), [
      'partnerHotelId',
      'supplierCodes.HOTELBEDS',
      'supplierCodes.EXPEDIA',
    ]);
    for (let line = 2; line <= sheet.rowCount; line++) {
      const [id, hotelbeds, expedia] = (sheet.getRow(line).values as unknown[]).slice(1);
      assert.deepEqual(
        [hotelbeds ?? null, expedia ?? null],
        [rowOf(String(id)).supplierCodes.HOTELBEDS ?? null, rowOf(String(id)).supplierCodes.EXPEDIA ?? null],
        String(id),
      );
    }

    // The book: its entries, its feed and its export.
    const entries = (await api.request('GET', '/api/v1/mapping-book/entries?limit=1000', { as: partner })).body.entries as any[];
    assert.equal(entries.length, rows.length);
    for (const entry of entries) assert.deepEqual(entry.supplierCodes, rowOf(entry.partnerHotelId).supplierCodes, entry.partnerHotelId);
    const changes = (await api.request('GET', '/api/v1/mapping-book/changes?limit=1000', { as: partner })).body.changes as any[];
    for (const change of changes) assert.deepEqual(change.supplierCodes, rowOf(change.partnerHotelId).supplierCodes, change.partnerHotelId);
    assert.equal(
      (
        await api.request('PUT', '/api/v1/export-format', {
          as: partner,
          json: { format: 'csv', includeFields: ['partnerHotelId', 'supplierCodes'] },
        })
      ).status,
      200,
    );
    const book = csvCells(await bookExport(partner));
    assert.deepEqual(book[0], ['partnerHotelId', 'supplierCodes.HOTELBEDS', 'supplierCodes.EXPEDIA']);
    for (const [id, hotelbeds, expedia] of book.slice(1))
      assert.deepEqual([hotelbeds, expedia], [rowOf(id!).supplierCodes.HOTELBEDS ?? '', rowOf(id!).supplierCodes.EXPEDIA ?? ''], id);

    // Find-match, from the engine and from the book.
    const asked = coded.slice(0, 3).map((row) => hotels[Number(row.partnerHotelId.slice(1))]!);
    const hotelsAsked = asked.map((hotel, i) => ({
      id: `F${i}`,
      name: hotel.name,
      address: hotel.address,
      city: hotel.city,
      country: hotel.country,
      lat: hotel.lat,
      lon: hotel.lon,
    }));
    const found = await api.request('POST', '/api/v1/mapping/match', { as: partner, json: { hotels: hotelsAsked, view: 'ENGINE' } });
    assert.equal(found.status, 200, found.text);
    for (const answer of found.body.results)
      assert.deepEqual(answer.supplierCodes, expectedCodes(answer.referenceHotelId, both), answer.partnerHotelId);
    const fromBook = await api.request('POST', '/api/v1/mapping/match', {
      as: partner,
      json: { hotels: [{ id: coded[0]!.partnerHotelId, name: coded[0]!.partnerHotel.name, ...coded[0]!.partnerHotel }] },
    });
    assert.deepEqual([fromBook.body.results[0].from, fromBook.body.results[0].supplierCodes], ['BOOK', coded[0]!.supplierCodes]);

    // Disconnected, EXPEDIA's codes go from every later read.
    assert.equal((await api.request('DELETE', `/api/v1/suppliers/${SUPPLIER_IDS.EXPEDIA}/disconnect`, { as: partner })).status, 204);
    const after = await results(partner, jobId);
    for (const row of after) assert.deepEqual(row.supplierCodes, expectedCodes(row.referenceHotelId, ['HOTELBEDS']), row.partnerHotelId);
    assert.ok(
      after.some((row) => row.supplierCodes.HOTELBEDS),
      'HOTELBEDS codes stay',
    );
    const entry = (await api.request('GET', `/api/v1/mapping-book/entry?partnerHotelId=${coded[0]!.partnerHotelId}`, { as: partner })).body;
    assert.deepEqual(entry.supplierCodes, expectedCodes(coded[0]!.referenceHotelId, ['HOTELBEDS']));
    const again = await api.request('POST', '/api/v1/mapping/match', { as: partner, json: { hotels: hotelsAsked, view: 'ENGINE' } });
    for (const answer of again.body.results) assert.ok(!('EXPEDIA' in answer.supplierCodes), answer.partnerHotelId);
    assert.deepEqual(csvCells(await jobExport(partner, jobId, { format: 'csv', includeFields: ['partnerHotelId', 'supplierCodes'] }))[0], [
      'partnerHotelId',
      'supplierCodes.HOTELBEDS',
    ]);
    assert.deepEqual(
      csvCells(await bookExport(partner))[0],
      ['partnerHotelId', 'supplierCodes.HOTELBEDS'],
      "the book's ready file is made again",
    );
  });

  it('shows an organization the codes of its own connections only: none connected, none shown', async () => {
    const connected = await api.newOrganization();
    assert.equal((await api.request('POST', `/api/v1/suppliers/${SUPPLIER_IDS.HOTELBEDS}/connect`, { as: connected })).status, 201);
    const other = await api.newOrganization();
    const [theirs, mine] = [await mapPartnerFile(connected), await mapPartnerFile(other)];
    assert.ok((await results(connected, theirs)).some((row) => row.supplierCodes.HOTELBEDS));
    for (const row of await results(other, mine)) assert.deepEqual(row.supplierCodes, {}, row.partnerHotelId);
    for (const entry of (await api.request('GET', '/api/v1/mapping-book/entries', { as: other })).body.entries)
      assert.deepEqual(entry.supplierCodes, {});
    assert.equal(
      (await api.request('GET', `/api/v1/mapping/${theirs}/results`, { as: other })).status,
      404,
      "another organization's job stays out of reach",
    );
  });
});
