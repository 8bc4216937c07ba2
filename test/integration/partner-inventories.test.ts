/**
 * Partner inventories through the local runtime: direct multipart uploads, presigned uploads with
 * asynchronous validation on the in-process queue, listing, reading, deleting, and tenant isolation.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { inventoryStoreOf } from '../../shared/partner-inventories';
import { objectStoreOf } from '../../shared/platform/objects/services';
import ExcelJS from 'exceljs';
import { seedReferenceInventory } from '../../infra/local/seed';
import { MAX_QUEUE_DELAY_SECONDS } from '../../shared/platform/queue/queue';
import { cutOffAt, objectKeysUnder } from '../support/cut-off';
import { startTestApi, type Caller } from '../support/test-api';
import { hotelColumns, parquetFile } from '../support/parquet-files';

const api = await startTestApi();
const BASE = '/api/v1/partner-inventories';

const GOOD_CSV = [
  'id,name,address,city,country,lat,lon',
  'P1,Hotel Alpha,1 Rue de Rivoli,Paris,France,48.8606,2.3376',
  'P2,Hotel Beta,,Lyon,FR,45.7640,4.8357',
  'P3,,no name here,Lyon,FR,,',
  'P4,Hotel Delta,,Nice,FR,north,7.26',
  'P5,Hotel Epsilon,,Nice,FR,,',
].join('\n');
const NO_GOOD_ROW_CSV = 'id,name\n,Nameless id\nX2,\n';

function form(fields: Record<string, string>, file?: { name: string; data: string }): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file) data.append('file', new Blob([file.data], { type: 'text/csv' }), file.name);
  return data;
}

const upload = (as: Caller, fields: Record<string, string>, file?: { name: string; data: string }) =>
  api.request('POST', BASE, { as, body: form(fields, file) });

async function presignedUpload(as: Caller, fileName: string, data: string | Buffer | undefined, extra: Record<string, string> = {}) {
  const created = await api.request('POST', `${BASE}/uploads`, {
    as,
    json: { name: 'Big file', fileName, sizeBytes: Buffer.byteLength(data ?? 'x'), ...extra },
  });
  assert.equal(created.status, 201, created.text);
  if (data !== undefined) {
    const put = await fetch(created.body.upload.url, { method: 'PUT', headers: created.body.upload.headers, body: data });
    assert.equal(put.status, 200, await put.text());
  }
  return created.body as { partnerInventoryId: string; upload: { url: string } };
}

async function assertNoInventories(caller: Caller) {
  const listed = await api.request('GET', BASE, { as: caller });
  assert.deepEqual(listed.body, { inventories: [], nextCursor: null });
}

describe('POST /api/v1/partner-inventories (direct upload)', () => {
  it('validates the file at once: 201 READY with counts, the first rejected rows, and a link to all of them', async () => {
    const caller = await api.newOrganization();
    const response = await upload(caller, { name: 'Summer contracts', supplierCode: 'hotelbeds' }, { name: 'hotels.csv', data: GOOD_CSV });
    assert.equal(response.status, 201, response.text);
    const inventory = response.body;
    assert.match(inventory.partnerInventoryId, /^[0-9a-f-]{36}$/);
    assert.equal(inventory.name, 'Summer contracts');
    assert.equal(inventory.supplierCode, 'HOTELBEDS');
    assert.equal(inventory.status, 'READY');
    assert.equal(inventory.format, 'csv');
    assert.equal(inventory.fileName, 'hotels.csv');
    assert.equal(inventory.hotelCount, 3);
    assert.equal(inventory.rejectedCount, 2);
    assert.deepEqual(inventory.rejectedSample, [
      { line: 4, reason: 'name is missing' },
      { line: 5, reason: 'lat "north" is not a number' },
    ]);
    assert.equal(inventory.createdAt, api.clock.now().toISOString());
    const rejected = await fetch(inventory.rejectedRowsUrl);
    assert.equal(rejected.status, 200);
    assert.equal(await rejected.text(), 'line,reason\n4,name is missing\n5,"lat ""north"" is not a number"\n');

    const read = await api.request('GET', `${BASE}/${inventory.partnerInventoryId}`, { as: caller });
    assert.equal(read.status, 200);
    assert.deepEqual({ ...read.body, rejectedRowsUrl: undefined }, { ...inventory, rejectedRowsUrl: undefined });
  });

  it('refuses a file without one usable row with 400, and stores nothing', async () => {
    const caller = await api.newOrganization();
    const response = await upload(caller, { name: 'Broken' }, { name: 'hotels.csv', data: NO_GOOD_ROW_CSV });
    assert.equal(response.status, 400);
    assert.equal(response.body.error, 'Bad Request');
    assert.match(response.body.message, /no usable hotel row \(line 2: id is missing; line 3: name is missing\)/);
    await assertNoInventories(caller);
  });

  it('refuses an unreadable file, another format, a missing name or a missing file, storing nothing', async () => {
    const caller = await api.newOrganization();
    const unreadable = await upload(caller, { name: 'Bad' }, { name: 'hotels.json', data: '[{"id": "a", ' });
    assert.equal(unreadable.status, 400);
    assert.match(unreadable.body.message, /cannot be read/);
    const pdf = await upload(caller, { name: 'Bad' }, { name: 'hotels.pdf', data: GOOD_CSV });
    assert.equal(pdf.status, 415);
    assert.match(pdf.body.message, /hotels\.pdf is not a \.csv/);
    const unnamed = await upload(caller, {}, { name: 'hotels.csv', data: GOOD_CSV });
    assert.equal(unnamed.status, 400);
    assert.equal(unnamed.body.message, 'name is required.');
    const badSupplier = await upload(caller, { name: 'x', supplierCode: 'not a code!' }, { name: 'hotels.csv', data: GOOD_CSV });
    assert.equal(badSupplier.status, 400);
    assert.match(badSupplier.body.message, /^supplierCode: must be a supplier code/);
    const noFile = await upload(caller, { name: 'x' });
    assert.equal(noFile.status, 400);
    await assertNoInventories(caller);
  });
});

describe('presigned upload (any size)', () => {
  it('hands out a PUT URL, validates on the queue after complete, and ends READY', async () => {
    const caller = await api.newOrganization();
    const created = await api.request('POST', `${BASE}/uploads`, {
      as: caller,
      json: { name: 'Full list', fileName: 'all-hotels.csv', sizeBytes: Buffer.byteLength(GOOD_CSV) },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.status, 'UPLOADING');
    assert.equal(created.body.upload.method, 'PUT');
    assert.deepEqual(created.body.upload.headers, { 'Content-Type': 'text/csv', 'Content-Length': String(Buffer.byteLength(GOOD_CSV)) });
    assert.equal(created.body.upload.expiresAt, new Date(api.clock.now().getTime() + 3_600_000).toISOString());
    const id = created.body.partnerInventoryId;

    const early = await api.request('POST', `${BASE}/${id}/complete`, { as: caller });
    assert.equal(early.status, 400);
    assert.match(early.body.message, /No file has been uploaded yet/);

    const put = await fetch(created.body.upload.url, { method: 'PUT', headers: created.body.upload.headers, body: GOOD_CSV });
    assert.equal(put.status, 200);
    const completed = await api.request('POST', `${BASE}/${id}/complete`, { as: caller });
    assert.equal(completed.status, 202);
    assert.equal(completed.body.status, 'VALIDATING');
    assert.equal(completed.body.sizeBytes, Buffer.byteLength(GOOD_CSV));
    const again = await api.request('POST', `${BASE}/${id}/complete`, { as: caller });
    assert.equal(again.status, 409);

    await api.messaging.idle();
    const read = await api.request('GET', `${BASE}/${id}`, { as: caller });
    assert.equal(read.body.status, 'READY');
    assert.equal(read.body.hotelCount, 3);
    assert.equal(read.body.rejectedCount, 2);
    assert.ok(read.body.rejectedRowsUrl);
  });

  it('ends FAILED, with the reason, when the uploaded file has no usable row', async () => {
    const caller = await api.newOrganization();
    const { partnerInventoryId } = await presignedUpload(caller, 'hotels.csv', NO_GOOD_ROW_CSV);
    assert.equal((await api.request('POST', `${BASE}/${partnerInventoryId}/complete`, { as: caller })).status, 202);
    await api.messaging.idle();
    const read = await api.request('GET', `${BASE}/${partnerInventoryId}`, { as: caller });
    assert.equal(read.body.status, 'FAILED');
    assert.match(read.body.error, /no usable hotel row/);
    assert.equal(read.body.hotelCount, 0);
  });

  it('marks an inventory whose validation was dead-lettered as FAILED', async () => {
    const caller = await api.newOrganization();
    const { partnerInventoryId } = await presignedUpload(caller, 'hotels.csv', GOOD_CSV);
    await inventoryStoreOf(api.runtime).transition({ organizationId: caller.organization.id, id: partnerInventoryId }, 'UPLOADING', {
      status: 'VALIDATING',
      updatedAt: api.clock.now().toISOString(),
    });
    const { handler } = await import('../../functions/partner-inventories/validation-dead-letters');
    const response = await handler.withRuntime(api.runtime)({
      Records: [{ messageId: 'm1', body: JSON.stringify({ organizationId: caller.organization.id, partnerInventoryId }) } as never],
    });
    assert.deepEqual(response, { batchItemFailures: [] });
    const read = await api.request('GET', `${BASE}/${partnerInventoryId}`, { as: caller });
    assert.equal(read.body.status, 'FAILED');
    assert.match(read.body.error, /Validation did not finish/);
  });

  it('refuses unknown formats and bad bodies, creating nothing', async () => {
    const caller = await api.newOrganization();
    const pdf = await api.request('POST', `${BASE}/uploads`, { as: caller, json: { name: 'x', fileName: 'hotels.pdf', sizeBytes: 10 } });
    assert.equal(pdf.status, 415);
    const noName = await api.request('POST', `${BASE}/uploads`, { as: caller, json: { fileName: 'hotels.csv', sizeBytes: 10 } });
    assert.equal(noName.status, 400);
    assert.equal(noName.body.message, 'name is required.');
    const extra = await api.request('POST', `${BASE}/uploads`, {
      as: caller,
      json: { name: 'x', fileName: 'a.csv', sizeBytes: 3, size: 3 },
    });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.message, 'Unknown field "size" in the body.');
    await assertNoInventories(caller);
  });
});

describe('the upload format rule', () => {
  it("takes the format from the file name, or from the part's Content-Type when the name has no extension, on both upload routes", async () => {
    const caller = await api.newOrganization();
    const send = (path: string, fields: Record<string, string>, blob: Blob, fileName?: string) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      // Without a name, as FormData.append('file', blob) sends it (undici names the part "blob").
      if (fileName === undefined) body.append('file', blob);
      else body.append('file', blob, fileName);
      return api.request('POST', path, { as: caller, body });
    };
    const csv = 'id,name\nA,Alpha Hotel\n';
    const typed = await send(BASE, { name: 'Typed' }, new Blob([csv], { type: 'text/csv' }));
    assert.equal(typed.status, 201, typed.text);
    assert.equal(typed.body.format, 'csv');
    const jsonl = await send(BASE, { name: 'Lines' }, new Blob(['{"id":"A","name":"Alpha"}\n'], { type: 'application/x-ndjson' }));
    assert.equal(jsonl.body.format, 'jsonl');
    const untyped = await send(BASE, { name: 'Untyped' }, new Blob([csv]));
    assert.equal(untyped.status, 415);
    assert.match(
      untyped.body.message,
      /is not a \.csv, \.txt, \.jsonl, \.ndjson, \.json, \.xlsx or \.parquet file, and its part's Content-Type names none of them/,
    );
    // The name wins over the type.
    const named = await send(BASE, { name: 'Named' }, new Blob([csv], { type: 'application/json' }), 'hotels.csv');
    assert.equal(named.body.format, 'csv');

    const sample = await send('/api/v1/suppliers/request', { supplierName: 'Typed Supplier' }, new Blob([csv], { type: 'text/csv' }));
    assert.equal(sample.status, 202, sample.text);
    const refused = await send('/api/v1/suppliers/request', { supplierName: 'Untyped Supplier' }, new Blob([csv]));
    assert.equal(refused.status, 415);
  });
});

describe('rows stopped at validation', () => {
  it('rejects with line and reason a row too long for any inventory, control characters and numbers no one writes; the rest maps', async () => {
    const caller = await api.newOrganization();
    const csv = [
      'id,name,city,country,lat,lon',
      'G1,Good Hotel,Paris,fr,48.85,2.35',
      `BIG,${'N'.repeat(1_000_000)},Paris,fr,48.85,2.35`,
      'NUL,Nul\u0000Inn,Paris,fr,,',
      'BEL,Bell\u0007Hotel,Paris,fr,,',
      'BIDI,Evil \u202eLodge,Paris,fr,,',
      'HEX,Hex Pin,Paris,fr,0x10,2',
      'G2,Other Good Hotel,Paris,fr,,',
    ].join('\n');
    const { partnerInventoryId } = await presignedUpload(caller, 'rows.csv', csv);
    assert.equal((await api.request('POST', `${BASE}/${partnerInventoryId}/complete`, { as: caller })).status, 202);
    await api.messaging.idle();
    const inventory = (await api.request('GET', `${BASE}/${partnerInventoryId}`, { as: caller })).body;
    assert.equal(inventory.status, 'READY');
    assert.equal(inventory.hotelCount, 2);
    assert.deepEqual(inventory.rejectedSample, [
      { line: 3, reason: 'name is 1000000 characters long, over the 500 allowed' },
      { line: 4, reason: 'name holds the control character U+0000' },
      { line: 5, reason: 'name holds the control character U+0007' },
      { line: 6, reason: 'name holds the control character U+202E' },
      { line: 7, reason: 'lat "0x10" is not a number' },
    ]);
    await seedReferenceInventory(api.runtime, { hotels: 50, seed: 3 });
    const job = await api.request('POST', '/api/v1/mapping', { as: caller, json: { partnerInventoryId } });
    assert.equal(job.status, 201, job.text);
    await api.messaging.idle();
    const done = (await api.request('GET', `/api/v1/mapping/${job.body.mappingJobId}`, { as: caller })).body;
    assert.equal(done.status, 'COMPLETED');
    assert.equal(done.counts.processed, 2);
  });
});

describe('files that cannot be read', () => {
  it("are refused with a stable message in words of the file, never the parser's", async () => {
    const caller = await api.newOrganization();
    const cases: [string, string | Buffer, RegExp][] = [
      [
        'broken.json',
        '[{"id": "A", "name": "One"},\n{"id": "B", "name": }]',
        /^The file cannot be read: the file is not a valid JSON document$/,
      ],
      ['cut.json', '[{"id": "A", "name": ', /^The file cannot be read: the JSON document ends early/],
      [
        'corrupt.xlsx',
        Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 7)]),
        /^The file cannot be read: the file is not a readable XLSX workbook/,
      ],
      [
        'open-quote.csv',
        `id,name\nA,"never closed ${'x'.repeat(2_100_000)}\n`,
        /^The file cannot be read: the row at line 2 is longer than 2,000,000 characters \(is a quote left open\?\)$/,
      ],
    ];
    for (const [name, data, message] of cases) {
      const { partnerInventoryId } = await presignedUpload(caller, name, data);
      await api.request('POST', `${BASE}/${partnerInventoryId}/complete`, { as: caller });
      await api.messaging.idle();
      const inventory = (await api.request('GET', `${BASE}/${partnerInventoryId}`, { as: caller })).body;
      assert.equal(inventory.status, 'FAILED', name);
      assert.match(inventory.error, message, name);
      assert.doesNotMatch(inventory.error, /Unexpected token|Cannot read|position|undefined|at Object/, name);
    }
    // A workbook of a few hundred kilobytes that would expand to 70 MB of XML: refused before it is inflated.
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Hotels').addRows([
      ['id', 'name'],
      ['A', ' '.repeat(70 * 1024 * 1024)],
    ]);
    const bomb = Buffer.from(await workbook.xlsx.writeBuffer());
    const bombForm = new FormData();
    bombForm.append('name', 'Bomb');
    bombForm.append('file', new Blob([bomb]), 'bomb.xlsx');
    const refused = await api.request('POST', BASE, { as: caller, body: bombForm });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /^The file cannot be read: the workbook expands to 7\d MB, more than the 64 MB taken here/);

    const rows = await api.request('POST', BASE, {
      as: caller,
      body: form({ name: 'Lines' }, { name: 'rows.jsonl', data: '{"id": "A", "name": "One"}\n{"id": "B", "name": }\n' }),
    });
    assert.equal(rows.status, 201);
    assert.deepEqual(rows.body.rejectedSample, [{ line: 2, reason: 'is not valid JSON' }]);
  });
});

describe('Parquet inventories', () => {
  const hotels = [
    { id: 'P1', name: 'Hotel Alpha', city: 'Paris', country: 'FR', lat: 48.8606, lon: 2.3376 },
    { id: 'P2', name: 'Hotel Beta', city: 'Lyon', country: 'FR' },
    { id: 'P3', name: '', city: 'Lyon', country: 'FR' },
    { id: 'P2', name: 'Hotel Beta again', city: 'Lyon', country: 'FR' },
  ];
  const file = parquetFile(hotelColumns(hotels), { rowGroupSize: 3 });
  const parquetForm = (name: string, bytes: Buffer, fileName = 'hotels.parquet') => {
    const data = new FormData();
    data.append('name', name);
    data.append('file', new Blob([bytes]), fileName);
    return data;
  };

  it('are read by column, direct or presigned: READY with the rows numbered from 1 in the rejected ones', async () => {
    const caller = await api.newOrganization();
    const direct = await api.request('POST', BASE, { as: caller, body: parquetForm('Parquet list', file) });
    assert.equal(direct.status, 201, direct.text);
    assert.equal(direct.body.format, 'parquet');
    assert.equal(direct.body.hotelCount, 2);
    assert.deepEqual(direct.body.rejectedSample, [
      { line: 3, reason: 'name is missing' },
      { line: 4, reason: 'id "P2" already used on line 2' },
    ]);

    const { partnerInventoryId } = await presignedUpload(caller, 'hotels.parquet', file);
    assert.equal((await api.request('POST', `${BASE}/${partnerInventoryId}/complete`, { as: caller })).status, 202);
    await api.messaging.idle();
    const presigned = (await api.request('GET', `${BASE}/${partnerInventoryId}`, { as: caller })).body;
    assert.deepEqual(
      [presigned.status, presigned.format, presigned.hotelCount, presigned.rejectedSample],
      ['READY', 'parquet', 2, direct.body.rejectedSample],
    );

    // Named by its Content-Type alone.
    const byType = new FormData();
    byType.append('name', 'By type');
    byType.append('file', new Blob([file], { type: 'application/vnd.apache.parquet' }), 'hotels');
    assert.equal((await api.request('POST', BASE, { as: caller, body: byType })).body.format, 'parquet');
  });

  it('a file that cannot be read, or would expand past what the route takes, is refused with the reason and nothing stored', async () => {
    const caller = await api.newOrganization();
    const corrupt = await api.request('POST', BASE, { as: caller, body: parquetForm('Corrupt', file.subarray(0, file.length - 10)) });
    assert.equal(corrupt.status, 400, corrupt.text);
    assert.match(corrupt.body.message, /^The file cannot be read: the file is not a readable Parquet file/);
    // 69 MB of notes beside the hotels, a few hundred kilobytes compressed: over the direct route's 64 MB, within a presigned upload's.
    const rows = 70_000;
    const large = parquetFile(
      [
        ...hotelColumns(Array.from({ length: rows }, (_, i) => ({ id: `L${i}`, name: `Hotel ${i}` }))),
        { name: 'notes', type: 'STRING', data: Array.from({ length: rows }, (_, i) => `${'n'.repeat(1_000)}${i}`) },
      ],
      { codec: 'GZIP' },
    );
    assert.ok(large.length < 4 * 1024 * 1024, `${large.length}`);
    const refused = await api.request('POST', BASE, { as: caller, body: parquetForm('Large', large) });
    assert.equal(refused.status, 400, refused.text);
    assert.match(
      refused.body.message,
      /^The file cannot be read: the file expands to \d\d MB, more than the 64 MB taken here: upload it through a presigned upload/,
      refused.text,
    );
    await assertNoInventories(caller);
    const { partnerInventoryId } = await presignedUpload(caller, 'large.parquet', large);
    await api.request('POST', `${BASE}/${partnerInventoryId}/complete`, { as: caller });
    await api.messaging.idle();
    const read = (await api.request('GET', `${BASE}/${partnerInventoryId}`, { as: caller })).body;
    assert.deepEqual([read.status, read.hotelCount], ['READY', rows]);
  });
});

describe('listing, reading and deleting', () => {
  it('lists newest first, one page at a time, with an opaque cursor', async () => {
    const caller = await api.newOrganization();
    const ids: string[] = [];
    for (const name of ['first', 'second', 'third']) {
      api.clock.advance(1000);
      ids.push((await upload(caller, { name }, { name: 'h.csv', data: GOOD_CSV })).body.partnerInventoryId);
    }
    const first = await api.request('GET', `${BASE}?limit=2`, { as: caller });
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.inventories.map((i: { name: string }) => i.name),
      ['third', 'second'],
    );
    assert.equal(typeof first.body.nextCursor, 'string');
    const second = await api.request('GET', `${BASE}?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { as: caller });
    assert.deepEqual(
      second.body.inventories.map((i: { partnerInventoryId: string }) => i.partnerInventoryId),
      [ids[0]],
    );
    assert.equal(second.body.nextCursor, null);

    for (const query of ['limit=0', 'limit=101', 'limit=1.5', 'limit=0x10', 'cursor=not-a-cursor', 'page=2']) {
      const bad = await api.request('GET', `${BASE}?${query}`, { as: caller });
      assert.equal(bad.status, 400, query);
      assert.equal(bad.body.error, 'Bad Request');
    }
  });

  it('an upload cut off before its record is stored keeps no file', async () => {
    const caller = await api.newOrganization();
    const store = inventoryStoreOf(api.runtime);
    await cutOffAt(
      store,
      'create',
      () => true,
      async () => {
        assert.equal((await upload(caller, { name: 'cut off' }, { name: 'h.csv', data: GOOD_CSV })).status, 500);
      },
    );
    await assertNoInventories(caller);
    assert.deepEqual(await objectKeysUnder(api.runtime, `partner-inventories/${caller.organization.id}/`), []);
  });

  it('an upload cut off while writing its files keeps only files its inventory points to, and the inventory ends READY', async () => {
    const caller = await api.newOrganization();
    const objects = objectStoreOf(api.runtime);
    await cutOffAt(
      objects,
      'put',
      (key) => String(key).includes('/rows/'),
      async () => {
        assert.equal((await upload(caller, { name: 'cut off' }, { name: 'h.csv', data: GOOD_CSV })).status, 500);
      },
    );
    const listed = (await api.request('GET', BASE, { as: caller })).body.inventories;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].status, 'VALIDATING');
    const kept = await objectKeysUnder(api.runtime, `partner-inventories/${caller.organization.id}/`);
    assert.ok(kept.length > 0);
    for (const key of kept)
      assert.ok(key.startsWith(`partner-inventories/${caller.organization.id}/${listed[0].partnerInventoryId}/`), key);

    // The upload's delayed validation message finishes it from its source file.
    api.clock.advance(MAX_QUEUE_DELAY_SECONDS * 1000);
    await api.messaging.idle();
    const finished = (await api.request('GET', `${BASE}/${listed[0].partnerInventoryId}`, { as: caller })).body;
    assert.equal(finished.status, 'READY');
    const whole = (await upload(caller, { name: 'whole' }, { name: 'h.csv', data: GOOD_CSV })).body;
    assert.equal(finished.hotelCount, whole.hotelCount);
    assert.equal(finished.rejectedCount, whole.rejectedCount);
  });

  it('an upload that is not cut off is READY at once, and its delayed message changes nothing', async () => {
    const caller = await api.newOrganization();
    const created = (await upload(caller, { name: 'whole' }, { name: 'h.csv', data: GOOD_CSV })).body;
    assert.equal(created.status, 'READY');
    api.clock.advance(MAX_QUEUE_DELAY_SECONDS * 1000);
    await api.messaging.idle();
    // The view as it was, but for its freshly signed link.
    const { rejectedRowsUrl: _link, ...after } = (await api.request('GET', `${BASE}/${created.partnerInventoryId}`, { as: caller })).body;
    const { rejectedRowsUrl: _createdLink, ...before } = created;
    assert.deepEqual(after, before);
  });

  it('a delete cut off after removing the files keeps the record, and deleting again finishes it', async () => {
    const caller = await api.newOrganization();
    const created = (await upload(caller, { name: 'to delete' }, { name: 'h.csv', data: GOOD_CSV })).body;
    await cutOffAt(
      inventoryStoreOf(api.runtime),
      'delete',
      () => true,
      async () => {
        assert.equal((await api.request('DELETE', `${BASE}/${created.partnerInventoryId}`, { as: caller })).status, 500);
      },
    );
    assert.deepEqual(await objectKeysUnder(api.runtime, `partner-inventories/${caller.organization.id}/`), []);
    assert.equal((await api.request('GET', `${BASE}/${created.partnerInventoryId}`, { as: caller })).status, 200);
    assert.equal((await api.request('DELETE', `${BASE}/${created.partnerInventoryId}`, { as: caller })).status, 204);
    await assertNoInventories(caller);
  });

  it('deletes the inventory and its files', async () => {
    const caller = await api.newOrganization();
    const { body: created } = await upload(caller, { name: 'to delete' }, { name: 'h.csv', data: GOOD_CSV });
    const stored = (await inventoryStoreOf(api.runtime).get(caller.organization.id, created.partnerInventoryId))!;
    const chunkKey = `partner-inventories/${caller.organization.id}/${created.partnerInventoryId}/rows/00000.jsonl.br`;
    assert.ok(await objectStoreOf(api.runtime).get(chunkKey), 'the valid rows are stored as a chunk file');
    assert.equal(stored.chunkCount, 1);
    assert.equal((await api.request('DELETE', `${BASE}/${created.partnerInventoryId}`, { as: caller })).status, 204);
    assert.equal((await api.request('GET', `${BASE}/${created.partnerInventoryId}`, { as: caller })).status, 404);
    assert.equal(await objectStoreOf(api.runtime).get(chunkKey), undefined);
    assert.equal((await api.request('DELETE', `${BASE}/${created.partnerInventoryId}`, { as: caller })).status, 404);
  });

  it("never shows or changes another organization's inventory", async () => {
    const owner = await api.newOrganization();
    const other = await api.newOrganization();
    const { body: created } = await upload(owner, { name: 'mine' }, { name: 'h.csv', data: GOOD_CSV });
    const { partnerInventoryId } = await presignedUpload(owner, 'h.csv', GOOD_CSV);
    for (const [method, path] of [
      ['GET', `${BASE}/${created.partnerInventoryId}`],
      ['DELETE', `${BASE}/${created.partnerInventoryId}`],
      ['POST', `${BASE}/${partnerInventoryId}/complete`],
    ] as const) {
      const response = await api.request(method, path, { as: other });
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal(response.body.error, 'Not Found');
    }
    await assertNoInventories(other);
    assert.equal((await api.request('GET', `${BASE}/${created.partnerInventoryId}`, { as: owner })).status, 200);
    assert.equal((await inventoryStoreOf(api.runtime).get(owner.organization.id, partnerInventoryId))?.status, 'UPLOADING');
  });

  it('answers 400 for a malformed id and 401 without a credential', async () => {
    const caller = await api.newOrganization();
    const malformed = await api.request('GET', `${BASE}/not-a-uuid`, { as: caller });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.message, /^partnerInventoryId: must be a UUID/);
    assert.equal((await api.request('GET', BASE)).status, 401);
    assert.equal((await api.request('POST', `${BASE}/uploads`, { json: { name: 'x', fileName: 'a.csv' } })).status, 401);
  });
});
