import { inUtf8Order } from '../../../shared/platform/objects/block-files';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, it } from '@jest/globals';
import type { PartnerHotel } from '../../../shared/mapping';
import { DomainError } from '../../../shared/platform/errors';
import type { ObjectStore } from '../../../shared/platform/objects/object-store';
import {
  chunkRowRange,
  inventoryChunkRows,
  REJECTED_SAMPLE_SIZE,
  type PartnerInventory,
  type RejectedRow,
} from '../../../shared/partner-inventories/inventory';
import { readInventoryChunk, readInventoryFile, writeValidatedRows } from '../../../shared/partner-inventories/validation';

/** The object store port, in memory: what validation writes and the chunk reader reads. */
class ObjectsInMemory implements ObjectStore {
  readonly bucket = 'in-memory';
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();

  async put(key: string, body: Buffer | string, contentType: string): Promise<void> {
    this.objects.set(key, { body: Buffer.from(body), contentType });
  }
  async get(key: string): Promise<Buffer | undefined> {
    return this.objects.get(key)?.body;
  }
  async copy(): Promise<void> {
    throw new Error('validation copies nothing');
  }
  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.objects.delete(key);
  }
  async expireLater(): Promise<void> {
    throw new Error('validation expires nothing');
  }
  async presignedDownloadUrl(): Promise<string> {
    throw new Error('validation hands out no URL');
  }
  async presignedUploadUrl(): Promise<string> {
    throw new Error('validation hands out no URL');
  }
  async size(key: string): Promise<number | undefined> {
    return this.objects.get(key)?.body.length;
  }

  text(key: string): string | undefined {
    return this.objects.get(key)?.body.toString('utf8');
  }
}

const csv = (...lines: string[]) => Buffer.from(lines.join('\n'));

function inventory(overrides: Partial<PartnerInventory> = {}): PartnerInventory {
  return {
    id: 'inv-1',
    organizationId: 'org-1',
    name: 'list',
    status: 'VALIDATING',
    fileName: 'hotels.csv',
    format: 'csv',
    hotelCount: 0,
    rejectedCount: 0,
    rejectedSample: [],
    chunkCount: 0,
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-01T12:00:00.000Z',
    ...overrides,
  };
}

async function refusedAsInvalid(attempt: Promise<unknown>, message: string | RegExp): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, 'invalid_input');
    if (typeof message === 'string') assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

const hotels = (count: number): PartnerHotel[] =>
  Array.from({ length: count }, (_, i) => ({ id: `p${i}`, name: `Hotel ${i}`, country: 'FR' }));

describe('reading an inventory file', () => {
  it('keeps the good rows and reports each bad one with its line and reason', async () => {
    const { hotels: good, rejected } = await readInventoryFile(
      inventory(),
      csv(
        'id,name,city,lat,lon',
        'p1,Hotel One,Paris,48.86,2.34',
        ',No id,Paris,,',
        'p3,,Paris,,',
        'p4,Bad pin,Paris,north,2',
        'p1,Again,Paris,,',
        'p6,Hotel Six,Lyon,,',
      ),
    );
    assert.deepEqual(good, [
      { id: 'p1', name: 'Hotel One', city: 'Paris', lat: 48.86, lon: 2.34 },
      { id: 'p6', name: 'Hotel Six', city: 'Lyon' },
    ]);
    assert.deepEqual(rejected, [
      { line: 3, reason: 'id is missing' },
      { line: 4, reason: 'name is missing' },
      { line: 5, reason: 'lat "north" is not a number' },
      { line: 6, reason: 'id "p1" already used on line 2' },
    ]);
  });

  it('gives rows that carry a supplier hotel id the inventory’s supplier, unless they name their own', async () => {
    const { hotels: rows } = await readInventoryFile(
      inventory({ supplierCode: 'HOTELBEDS' }),
      csv('id,name,supplierCode,supplierHotelId', 'p1,One,,111', 'p2,Two,EXPEDIA,222', 'p3,Three,,'),
    );
    assert.deepEqual(rows, [
      { id: 'p1', name: 'One', supplierCode: 'HOTELBEDS', supplierHotelId: '111' },
      { id: 'p2', name: 'Two', supplierCode: 'EXPEDIA', supplierHotelId: '222' },
      { id: 'p3', name: 'Three' },
    ]);
  });

  it('reads the inventory’s own format', async () => {
    const lines = ['{"id":"p1","name":"One"}', '{"id":"p2"}'].join('\n');
    const { hotels: rows, rejected } = await readInventoryFile(inventory({ format: 'jsonl' }), Buffer.from(lines));
    assert.deepEqual(rows, [{ id: 'p1', name: 'One' }]);
    assert.deepEqual(rejected, [{ line: 2, reason: 'name is missing' }]);
    // The same bytes are no CSV file with an id and a name column.
    await refusedAsInvalid(readInventoryFile(inventory({ format: 'csv' }), Buffer.from(lines)), /^The file has no usable hotel row/);
  });

  it('refuses a file with no usable row as a whole, quoting its first three bad rows', async () => {
    await refusedAsInvalid(
      readInventoryFile(inventory(), csv('id,name', ',a', 'p2,', ',c', 'p4,')),
      'The file has no usable hotel row (line 2: id is missing; line 3: name is missing; line 4: id is missing).',
    );
    await refusedAsInvalid(readInventoryFile(inventory(), csv('id,name')), 'The file has no usable hotel row.');
  });

  it('refuses a file that cannot be read at all, saying why', async () => {
    await refusedAsInvalid(
      readInventoryFile(inventory({ format: 'json' }), Buffer.from('{"id":"p1","name":"One"}')),
      'The file cannot be read: a JSON file must hold an array of objects',
    );
    await refusedAsInvalid(
      readInventoryFile(inventory(), csv('id,name,id', 'p1,One,p1')),
      /^The file cannot be read: column "id" appears twice/,
    );
    await refusedAsInvalid(readInventoryFile(inventory({ format: 'xlsx' }), Buffer.from('not a workbook')), /^The file cannot be read: /);
  });
});

