/**
 * One result per job: the cross-row rule (one reference hotel, one partner row) runs once over a
 * job's chunks, so a job of several chunks gives exactly what `npm run map` gives on the same files;
 * and the same whether its finishing stage runs in one part or in many.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { jobObjects } from '../../shared/mapping-jobs/job';
import { chunkPorts } from '../../shared/mapping-jobs/services';
import { mappingJobStoreOf } from '../../shared/mapping-jobs/store';
import { inventoryChunkRows } from '../../shared/partner-inventories';
import { formatCsvRow, type CsvValue } from '../../shared/platform/files/csv-format';
import { startTestApi } from '../support/test-api';

const REFERENCE = { hotels: 300, seed: 5 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })].filter(
  (hotel) => hotel.lat !== undefined && hotel.address,
);
const api = await startTestApi();
await seedReferenceInventory(api.runtime, REFERENCE);
const directory = mkdtempSync(path.join(tmpdir(), 'mapping-claims-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const METERS_NORTH = 1 / 111_195;
/** The rows of each of the file's chunks: a file of 4,500 rows is cut into chunks of 2,000. */
const CHUNK_ROWS = 2_000;
const CLAIMED = 6;

/** A row's id: its place in the file first, so that the chunks, in id order, keep the file's order. */
const idOf = (position: number, name: string) => `${String(position).padStart(4, '0')}${name}`;
const idA = (k: number) => idOf(k, `A${k}`);
const idB = (k: number) => idOf(CHUNK_ROWS + k, `B${k}`);
const idC = (k: number) => idOf(2 * CHUNK_ROWS + k, `C${k}`);

/**
 * Three chunks. Each of CLAIMED hotels is claimed in the first chunk by its own record, in the
 * second by a row with its name and address but a pin 400 m north (another row of the partner's,
 * not the same one listed twice), and in the third by the first row again, 20 m off (listed twice).
 * The other rows are places the reference lacks.
 */
function partnerCsv(): string {
  const rows: CsvValue[][] = [];
  const invented = (id: number): CsvValue[] => [
    idOf(id, `X${id}`),
    `Zzyzx Qwerty Lodge ${id}`,
    '',
    'Nowhere',
    'Iceland',
    63.1 + (id % 500) / 1000,
    -19.9,
  ];
  for (let position = 0; position < 2 * CHUNK_ROWS + 500; position++) {
    const chunk = Math.floor(position / CHUNK_ROWS);
    const k = position % CHUNK_ROWS;
    const hotel = hotels[k];
    if (k >= CLAIMED || !hotel) rows.push(invented(position));
    else if (chunk === 0) rows.push([idA(k), hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat, hotel.lon]);
    else if (chunk === 1)
      rows.push([idB(k), hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat! + 400 * METERS_NORTH, hotel.lon]);
    else rows.push([idC(k), hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat! + 20 * METERS_NORTH, hotel.lon]);
  }
  return [formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon']), ...rows.map((row) => formatCsvRow(row))].join('\n');
}

function runMapCli(referenceFile: string, partnerFile: string, out: string): void {
  const cli = fileURLToPath(new URL('../../infra/cli/map.ts', import.meta.url));
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', cli, '--reference', referenceFile, '--partner', partnerFile, '--out', out],
    { encoding: 'utf8' },
  );
  assert.equal(result.status, 0, result.stderr);
}

