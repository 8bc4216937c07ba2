/**
 * Exports of large jobs through the local runtime: above EXPORT_SYNC_MAX_ROWS (lowered to 30 rows
 * here) the request answers 202 with Retry-After and the `mapping-exports` worker writes the file;
 * the same request then answers 200 with its URL. One export per job at a time, whoever asks and
 * however often; a review or a new format makes the next request prepare a new one.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { mappingExportQueue } from '../../shared/mapping-jobs';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import { completedJob } from '../support/completed-job';
import { startTestApi, type Caller } from '../support/test-api';
import ExcelJS from 'exceljs';

const REFERENCE = { hotels: 300, seed: 5 };
const hotels = [...generateReferenceHotels({ count: REFERENCE.hotels, seed: REFERENCE.seed })];
const SYNC_MAX_ROWS = 30;
const api = await startTestApi({ config: { variables: { EXPORT_SYNC_MAX_ROWS: String(SYNC_MAX_ROWS) } } });
await seedReferenceInventory(api.runtime, REFERENCE);

const QUEUE = mappingExportQueue.name;
const waiting = () => api.messaging.waiting(QUEUE).length;
const exportOf = (as: Caller, jobId: string) => api.request('POST', `/api/v1/mapping/${jobId}/export`, { as });
const fileKey = (url: string) => new URL(url).pathname;

/** A completed job of the first `rows` hotels, each processed. */
async function jobOfRows(as: Caller, rows: number): Promise<string> {
  const csv = [formatCsvRow(['id', 'name', 'address', 'city', 'country', 'lat', 'lon'])];
  for (const [i, hotel] of hotels.slice(0, rows).entries())
    csv.push(formatCsvRow([`P${i}`, hotel.name, hotel.address, hotel.city, hotel.country, hotel.lat, hotel.lon]));
  const jobId = await completedJob(api, as, csv.join('\n'));
  const job = await api.request('GET', `/api/v1/mapping/${jobId}`, { as });
  assert.equal(job.body.counts.processed, rows);
  return jobId;
}

/** The exported CSV's rows by partner id. */
async function csvRows(url: string): Promise<Map<string, string>> {
  const lines = (await (await fetch(url)).text()).trimEnd().split('\n');
  assert.ok(lines[0]!.startsWith('partnerHotelId,'), lines[0]);
  return new Map(lines.slice(1).map((line) => [line.split(',')[0]!, line]));
}