describe('writing the validated rows', () => {
  it('cuts an inventory into at least ten chunks of 2,000 to 10,000 rows', () => {
    assert.equal(inventoryChunkRows(5), 2_000);
    assert.equal(inventoryChunkRows(20_001), 2_001);
    assert.equal(inventoryChunkRows(55_000), 5_500);
    assert.equal(inventoryChunkRows(1_000_000), 10_000);
    assert.deepEqual(chunkRowRange(55_000, 9), { first: 49_501, last: 55_000 });
    assert.deepEqual(chunkRowRange(1_000_001, 100), { first: 1_000_001, last: 1_000_001 });
  });

  it(`cuts the rows into chunk files of 2,000 at least, in partner id order (UTF-8 bytes, the mapping book's), that the chunk reader gives back`, async () => {
    const objects = new ObjectsInMemory();
    const inFileOrder = hotels(2 * 2_000 + 1).reverse();
    inFileOrder[7] = { ...inFileOrder[7]!, id: 'p\u{1F600}' };
    inFileOrder[8] = { ...inFileOrder[8]!, id: 'p\uFF21' };
    const rows = inUtf8Order(inFileOrder, (row) => row.id, 1);
    assert.deepEqual(
      rows.slice(-2).map((row) => row.id),
      ['p\uFF21', 'p\u{1F600}'],
      'by bytes, not UTF-16 code units',
    );
    const counts = await writeValidatedRows(objects, inventory(), { hotels: inFileOrder, rejected: [] });
    assert.deepEqual(counts, { hotelCount: 2 * 2_000 + 1, rejectedCount: 0, rejectedSample: [], chunkCount: 3 });

    const chunks = await Promise.all([0, 1, 2].map((index) => readInventoryChunk(objects, inventory(), index)));
    assert.deepEqual(
      chunks.map((chunk) => chunk?.length),
      [2_000, 2_000, 1],
    );
    assert.deepEqual(
      chunks.flatMap((chunk) => chunk ?? []),
      rows,
    );
    assert.ok(objects.objects.has('partner-inventories/org-1/inv-1/rows/00000.jsonl.br'));
    // A chunk that was never written is answered as missing, not as empty.
    assert.equal(await readInventoryChunk(objects, inventory(), 3), undefined);
  });

  it('reads the gzip chunks of an inventory validated before chunks were Brotli-compressed', async () => {
    const objects = new ObjectsInMemory();
    const rows = hotels(3);
    await objects.put(
      'partner-inventories/org-1/inv-1/rows/00000.jsonl.gz',
      gzipSync(rows.map((row) => JSON.stringify(row)).join('\n')),
      'application/gzip',
    );
    assert.deepEqual(await readInventoryChunk(objects, inventory(), 0), rows);
  });

  it('writes exactly one chunk for a file that fills one exactly', async () => {
    const objects = new ObjectsInMemory();
    const counts = await writeValidatedRows(objects, inventory(), { hotels: hotels(2_000), rejected: [] });
    assert.equal(counts.chunkCount, 1);
    assert.deepEqual([...objects.objects.keys()], ['partner-inventories/org-1/inv-1/rows/00000.jsonl.br']);
  });

  it(`keeps every rejected row in a downloadable CSV file and the first ${REJECTED_SAMPLE_SIZE} in the inventory`, async () => {
    const objects = new ObjectsInMemory();
    const rejected: RejectedRow[] = Array.from({ length: 25 }, (_, i) => ({ line: i + 2, reason: `lat "x${i}" is not a number` }));
    const counts = await writeValidatedRows(objects, inventory(), { hotels: hotels(3), rejected });
    assert.equal(counts.rejectedCount, 25);
    assert.deepEqual(counts.rejectedSample, rejected.slice(0, 20));
    assert.equal(counts.rejectedSample.length, REJECTED_SAMPLE_SIZE);

    const file = objects.objects.get('partner-inventories/org-1/inv-1/rejected-rows.csv');
    assert.equal(file?.contentType, 'text/csv');
    const lines = file.body.toString('utf8').split('\n');
    assert.equal(lines.length, 1 + 25 + 1, 'a header, a line per row, a final line end');
    assert.equal(lines[0], 'line,reason');
    assert.equal(lines[1], '2,"lat ""x0"" is not a number"');
    assert.equal(lines[25], '26,"lat ""x24"" is not a number"');
    assert.equal(lines[26], '');
  });

  it('writes no rejected-rows file when every row was good', async () => {
    const objects = new ObjectsInMemory();
    await writeValidatedRows(objects, inventory(), { hotels: hotels(2), rejected: [] });
    assert.equal(objects.text('partner-inventories/org-1/inv-1/rejected-rows.csv'), undefined);
  });
});