describe('a job of several chunks', () => {
  it('resolves rows in different chunks that claim one hotel once, over the whole job, exactly as npm run map does', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    const csv = partnerCsv();
    const form = new FormData();
    form.append('name', 'claims across chunks');
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'hotels.csv');
    const uploaded = await api.request('POST', '/api/v1/partner-inventories', { as: caller, body: form });
    assert.equal(uploaded.status, 201, uploaded.text);
    assert.equal(inventoryChunkRows(uploaded.body.hotelCount), CHUNK_ROWS);
    const created = await api.request('POST', '/api/v1/mapping', {
      as: caller,
      json: { partnerInventoryId: uploaded.body.partnerInventoryId },
    });
    assert.equal(created.status, 201, created.text);
    await api.messaging.idle();
    const job = (await api.request('GET', `/api/v1/mapping/${created.body.mappingJobId}`, { as: caller })).body;
    assert.equal(job.status, 'COMPLETED');

    const chunkFiles: string[] = [];
    for (let chunk = 0; chunk < 3; chunk++) {
      const file = await chunkPorts(api.runtime).readResultsFile(
        jobObjects.results({ organizationId: caller.organization.id, id: job.mappingJobId }, chunk),
      );
      assert.ok(file, `chunk ${chunk}`);
      chunkFiles.push(file);
    }
    const jobLines = chunkFiles.join('\n').split('\n');
    const byId = new Map(jobLines.map((line) => JSON.parse(line)).map((result) => [result.partnerHotelId, result]));

    // The rule worked across chunks: the first row keeps each hotel, the same row listed again in
    // the third chunk keeps it too, the row 400 m off in the second goes to a reviewer.
    for (let k = 0; k < CLAIMED; k++) {
      const [a, b, c] = [byId.get(idA(k)), byId.get(idB(k)), byId.get(idC(k))];
      assert.deepEqual([a.status, a.referenceHotelId], ['MATCHED', hotels[k]!.id], JSON.stringify(a));
      assert.deepEqual([c.status, c.referenceHotelId], ['MATCHED', hotels[k]!.id], JSON.stringify(c));
      assert.match(c.reason, new RegExp(`same hotel as partner row ${idA(k)}`));
      if (b.referenceHotelId === hotels[k]!.id && b.reason?.includes('also claimed')) assert.equal(b.status, 'REVIEW');
    }
    const reviewed = [...byId.values()].filter((result) => /also claimed by partner row \d{4}A/.test(result.reason ?? ''));
    assert.ok(reviewed.length > 0, 'no row of the second chunk lost its claim');

    // The results endpoint and the job's counts say what the files say.
    const page = await api.request('GET', `/api/v1/mapping/${job.mappingJobId}/results?status=REVIEW&limit=100`, { as: caller });
    assert.equal(page.status, 200, page.text);
    for (const result of reviewed)
      assert.ok(
        page.body.results.some((row: { partnerHotelId: string }) => row.partnerHotelId === result.partnerHotelId),
        result.partnerHotelId,
      );
    const statuses = [...byId.values()].map((result) => result.status);
    assert.deepEqual(
      [job.counts.matched, job.counts.review, job.counts.unmatched],
      ['MATCHED', 'REVIEW', 'UNMATCHED'].map((status) => statuses.filter((s) => s === status).length),
    );

    // The same inventory mapped by another organization with the finishing stage cut into a views
    // part per chunk and a claims part per 1,000 rows: the same results, pages and counts.
    const inParts = await startTestApi({
      provision: false,
      config: {
        ...api.config,
        variables: { ...api.config.variables, FINISHING_CLAIM_PART_ROWS: '1000', FINISHING_VIEW_PART_ROWS: String(CHUNK_ROWS) },
      },
    });
    const other = await inParts.newOrganization({ planType: 'ENTERPRISE' });
    const form2 = new FormData();
    form2.append('name', 'claims across chunks, in parts');
    form2.append('file', new Blob([csv], { type: 'text/csv' }), 'hotels.csv');
    const uploaded2 = await inParts.request('POST', '/api/v1/partner-inventories', { as: other, body: form2 });
    const created2 = await inParts.request('POST', '/api/v1/mapping', {
      as: other,
      json: { partnerInventoryId: uploaded2.body.partnerInventoryId },
    });
    await inParts.messaging.idle();
    const stored = (await mappingJobStoreOf(inParts.runtime).get(other.organization.id, created2.body.mappingJobId))!;
    // REVIEW rows are all in the second chunk: one part holds them, nothing to merge.
    assert.deepEqual(
      { ...(await mappingJobStoreOf(inParts.runtime).finishing(stored))!.plan },
      { claimParts: 5, viewParts: 3, merges: ['MATCHED#FUZZY', 'UNMATCHED#NONE'] },
    );
    const job2 = (await inParts.request('GET', `/api/v1/mapping/${created2.body.mappingJobId}`, { as: other })).body;
    assert.equal(job2.status, 'COMPLETED');
    assert.deepEqual(job2.counts, job.counts);
    for (let chunk = 0; chunk < 3; chunk++)
      assert.equal(
        await chunkPorts(inParts.runtime).readResultsFile(jobObjects.results(stored, chunk)),
        chunkFiles[chunk],
        `chunk ${chunk}`,
      );
    for (const query of ['status=REVIEW&limit=100', 'status=MATCHED&limit=1000', 'limit=1000', 'status=UNMATCHED&limit=50']) {
      const [one, many] = await Promise.all([
        api.request('GET', `/api/v1/mapping/${job.mappingJobId}/results?${query}`, { as: caller }),
        inParts.request('GET', `/api/v1/mapping/${job2.mappingJobId}/results?${query}`, { as: other }),
      ]);
      assert.deepEqual(
        many.body.results.map((row: { partnerHotelId: string }) => row.partnerHotelId),
        one.body.results.map((row: { partnerHotelId: string }) => row.partnerHotelId),
        query,
      );
    }

    // npm run map on the same files: the same results, byte for byte (a job's also keep, for the
    // mapping book, each row's source, partner facts, basis and own answer where the rule changed it).
    const referenceFile = path.join(directory, 'reference.jsonl');
    writeFileSync(
      referenceFile,
      [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })].map((hotel) => JSON.stringify(hotel)).join('\n'),
    );
    const partnerFile = path.join(directory, 'partner.csv');
    writeFileSync(partnerFile, csv);
    const out = path.join(directory, 'results.jsonl');
    runMapCli(referenceFile, partnerFile, out);
    const cliLines = readFileSync(out, 'utf8').trimEnd().split('\n');
    assert.equal(cliLines.length, jobLines.length);
    const withoutBookFacts = (line: string) => {
      const { source: _source, partner: _partner, basis: _basis, unclaimed: _unclaimed, ...result } = JSON.parse(line);
      return JSON.stringify(result);
    };
    assert.deepEqual(cliLines, jobLines.map(withoutBookFacts));
  });
});
