import { describe, it } from '@jest/globals';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { detectTabularFormat, type TabularFormat } from '../../../shared/platform/files/formats';
import { readTabular, readTabularBatches, recordOfCells, TabularParseError, type TabularRow } from '../../../shared/platform/files/tabular';
import { inflateWithin, zipExpandedSize } from '../../../shared/platform/files/zip-archives';
import { workbookBomb } from '../../support/workbook-bombs';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { inflatingWithin, ParquetRefused, parquetRowGroups } from '../../../shared/platform/files/parquet-files';
import { hotelColumns, parquetFile } from '../../support/parquet-files';

async function collect(input: Buffer | NodeJS.ReadableStream, format: TabularFormat): Promise<TabularRow[]> {
  const rows: TabularRow[] = [];
  for await (const row of readTabular(input, format)) rows.push(row);
  return rows;
}

async function xlsxBuffer(rows: unknown[][], extraSheet = false): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Hotels');
  for (const row of rows) sheet.addRow(row);
  if (extraSheet) workbook.addWorksheet('Notes').addRow(['ignored']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('detectTabularFormat', () => {
  it('maps extensions case-insensitively', () => {
    assert.equal(detectTabularFormat('hotels.CSV'), 'csv');
    assert.equal(detectTabularFormat('a.b.jsonl'), 'jsonl');
    assert.equal(detectTabularFormat('x.ndjson'), 'jsonl');
    assert.equal(detectTabularFormat('x.json'), 'json');
    assert.equal(detectTabularFormat('Inventory.XLSX'), 'xlsx');
    assert.equal(detectTabularFormat('hotels.Parquet'), 'parquet');
    assert.equal(detectTabularFormat('hotels', 'application/vnd.apache.parquet'), 'parquet');
  });
  it('returns undefined for unsupported or missing extensions', () => {
    assert.equal(detectTabularFormat('hotels.xls'), undefined);
    assert.equal(detectTabularFormat('hotels'), undefined);
  });
});

describe('readTabular csv', () => {
  it('reads records keyed by header, with human line numbers across blank and multi-line rows', async () => {
    const csv = '\uFEFFid, name ,city\n1,Grand,Paris\n\n2,"Two\nLines",Rome\n3,Solo,Oslo\n';
    const rows = await collect(Buffer.from(csv), 'csv');
    assert.deepEqual(rows, [
      { line: 2, record: { id: '1', name: 'Grand', city: 'Paris' } },
      { line: 4, record: { id: '2', name: 'Two\nLines', city: 'Rome' } },
      { line: 6, record: { id: '3', name: 'Solo', city: 'Oslo' } },
    ]);
  });

  it('reports rows with a wrong field count and keeps going', async () => {
    const csv = 'id,name\n1,A\n2,B,extra\n3\n4,D,\n5,E\n';
    const rows = await collect(Buffer.from(csv), 'csv');
    assert.deepEqual(rows[0], { line: 2, record: { id: '1', name: 'A' } });
    assert.equal(rows[1]?.line, 3);
    assert.match((rows[1] as { error: string }).error, /3 fields but the header has 2/);
    assert.equal(rows[2]?.line, 4);
    assert.ok('error' in rows[2]);
    // A trailing empty field is tolerated.
    assert.deepEqual(rows[3], { line: 5, record: { id: '4', name: 'D' } });
    assert.deepEqual(rows[4], { line: 6, record: { id: '5', name: 'E' } });
  });

  it('detects a semicolon delimiter from the header', async () => {
    const rows = await collect(Buffer.from('id;name;city\n1;Hôtel, du Lac;Genève\n'), 'csv');
    assert.deepEqual(rows, [{ line: 2, record: { id: '1', name: 'Hôtel, du Lac', city: 'Genève' } }]);
  });

  it('reads from a stream split mid-line', async () => {
    const stream = Readable.from([Buffer.from('id,na'), Buffer.from('me\n1,A\n2,'), Buffer.from('B\n')]);
    const rows = await collect(stream, 'csv');
    assert.deepEqual(rows, [
      { line: 2, record: { id: '1', name: 'A' } },
      { line: 3, record: { id: '2', name: 'B' } },
    ]);
  });

  it('throws TabularParseError on an unterminated quote, naming the line it starts on', async () => {
    const csv = 'id,name\n1,A\n2,"broken\n3,C\n';
    await assert.rejects(collect(Buffer.from(csv), 'csv'), (error: unknown) => {
      assert.ok(error instanceof TabularParseError);
      assert.match(error.message, /unterminated quoted field starting at line 3/);
      return true;
    });
  });

  it('throws TabularParseError on a duplicate header column', async () => {
    await assert.rejects(collect(Buffer.from('id,name,id\n1,2,3\n'), 'csv'), TabularParseError);
  });

  it('rethrows a failed read of the input as it is, not as a parse error', async () => {
    const failing = (...texts: string[]) =>
      Readable.from(
        (async function* () {
          for (const text of texts) yield Buffer.from(text);
          throw new Error('disk on fire');
        })(),
      );
    await assert.rejects(
      collect(failing('id,name\n1,A\n'), 'csv'),
      (error: unknown) => !(error instanceof TabularParseError) && /disk on fire/.test(String(error)),
    );
    // The same once csv-parse reads the file (old Mac line ends).
    await assert.rejects(
      collect(failing('id,name\r1,A\r'), 'csv'),
      (error: unknown) => !(error instanceof TabularParseError) && /disk on fire/.test(String(error)),
    );
  });

  it('reads a part of a file from a stream of strings', async () => {
    const part = { header: ['id', 'name'], delimiter: ',', lineEnd: 'lf' as const, firstLine: 5 };
    const rows: TabularRow[] = [];
    for await (const batch of readTabularBatches(Readable.from(['1,Zü', 'rich\n2,B\n']), 'csv', { part })) {
      for (const row of batch) rows.push('cells' in row ? { line: row.line, record: recordOfCells(row.header, row.cells) } : row);
    }
    assert.deepEqual(rows, [
      { line: 5, record: { id: '1', name: 'Zürich' } },
      { line: 6, record: { id: '2', name: 'B' } },
    ]);
  });
});

describe('readTabular jsonl', () => {
  it('reports invalid and non-object lines with their numbers and stringifies values', async () => {
    const text = '{"id":1,"name":"A","lat":1.5,"x":null}\n\nnot json\n[1,2]\r\n{"id":"4","tags":["a"]}\n';
    const rows = await collect(Buffer.from(text), 'jsonl');
    assert.deepEqual(rows[0], { line: 1, record: { id: '1', name: 'A', lat: '1.5', x: '' } });
    assert.equal(rows[1]?.line, 3);
    assert.match((rows[1] as { error: string }).error, /not valid JSON/);
    assert.deepEqual(rows[2], { line: 4, error: 'is not a JSON object' });
    assert.deepEqual(rows[3], { line: 5, record: { id: '4', tags: '["a"]' } });
  });
});

describe('readTabular json', () => {
  it('gives each array element the line it starts on', async () => {
    const text = '[\n  {"id": 1, "name": "A, \\"quoted\\" ]"},\n  {\n    "id": 2,\n    "name": "B"\n  },\n  "oops"\n]\n';
    const rows = await collect(Buffer.from(text), 'json');
    assert.deepEqual(rows, [
      { line: 2, record: { id: '1', name: 'A, "quoted" ]' } },
      { line: 3, record: { id: '2', name: 'B' } },
      { line: 7, error: 'element 2 is not a JSON object' },
    ]);
  });

  it('names each element of a one-line array by its index (from 0), and gives the readers of batches its object as JSON typed it', async () => {
    const text = '[{"id":"A"},"oops",{"id":7,"name":{"en":"B"}," __proto__ ":{"x":1}}]';
    assert.deepEqual(await collect(Buffer.from(text), 'json'), [
      { line: 1, record: { id: 'A' } },
      { line: 1, error: 'element 1 is not a JSON object' },
      { line: 1, record: { id: '7', name: '{"en":"B"}' } },
    ]);
    const rows = [];
    for await (const batch of readTabularBatches(Buffer.from(text), 'json')) rows.push(...batch);
    assert.deepEqual(rows, [
      { line: 1, element: 0, object: { id: 'A' } },
      { line: 1, error: 'element 1 is not a JSON object' },
      { line: 1, element: 2, object: JSON.parse('{"id":7,"name":{"en":"B"},"__proto__":{"x":1}}') },
    ]);
  });

  it('throws TabularParseError on an invalid document or a non-array', async () => {
    await assert.rejects(collect(Buffer.from('[{"id": 1},'), 'json'), TabularParseError);
    await assert.rejects(collect(Buffer.from('{"id": 1}'), 'json'), /array of objects/);
  });
});

describe('readTabular xlsx', () => {
  it('reads the first worksheet with spreadsheet row numbers', async () => {
    const buffer = await xlsxBuffer(
      [
        ['id', 'name', 'lat'],
        ['h1', 'Hotel One', 1.25],
        [],
        ['h2', { richText: [{ text: 'Rich ' }, { text: 'Text' }] }, { formula: '1+1', result: 2 }],
        ['h3', 'Too many', 3, 'extra'],
      ],
      true,
    );
    const rows = await collect(buffer, 'xlsx');
    assert.deepEqual(rows[0], { line: 2, record: { id: 'h1', name: 'Hotel One', lat: '1.25' } });
    assert.deepEqual(rows[1], { line: 4, record: { id: 'h2', name: 'Rich Text', lat: '2' } });
    assert.equal(rows[2]?.line, 5);
    assert.ok('error' in rows[2]);
    assert.equal(rows.length, 3);
  });

  it('accepts rows with missing trailing cells', async () => {
    const rows = await collect(
      await xlsxBuffer([
        ['id', 'name', 'city'],
        ['h1', 'Only name'],
      ]),
      'xlsx',
    );
    assert.deepEqual(rows, [{ line: 2, record: { id: 'h1', name: 'Only name', city: '' } }]);
  });

  it('refuses a workbook that would expand past the cap, before inflating it (a zip bomb)', async () => {
    const small = await xlsxBuffer([
      ['id', 'name'],
      ['1', 'One'],
    ]);
    const declared = zipExpandedSize(small)!;
    assert.ok(declared > small.length && declared < 64 * 1024, `${declared}`);
    // 70 kB of archive holding 70 MiB of spaces, and saying so.
    const bomb = await workbookBomb({ inflatedMebibytes: 70, declaredBytes: 70 * 1024 * 1024 + 1000 });
    assert.ok(bomb.length < 1024 * 1024, `${bomb.length}`);
    await assert.rejects(
      collect(bomb, 'xlsx'),
      (error: Error) => error instanceof TabularParseError && /expands to 7\d MB, more than the 64 MB taken here/.test(error.message),
    );
    assert.equal(zipExpandedSize(Buffer.from('not a zip')), undefined);
    assert.equal(zipExpandedSize(small.subarray(0, small.length - 30)), undefined);
  });

  it('refuses a workbook whose parts inflate to more than its archive declares, having inflated about what it declares', async () => {
    // 100 kB of archive, declaring 1,000 bytes of worksheet, holding 100 MB of it: under every declared limit.
    const bomb = await workbookBomb({ inflatedMebibytes: 100, declaredBytes: 1000 });
    const declared = zipExpandedSize(bomb)!;
    assert.ok(declared < 64 * 1024, `${declared}`);
    await assert.rejects(
      collect(bomb, 'xlsx'),
      (error: Error) =>
        error instanceof TabularParseError &&
        error.message ===
          'the file is not a readable XLSX workbook: its parts inflate to more than its archive declares (a corrupt or crafted archive)',
    );
    // The check inflates synchronously and stops one byte past what is allowed: the answer comes
    // after the declared bytes' work, and nothing goes on inflating after it.
    const { inflation, inflatedBytes } = inflateWithin(bomb, declared);
    assert.equal(inflation, 'over');
    assert.ok(inflatedBytes <= declared + 1, `${inflatedBytes} bytes inflated of ${declared} declared`);
    // The same worksheet, honestly declared, reads (its whitespace is nothing a reader keeps).
    const honest = await workbookBomb({ inflatedMebibytes: 1, declaredBytes: 1024 * 1024 + 1000 });
    assert.deepEqual(inflateWithin(honest, zipExpandedSize(honest)!).inflation, 'within');
    assert.deepEqual(await collect(honest, 'xlsx'), [{ line: 2, record: { id: 'H1', name: 'Hotel One' } }]);
  });

  it('refuses an archive with bytes between its entries, which a streaming reader would inflate as an entry the directory does not list', async () => {
    const good = await xlsxBuffer([['id'], ['1']]);
    assert.equal(inflateWithin(good, zipExpandedSize(good)!).inflation, 'within');
    // 20 bytes slipped in before the central directory (its offset moved along with them).
    const endRecord = good.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const directoryAt = good.readUInt32LE(endRecord + 16);
    const gapped = Buffer.concat([good.subarray(0, directoryAt), Buffer.alloc(20), good.subarray(directoryAt)]);
    gapped.writeUInt32LE(directoryAt + 20, endRecord + 20 + 16);
    assert.equal(zipExpandedSize(gapped), zipExpandedSize(good));
    assert.equal(inflateWithin(gapped, zipExpandedSize(gapped)!).inflation, 'unreadable');
    await assert.rejects(collect(gapped, 'xlsx'), TabularParseError);
  });

  it('throws TabularParseError on a corrupt workbook', async () => {
    const good = await xlsxBuffer([['id'], ['1']]);
    await assert.rejects(collect(Buffer.from('this is not a zip file at all'), 'xlsx'), TabularParseError);
    await assert.rejects(collect(good.subarray(0, Math.floor(good.length / 2)), 'xlsx'), TabularParseError);
  });
});

describe('readTabular parquet', () => {
  const hotels = [
    { id: 'P-1', name: 'Grand Hotel', city: 'Lisboa', country: 'PT', lat: 38.7, lon: -9.1 },
    { id: 'P-2', name: 'Pensão Sol', country: 'PT' },
    { id: 'P-3', name: 'Hostal Mar', city: 'Sevilla', country: 'ES', lat: 37.38, lon: -5.99 },
  ];

  it('reads every row group, its rows numbered from 1, nulls as empty, numbers as their text', async () => {
    for (const codec of ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI'] as const) {
      const rows = await collect(parquetFile(hotelColumns(hotels), { codec, rowGroupSize: 2 }), 'parquet');
      assert.deepEqual(
        rows,
        [
          { line: 1, record: { id: 'P-1', name: 'Grand Hotel', city: 'Lisboa', country: 'PT', lat: '38.7', lon: '-9.1' } },
          { line: 2, record: { id: 'P-2', name: 'Pensão Sol', city: '', country: 'PT', lat: '', lon: '' } },
          { line: 3, record: { id: 'P-3', name: 'Hostal Mar', city: 'Sevilla', country: 'ES', lat: '37.38', lon: '-5.99' } },
        ],
        codec,
      );
    }
  });

  it('reads a file compressed with Zstandard', async () => {
    // Written by hyparquet-writer with the zstd command as its compressor: three rows of id, name and country.
    const rows = await collect(readFileSync(new URL('../../support/hotels-zstd.parquet', import.meta.url)), 'parquet');
    assert.deepEqual(
      rows.map((row) => ('record' in row ? row.record.name : row.error)),
      ['Hotel Zstandard', 'Pension Zeta', 'Hostal Zenit'],
    );
  });

  it('gives the readers of batches whole numbers as their exact digits, and floating-point numbers as numbers', async () => {
    const file = parquetFile([
      { name: 'id', type: 'INT64', data: [12345678901234567n, 7n] },
      { name: 'name', type: 'STRING', data: ['Big Id', 'Small Id'] },
      { name: 'rating', type: 'INT32', data: [4, 5] },
      { name: 'lat', type: 'DOUBLE', data: [1.5, 2] },
    ]);
    const objects = [];
    for await (const batch of readTabularBatches(file, 'parquet'))
      for (const row of batch) objects.push('object' in row ? row.object : row);
    assert.deepEqual(objects, [
      { id: '12345678901234567', name: 'Big Id', rating: '4', lat: 1.5 },
      { id: '7', name: 'Small Id', rating: '5', lat: 2 },
    ]);
  });

  it('refuses a file that is not Parquet, or cut off', async () => {
    const good = parquetFile(hotelColumns(hotels));
    for (const file of [Buffer.from('id,name\n1,One\n'), good.subarray(0, good.length - 20), good.subarray(0, 200)]) {
      await assert.rejects(
        collect(file, 'parquet'),
        (error: Error) => error instanceof TabularParseError && error.message.startsWith('the file is not a readable Parquet file'),
      );
    }
  });

  it('refuses a file that would expand past the cap, from its metadata alone', async () => {
    // 64 MiB of one repeated name, compressed to a few kilobytes.
    const rows = 70_000;
    const file = parquetFile([{ name: 'name', type: 'STRING', data: Array.from({ length: rows }, (_, i) => `${'x'.repeat(1_000)}${i}`) }], {
      codec: 'GZIP',
    });
    assert.ok(file.length < 2 * 1024 * 1024, `${file.length}`);
    await assert.rejects(
      collect(file, 'parquet'),
      (error: Error) => error instanceof TabularParseError && /expands to 6\d MB, more than the 64 MB taken here/.test(error.message),
    );
  });

  it('refuses a file of more cells than taken, from its metadata alone', async () => {
    const file = parquetFile(hotelColumns(hotels));
    const groups = parquetRowGroups(file, { maxExpandedBytes: 1024 * 1024, maxCells: 17 });
    await assert.rejects(
      groups.next(),
      (error: Error) =>
        error instanceof ParquetRefused &&
        error.message === 'the file holds 3 rows of 6 columns, more than the 17 cells taken here; split the file',
    );
    assert.equal((await parquetRowGroups(file, { maxExpandedBytes: 1024 * 1024, maxCells: 18 }).next()).value?.rows.length, 3);
  });

  it('refuses a page that inflates past its header, having inflated no more than its header says', async () => {
    // Each page's GZIP stream holds 50 MB more than the page header (and the metadata) declare.
    const bomb = Buffer.from(
      parquetWriteBuffer({
        columnData: [{ name: 'name', type: 'STRING', data: ['One', 'Two'] }],
        codec: 'GZIP',
        compressors: { GZIP: (input: Uint8Array) => gzipSync(Buffer.concat([input, Buffer.alloc(50 * 1024 * 1024)])) },
      }),
    );
    assert.ok(bomb.length < 200_000, `${bomb.length}`);
    await assert.rejects(
      collect(bomb, 'parquet'),
      (error: Error) => error instanceof TabularParseError && error.message.startsWith('the file is not a readable Parquet file'),
    );
  });

  it('refuses a page whose header claims more than the file declared, before allocating it', () => {
    const compressors = inflatingWithin(1_000);
    const page = gzipSync(Buffer.alloc(600));
    assert.equal(compressors.GZIP!(page, 600).length, 600);
    assert.throws(
      () => compressors.GZIP!(page, 2 ** 31),
      (error: Error) => error instanceof ParquetRefused && /inflate to more than its metadata declares/.test(error.message),
    );
    assert.throws(() => compressors.SNAPPY!(new Uint8Array(1), 500), ParquetRefused, 'the budget is the whole file: 600 + 500 > 1,000');
  });
});
