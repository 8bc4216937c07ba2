import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { SUPPLIER_REQUEST_MAX_FILE_BYTES, supplierStoreOf } from '../../shared/suppliers';
import { objectStoreOf } from '../../shared/platform/objects/services';
import { cutOffAt, objectKeysUnder } from '../support/cut-off';
import { startTestApi, type Caller } from '../support/test-api';

const api = await startTestApi();

const CSV = 'id,name,city,country\nH1,Hotel Alpha,Paris,France\nH2,Hotel Beta,Lyon,France\n';

function form(fields: Record<string, string>, file?: { name: string; data: Buffer | string; type?: string }): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file) data.append('file', new Blob([file.data], { type: file.type ?? 'application/octet-stream' }), file.name);
  return data;
}

const submit = (as: Caller, body: FormData) => api.request('POST', '/api/v1/suppliers/request', { as, body });
const listRequests = (as: Caller) => api.request('GET', '/api/v1/suppliers/requests', { as });

async function xlsxFile(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Hotels');
  rows.forEach((row) => sheet.addRow(row));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function assertNothingStored(caller: Caller) {
  const { body } = await listRequests(caller);
  assert.deepEqual(body, { requests: [], total: 0 });
  assert.deepEqual(await supplierStoreOf(api.runtime).listRequests(caller.organization.id), []);
}

describe('POST /api/v1/suppliers/request', () => {
  it('accepts a CSV file (202 pending), stores the request and the file', async () => {
    const caller = await api.newOrganization();
    const response = await submit(
      caller,
      form(
        { supplierName: 'Sunrise Beds', description: 'Regional wholesaler', contactEmail: 'ops@sunrise.example' },
        { name: 'hotels.csv', data: CSV, type: 'text/csv' },
      ),
    );
    assert.equal(response.status, 202);
    assert.match(response.body.id, /^[0-9a-f-]{36}$/);
    assert.equal(response.body.supplierName, 'Sunrise Beds');
    assert.equal(response.body.status, 'pending');
    assert.equal(response.body.submittedAt, api.clock.now().toISOString());
    assert.equal(response.body.rowCount, 2);

    const listed = await listRequests(caller);
    assert.equal(listed.status, 200);
    assert.equal(listed.body.total, 1);
    assert.deepEqual(listed.body.requests[0], {
      id: response.body.id,
      supplierName: 'Sunrise Beds',
      description: 'Regional wholesaler',
      contactEmail: 'ops@sunrise.example',
      status: 'pending',
      submittedAt: response.body.submittedAt,
      fileName: 'hotels.csv',
      rowCount: 2,
    });
    const [stored] = await supplierStoreOf(api.runtime).listRequests(caller.organization.id);
    assert.equal((await objectStoreOf(api.runtime).get(stored!.file.key))?.toString('utf8'), CSV);
  });

  it('accepts JSON (an array of objects) and XLSX files, really parsing them', async () => {
    const caller = await api.newOrganization();
    const json = JSON.stringify([
      { id: 'A', name: 'One' },
      { id: 'B', name: 'Two' },
      { id: 'C', name: 'Three' },
    ]);
    const jsonResponse = await submit(caller, form({ supplierName: 'Json Co' }, { name: 'hotels.json', data: json }));
    assert.equal(jsonResponse.status, 202);
    assert.equal(jsonResponse.body.rowCount, 3);

    const xlsx = await xlsxFile([
      ['id', 'name'],
      ['X1', 'Xlsx Hotel'],
      ['X2', 'Other Hotel'],
      ['X3', 'Third'],
      ['X4', 'Fourth'],
    ]);
    const xlsxResponse = await submit(caller, form({ supplierName: 'Excel Co' }, { name: 'hotels.xlsx', data: xlsx }));
    assert.equal(xlsxResponse.status, 202);
    assert.equal(xlsxResponse.body.rowCount, 4);

    api.clock.advance(1000);
    const listed = await listRequests(caller);
    assert.equal(listed.body.total, 2);
    assert.deepEqual(listed.body.requests.map((r: { supplierName: string }) => r.supplierName).sort(), ['Excel Co', 'Json Co']);
  });

  it('a request cut off before its record is stored keeps no file', async () => {
    const caller = await api.newOrganization();
    await cutOffAt(
      supplierStoreOf(api.runtime),
      'putRequest',
      () => true,
      async () => {
        assert.equal((await submit(caller, form({ supplierName: 'Cut Off Beds' }, { name: 'hotels.csv', data: CSV }))).status, 500);
      },
    );
    await assertNothingStored(caller);
    assert.deepEqual(await objectKeysUnder(api.runtime, `supplier-requests/${caller.organization.id}/`), []);
  });

  it('lists requests newest first', async () => {
    const caller = await api.newOrganization();
    for (const name of ['First', 'Second', 'Third']) {
      await submit(caller, form({ supplierName: name }, { name: 'h.csv', data: CSV }));
      api.clock.advance(60_000);
    }
    const { body } = await listRequests(caller);
    assert.deepEqual(
      body.requests.map((r: { supplierName: string }) => r.supplierName),
      ['Third', 'Second', 'First'],
    );
  });

  it('answers 400 for missing or invalid fields and stores nothing', async () => {
    const caller = await api.newOrganization();
    const file = { name: 'hotels.csv', data: CSV };
    const missingName = await submit(caller, form({}, file));
    assert.equal(missingName.status, 400);
    assert.equal(missingName.body.error, 'Bad Request');
    assert.match(missingName.body.message, /supplierName is required/);
    const blankName = await submit(caller, form({ supplierName: '   ' }, file));
    assert.equal(blankName.status, 400);
    assert.match(blankName.body.message, /supplierName/);
    const badEmail = await submit(caller, form({ supplierName: 'X', contactEmail: 'not-an-email' }, file));
    assert.equal(badEmail.status, 400);
    assert.match(badEmail.body.message, /contactEmail/);
    const missingFile = await submit(caller, form({ supplierName: 'X' }));
    assert.equal(missingFile.status, 400);
    assert.match(missingFile.body.message, /file is required/);
    await assertNothingStored(caller);
  });

  it('answers 400 for a file that does not parse as its format, and stores nothing', async () => {
    const caller = await api.newOrganization();
    const cases = [
      { name: 'broken.json', data: '{"id": "A", "name": ' },
      { name: 'object.json', data: '{"id": "A"}' },
      { name: 'corrupt.xlsx', data: Buffer.from('this is not a zip archive') },
      { name: 'quotes.csv', data: 'id,name\n1,"unterminated\n' },
      { name: 'header-only.csv', data: 'id,name\n' },
      { name: 'empty.csv', data: '' },
    ];
    for (const file of cases) {
      const response = await submit(caller, form({ supplierName: 'Broken' }, file));
      assert.equal(response.status, 400, `${file.name} answered ${response.status}: ${response.text}`);
      assert.equal(response.body.error, 'Bad Request');
    }
    await assertNothingStored(caller);
  });

  it('answers 415 for any other file format, and for a body that is not multipart', async () => {
    const caller = await api.newOrganization();
    for (const name of ['hotels.pdf', 'hotels.xls', 'hotels']) {
      const response = await submit(caller, form({ supplierName: 'Other' }, { name, data: 'whatever' }));
      assert.equal(response.status, 415, `${name} answered ${response.status}`);
      assert.equal(response.body.error, 'Unsupported Media Type');
    }
    const json = await api.request('POST', '/api/v1/suppliers/request', { as: caller, json: { supplierName: 'X' } });
    assert.equal(json.status, 415);
    await assertNothingStored(caller);
  });

  it('answers 413 for a file over the documented limit, and stores nothing', async () => {
    const caller = await api.newOrganization();
    const big = Buffer.alloc(SUPPLIER_REQUEST_MAX_FILE_BYTES + 1, 'a');
    const response = await submit(caller, form({ supplierName: 'Huge' }, { name: 'huge.csv', data: big }));
    assert.equal(response.status, 413);
    assert.equal(response.body.error, 'Payload Too Large');
    await assertNothingStored(caller);
  });

  it("keeps each organization's requests to itself", async () => {
    const alpha = await api.newOrganization();
    const beta = await api.newOrganization();
    await submit(alpha, form({ supplierName: 'Alpha only' }, { name: 'h.csv', data: CSV }));
    assert.deepEqual((await listRequests(beta)).body, { requests: [], total: 0 });
    assert.equal((await listRequests(alpha)).body.total, 1);
  });

  it('requires a credential', async () => {
    const response = await api.request('POST', '/api/v1/suppliers/request', {
      body: form({ supplierName: 'X' }, { name: 'h.csv', data: CSV }),
    });
    assert.equal(response.status, 401);
    assert.equal(response.body.error, 'Unauthorized');
  });
});
