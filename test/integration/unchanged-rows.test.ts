/**
 * Rows unchanged since the mapping book's entry, through the local runtime: answered from the book
 * without the engine and not charged; changed and new rows mapped and charged; the book and its feed
 * left as they are by rows that changed nothing; another organization's book never used.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { logLinesDuring } from '../support/log-lines';
import { startTestApi, type Caller } from '../support/test-api';

const REFERENCE = { hotels: 300, seed: 11 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const api = await startTestApi();
await seedReferenceInventory(api.runtime, REFERENCE);

type Row = (string | number)[];
const HEADER = ['id', 'name', 'address', 'city', 'country', 'lat', 'lon'];
/** 30 reference hotels as they are, 8 hotels that exist nowhere, and hotel 0 listed a second time (the cross-row rule's case). */
const ROWS: Row[] = [
  ...hotels
    .slice(0, 30)
    .map((hotel, i) => [`P${i}`, hotel.name, hotel.address ?? '', hotel.city ?? '', hotel.country ?? '', hotel.lat!, hotel.lon!]),
  ...Array.from({ length: 8 }, (_, i) => [`X${i}`, `Zzyzx Qwerty Lodge ${i}`, '', 'Nowhere', 'Iceland', 63.1 + i / 100, -19.9]),
  [`Q0`, hotels[0]!.name, hotels[0]!.address ?? '', hotels[0]!.city ?? '', hotels[0]!.country ?? '', hotels[0]!.lat!, hotels[0]!.lon!],
];
const csv = (rows: Row[]) => [formatCsvRow(HEADER), ...rows.map((row) => formatCsvRow(row))].join('\n');

/** Uploads and maps the rows; the job as it completed, and how many rows the engine was asked (the chunks' log lines). */
async function mapInventory(as: Caller, rows: Row[]): Promise<{ job: any; engineRows: number }> {
  let jobId = '';
  const lines = await logLinesDuring(async () => {
    const form = new FormData();
    form.append('name', 'daily');
    form.append('file', new Blob([csv(rows)], { type: 'text/csv' }), 'hotels.csv');
    const uploaded = await api.request('POST', '/api/v1/partner-inventories', { as, body: form });
    assert.equal(uploaded.status, 201, uploaded.text);
    const created = await api.request('POST', '/api/v1/mapping', { as, json: { partnerInventoryId: uploaded.body.partnerInventoryId } });
    assert.equal(created.status, 201, created.text);
    jobId = created.body.mappingJobId;
    await api.messaging.idle();
  }, 'info');
  const job = (await api.request('GET', `/api/v1/mapping/${jobId}`, { as })).body;
  assert.deepEqual([job.status, job.bookWrite], ['COMPLETED', 'WRITTEN']);
  const chunks = lines.filter((line) => line.message === 'chunk mapped' && line.mappingJobId === jobId);
  assert.ok(chunks.length > 0, 'each chunk logs how many rows the engine answered');
  return { job, engineRows: chunks.reduce((sum, line) => sum + (line.mapped as number), 0) };
}

const results = async (as: Caller, jobId: string) => {
  const page = await api.request('GET', `/api/v1/mapping/${jobId}/results?limit=1000`, { as });
  assert.equal(page.status, 200, page.text);
  return page.body.results as any[];
};
const totalMappings = async (as: Caller) => (await api.request('GET', '/api/v1/billing/usage', { as })).body.totalMappings;
const bookPosition = async (as: Caller) => (await api.request('GET', '/api/v1/mapping-book', { as })).body.position;
const entry = async (as: Caller, partnerHotelId: string) =>
  (await api.request('GET', `/api/v1/mapping-book/entry?partnerHotelId=${partnerHotelId}`, { as })).body;

describe('a row unchanged since the mapping book took it', () => {
  it('is answered from the book and not charged: an identical re-upload maps nothing, charges nothing and changes nothing in the book or its feed', async () => {
    const partner = await api.newOrganization();
    const first = await mapInventory(partner, ROWS);
    assert.deepEqual([first.job.counts.processed, first.job.counts.unchanged, first.engineRows], [39, 0, 39]);
    assert.equal(await totalMappings(partner), 39);
    const firstResults = await results(partner, first.job.mappingJobId);
    assert.match(firstResults.find((row) => row.partnerHotelId === 'Q0').reason, /partner row P0/, 'the cross-row rule changed a row');
    // A person's decision on the book.
    const decided = await api.request('POST', '/api/v1/mapping-book/reviews', {
      as: partner,
      json: { partnerHotelId: 'P3', decision: 'MATCH', referenceHotelId: hotels[200]!.id },
    });
    assert.equal(decided.status, 200, decided.text);
    const position = await bookPosition(partner);

    const again = await mapInventory(partner, ROWS);
    assert.deepEqual([again.job.counts.processed, again.job.counts.unchanged, again.engineRows], [39, 39, 0]);
    assert.equal(await totalMappings(partner), 39, 'charged nothing');
    assert.deepEqual(await results(partner, again.job.mappingJobId), firstResults, 'the same results, the cross-row rule applied again');
    assert.equal(await bookPosition(partner), position, 'the feed did not move');
    const p3 = await entry(partner, 'P3');
    assert.deepEqual([p3.status, p3.method, p3.referenceHotelId], ['MATCHED', 'MANUAL', hotels[200]!.id], 'the decision stands');
  });

  it('maps and charges exactly the rows that changed or are new', async () => {
    const partner = await api.newOrganization();
    const first = await mapInventory(partner, ROWS);
    const firstResults = await results(partner, first.job.mappingJobId);
    // Two rows of forty changed (a name, a pin), one new.
    const changed = ROWS.map((row) =>
      row[0] === 'P4' ? [row[0], `${row[1]} Annex`, ...row.slice(2)] : row[0] === 'X1' ? [...row.slice(0, 5), 64.5, -20.5] : row,
    );
    const next = await mapInventory(partner, [
      ...changed,
      [
        `P40`,
        hotels[40]!.name,
        hotels[40]!.address ?? '',
        hotels[40]!.city ?? '',
        hotels[40]!.country ?? '',
        hotels[40]!.lat!,
        hotels[40]!.lon!,
      ],
    ]);
    assert.deepEqual([next.job.counts.processed, next.job.counts.unchanged, next.engineRows], [40, 37, 3]);
    assert.equal(await totalMappings(partner), 39 + 3);
    const nextResults = await results(partner, next.job.mappingJobId);
    const untouched = (rows: any[]) => rows.filter((row) => !['P4', 'X1', 'P40'].includes(row.partnerHotelId));
    assert.deepEqual(untouched(nextResults), untouched(firstResults));
    assert.equal(nextResults.find((row) => row.partnerHotelId === 'P4').partnerHotelName, `${hotels[4]!.name} Annex`);
    assert.equal(nextResults.find((row) => row.partnerHotelId === 'P40').referenceHotelId, hotels[40]!.id);
  });

  it("is another organization's to map and pay for: one book never answers for another", async () => {
    const [one, other] = [await api.newOrganization(), await api.newOrganization()];
    await mapInventory(one, ROWS);
    const theirs = await mapInventory(other, ROWS);
    assert.deepEqual([theirs.job.counts.unchanged, theirs.engineRows], [0, 39]);
    assert.equal(await totalMappings(other), 39);
  });
});