describe('POST /api/v1/mapping/{jobId}/export of a large job', () => {
  it(`answers a job of up to ${SYNC_MAX_ROWS} rows at once, as always, and queues nothing`, async () => {
    const caller = await api.newOrganization();
    const jobId = await jobOfRows(caller, SYNC_MAX_ROWS);
    const exported = await exportOf(caller, jobId);
    assert.equal(exported.status, 200, exported.text);
    assert.equal(exported.body.rowCount, SYNC_MAX_ROWS);
    assert.equal((await csvRows(exported.body.fileUrl)).size, SYNC_MAX_ROWS);
    assert.equal(waiting(), 0);
  });

  it('answers 202 with Retry-After while one export is prepared, however many ask, then 200 with every row', async () => {
    const caller = await api.newOrganization();
    const jobId = await jobOfRows(caller, 45);

    const first = await Promise.all(Array.from({ length: 5 }, () => exportOf(caller, jobId)));
    for (const answer of first) {
      assert.equal(answer.status, 202, answer.text);
      assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
      assert.ok(Number(answer.headers.get('retry-after')) >= 5 && Number(answer.headers.get('retry-after')) <= 60);
      assert.deepEqual(answer.body, { ...first[0]!.body });
    }
    assert.equal(first[0]!.body.status, 'PREPARING');
    assert.equal(first[0]!.body.requestedAt, api.clock.now().toISOString());
    assert.equal(first[0]!.body.format, 'csv');
    assert.equal(first[0]!.body.compression, 'none');
    assert.equal(first[0]!.body.rowCount, 45);
    assert.equal(first[0]!.body.fields[0], 'partnerHotelId');
    assert.equal(waiting(), 1, 'five requests at once queued one export');

    const again = await exportOf(caller, jobId);
    assert.equal(again.status, 202);
    assert.equal(again.body.requestedAt, first[0]!.body.requestedAt);
    assert.equal(waiting(), 1, 'asking again while it is prepared queues nothing more');

    await api.messaging.idle();
    const ready = await exportOf(caller, jobId);
    assert.equal(ready.status, 200, ready.text);
    assert.deepEqual(
      { ...ready.body, fileUrl: undefined },
      {
        fileUrl: undefined,
        expiresAt: new Date(api.clock.now().getTime() + 3_600_000).toISOString(),
        format: 'csv',
        compression: 'none',
        fields: first[0]!.body.fields,
        rowCount: 45,
      },
    );
    const rows = await csvRows(ready.body.fileUrl);
    assert.deepEqual([...rows.keys()].sort(), Array.from({ length: 45 }, (_, i) => `P${i}`).sort());

    api.clock.advance(60_000);
    const later = await exportOf(caller, jobId);
    assert.equal(later.status, 200);
    assert.equal(fileKey(later.body.fileUrl), fileKey(ready.body.fileUrl), 'the ready file, handed out again');
    assert.equal(later.body.expiresAt, new Date(api.clock.now().getTime() + 3_600_000).toISOString(), 'with a new URL');
    assert.equal(waiting(), 0);
  });

  it('prepares a new export after a review or a format change; a format saved while one is prepared applies to the next', async () => {
    const caller = await api.newOrganization();
    const jobId = await jobOfRows(caller, 40);
    assert.equal((await exportOf(caller, jobId)).status, 202);
    await api.messaging.idle();
    const before = await exportOf(caller, jobId);
    assert.equal(before.status, 200);
    assert.match((await csvRows(before.body.fileUrl)).get('P0')!, /,MATCHED,FUZZY,/);

    const review = await api.request('POST', `/api/v1/mapping/${jobId}/reviews`, {
      as: caller,
      json: { partnerHotelId: 'P0', decision: 'NO_MATCH' },
    });
    assert.equal(review.status, 200, review.text);
    assert.equal((await exportOf(caller, jobId)).status, 202, 'the ready file predates the review');
    await api.messaging.idle();
    const reviewed = await exportOf(caller, jobId);
    assert.equal(reviewed.status, 200);
    assert.notEqual(fileKey(reviewed.body.fileUrl), fileKey(before.body.fileUrl));
    assert.match((await csvRows(reviewed.body.fileUrl)).get('P0')!, /,UNMATCHED,MANUAL,/);

    const saveFormat = async (json: unknown) =>
      assert.equal((await api.request('PUT', '/api/v1/export-format', { as: caller, json })).status, 200);
    await saveFormat({ format: 'jsonl', includeFields: ['partnerHotelId', 'status'] });
    const jsonl = await exportOf(caller, jobId);
    assert.equal(jsonl.status, 202);
    assert.equal(jsonl.body.format, 'jsonl');
    await saveFormat({ format: 'json', includeFields: ['partnerHotelId'] });
    const whilePrepared = await exportOf(caller, jobId);
    assert.equal(whilePrepared.status, 202);
    assert.equal(whilePrepared.body.format, 'jsonl', 'the export under way finishes in its own format');
    assert.equal(waiting(), 1);

    await api.messaging.idle();
    const next = await exportOf(caller, jobId);
    assert.equal(next.status, 202, 'the ready JSON Lines file is not the saved format: the JSON one is prepared');
    assert.equal(next.body.format, 'json');
    await api.messaging.idle();
    const json = await exportOf(caller, jobId);
    assert.equal(json.status, 200);
    assert.equal(json.body.format, 'json');
    const rows = JSON.parse(await (await fetch(json.body.fileUrl)).text()) as { partnerHotelId: string }[];
    assert.equal(rows.length, 40);
    assert.deepEqual(rows[0], { partnerHotelId: 'P0' });
  });

  it('prepares again an export whose message could not be sent, or that is overdue; the late message then does nothing', async () => {
    const caller = await api.newOrganization();
    const jobId = await jobOfRows(caller, 35);

    api.messaging.refuseSends(QUEUE, 1);
    assert.equal((await exportOf(caller, jobId)).status, 500);
    const retried = await exportOf(caller, jobId);
    assert.equal(retried.status, 202, 'the export the refused send claimed was given up');
    assert.equal(waiting(), 1);

    // Its worker never ran (a lost or stuck message): twice the worker's timeout later, the next request prepares it again.
    api.clock.advance(2 * mappingExportQueue.lambda.timeoutSeconds * 1000);
    assert.equal((await exportOf(caller, jobId)).body.requestedAt, retried.body.requestedAt, 'not overdue yet');
    assert.equal(waiting(), 1);
    api.clock.advance(1_000);
    const overdue = await exportOf(caller, jobId);
    assert.equal(overdue.status, 202);
    assert.equal(overdue.body.requestedAt, api.clock.now().toISOString());
    assert.equal(waiting(), 2);

    await api.messaging.idle();
    const ready = await exportOf(caller, jobId);
    assert.equal(ready.status, 200);
    assert.equal((await csvRows(ready.body.fileUrl)).size, 35);
    assert.deepEqual(
      api.messaging.deadLetters.filter((letter) => letter.queue === QUEUE),
      [],
    );
  });

  it('writes XLSX: one sheet, the header row, the same cells as the CSV file, numbers as numbers and text as text', async () => {
    const caller = await api.newOrganization();
    const jobId = await jobOfRows(caller, 12);
    const csv = await exportOf(caller, jobId);
    const csvLines = (await (await fetch(csv.body.fileUrl)).text()).trimEnd().split('\n');
    assert.equal((await api.request('PUT', '/api/v1/export-format', { as: caller, json: { format: 'xlsx' } })).status, 200);
    const exported = await exportOf(caller, jobId);
    assert.equal(exported.status, 200, exported.text);
    assert.deepEqual([exported.body.format, exported.body.compression, exported.body.rowCount], ['xlsx', 'none', 12]);
    assert.match(fileKey(exported.body.fileUrl), /\.xlsx$/);
    const download = await fetch(exported.body.fileUrl);
    assert.equal(
      download.headers.get('content-disposition'),
      `attachment; filename="mapping-${jobId}.xlsx"`,
      'saved under the documented name',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await download.arrayBuffer()) as never);
    assert.deepEqual(
      workbook.worksheets.map((sheet) => sheet.name),
      ['Mappings'],
    );
    const sheet = workbook.worksheets[0]!;
    const rows = sheet.getSheetValues().slice(1) as unknown[][];
    assert.equal(rows.length, 13);
    // Each row as the CSV file writes it: the sheet's cells are the file's fields.
    const columns = rows[0]!.length - 1;
    const asCsv = rows.map((cells) =>
      formatCsvRow(Array.from({ length: columns }, (_, i) => (cells[i + 1] ?? null) as string | number | null)),
    );
    assert.deepEqual(asCsv, csvLines);
    const header = rows[0]!.slice(1) as string[];
    const first = sheet.getRow(2);
    assert.equal(first.getCell(header.indexOf('partnerHotelId') + 1).type, ExcelJS.ValueType.String);
    assert.equal(first.getCell(header.indexOf('score') + 1).type, ExcelJS.ValueType.Number);
  });

  it("answers another organization 404 for the job's export, and changes nothing", async () => {
    const owner = await api.newOrganization();
    const other = await api.newOrganization();
    const jobId = await jobOfRows(owner, 32);
    assert.equal((await exportOf(owner, jobId)).status, 202);

    const foreign = await exportOf(other, jobId);
    assert.equal(foreign.status, 404);
    assert.deepEqual(Object.keys(foreign.body).sort(), ['error', 'message']);
    assert.equal(waiting(), 1);
    await api.messaging.idle();
    assert.equal((await exportOf(other, jobId)).status, 404, 'nor its ready file');
    assert.equal((await exportOf(owner, jobId)).status, 200);
  });
});
