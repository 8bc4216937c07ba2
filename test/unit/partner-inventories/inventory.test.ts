import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import {
  DIRECT_UPLOAD_MAX_BYTES,
  inventoryObjectKeys,
  inventoryObjects,
  mediaTypeOf,
  type PartnerInventory,
} from '../../../shared/partner-inventories/inventory';
import { inventoryView } from '../../../shared/partner-inventories/views';

function inventory(overrides: Partial<PartnerInventory> = {}): PartnerInventory {
  return {
    id: 'inv-1',
    organizationId: 'org-1',
    name: 'Spring list',
    supplierCode: 'HOTELBEDS',
    status: 'READY',
    fileName: 'hotels.csv',
    format: 'csv',
    sizeBytes: 12_345,
    hotelCount: 4_001,
    rejectedCount: 2,
    rejectedSample: [
      { line: 3, reason: 'id is missing' },
      { line: 9, reason: 'name is missing' },
    ],
    chunkCount: 3,
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-01T12:00:05.000Z',
    ...overrides,
  };
}

describe('an inventory file’s media type', () => {
  it('is the standard one of each tabular format', () => {
    assert.equal(mediaTypeOf('csv'), 'text/csv');
    assert.equal(mediaTypeOf('jsonl'), 'application/x-ndjson');
    assert.equal(mediaTypeOf('json'), 'application/json');
    assert.equal(mediaTypeOf('xlsx'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });
});

describe('where an inventory’s files live', () => {
  it('keeps the source under its own format’s extension, the rows as numbered chunk files and the rejected rows as CSV', () => {
    assert.equal(inventoryObjects.source(inventory({ format: 'xlsx' })), 'partner-inventories/org-1/inv-1/source.xlsx');
    assert.equal(inventoryObjects.chunk(inventory(), 0), 'partner-inventories/org-1/inv-1/rows/00000.jsonl.br');
    assert.equal(inventoryObjects.chunk(inventory(), 42), 'partner-inventories/org-1/inv-1/rows/00042.jsonl.br');
    assert.equal(inventoryObjects.rejected(inventory()), 'partner-inventories/org-1/inv-1/rejected-rows.csv');
  });

  it('numbers chunk files so that their names sort in chunk order', () => {
    const names = [0, 1, 2, 9, 10, 99, 100, 1_000, 12_345].map((index) => inventoryObjects.chunk(inventory(), index));
    assert.deepEqual([...names].sort(), names);
  });

  it('lists every object an inventory may have written in the files bucket: source, rejected rows and each chunk', () => {
    assert.deepEqual(inventoryObjectKeys(inventory()), [
      'partner-inventories/org-1/inv-1/source.csv',
      'partner-inventories/org-1/inv-1/rejected-rows.csv',
      // Each chunk as written now, and as an inventory validated before Brotli wrote it.
      'partner-inventories/org-1/inv-1/rows/00000.jsonl.br',
      'partner-inventories/org-1/inv-1/rows/00000.jsonl.gz',
      'partner-inventories/org-1/inv-1/rows/00001.jsonl.br',
      'partner-inventories/org-1/inv-1/rows/00001.jsonl.gz',
      'partner-inventories/org-1/inv-1/rows/00002.jsonl.br',
      'partner-inventories/org-1/inv-1/rows/00002.jsonl.gz',
    ]);
    // Not validated yet: no chunk, but the source (and a rejected-rows file) may exist.
    assert.deepEqual(inventoryObjectKeys(inventory({ status: 'UPLOADING', chunkCount: 0, format: 'json' })), [
      'partner-inventories/org-1/inv-1/source.json',
      'partner-inventories/org-1/inv-1/rejected-rows.csv',
    ]);
  });

  it('never lists another inventory’s objects, even one whose id begins the same', () => {
    const keys = inventoryObjectKeys(inventory({ id: 'inv-1', chunkCount: 12 }));
    const neighbour = new Set(inventoryObjectKeys(inventory({ id: 'inv-10', chunkCount: 12 })));
    const otherOrganization = new Set(inventoryObjectKeys(inventory({ organizationId: 'org-2', chunkCount: 12 })));
    assert.equal(new Set(keys).size, keys.length);
    for (const key of keys) {
      assert.ok(key.startsWith('partner-inventories/org-1/inv-1/') || key.startsWith('partner-inventory-uploads/org-1/inv-1/'), key);
      assert.ok(!neighbour.has(key) && !otherOrganization.has(key), key);
    }
  });
});

describe('direct uploads', () => {
  it('stay within what API Gateway hands Lambda (6 MB) once base64-encoded', () => {
    assert.ok(Math.ceil(DIRECT_UPLOAD_MAX_BYTES / 3) * 4 < 6 * 1024 * 1024);
  });
});

describe('what partners see of an inventory', () => {
  it('is its name, file, status, counts, sample of rejected rows and dates, with the rejected rows’ download link', () => {
    assert.deepEqual(inventoryView(inventory(), 'https://files.example/rejected?sig=1'), {
      partnerInventoryId: 'inv-1',
      name: 'Spring list',
      supplierCode: 'HOTELBEDS',
      status: 'READY',
      fileName: 'hotels.csv',
      format: 'csv',
      sizeBytes: 12_345,
      hotelCount: 4_001,
      rejectedCount: 2,
      rejectedSample: [
        { line: 3, reason: 'id is missing' },
        { line: 9, reason: 'name is missing' },
      ],
      rejectedRowsUrl: 'https://files.example/rejected?sig=1',
      error: undefined,
      createdAt: '2026-03-01T12:00:00.000Z',
      updatedAt: '2026-03-01T12:00:05.000Z',
    });
  });

  it('says why a failed inventory failed, and has no link when none is given', () => {
    const view = inventoryView(inventory({ status: 'FAILED', error: 'The file has no usable hotel row.', hotelCount: 0, chunkCount: 0 }));
    assert.equal(view.status, 'FAILED');
    assert.equal(view.error, 'The file has no usable hotel row.');
    assert.equal(view.rejectedRowsUrl, undefined);
  });

  it('never shows its organization or how it is stored', () => {
    const view = inventoryView(inventory({ organizationId: 'org-secret-77' }));
    assert.ok(!('organizationId' in view));
    assert.ok(!('chunkCount' in view));
    assert.ok(!('id' in view));
    assert.ok(!JSON.stringify(view).includes('org-secret-77'));
    assert.ok(!JSON.stringify(view).includes('partner-inventories/'));
  });
});
