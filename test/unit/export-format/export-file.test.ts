/** The export files' writers: what a spreadsheet reads in an XLSX file. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { openExportFile, resolveFormat, sameFormat } from '../../../shared/export-format/export-file';
import { MAPPING_EXPORT_COLUMNS, type MappingExportRow } from '../../../shared/mapping';

const row = (overrides: Partial<MappingExportRow>): MappingExportRow => ({
  ...(Object.fromEntries(MAPPING_EXPORT_COLUMNS.map((column) => [column, null])) as Omit<MappingExportRow, 'supplierCodes'>),
  supplierCodes: {},
  status: 'MATCHED',
  ...overrides,
});

async function sheetOf(bytes: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as never);
  assert.equal(workbook.worksheets.length, 1);
  return workbook.worksheets[0]!;
}

describe('the supplier codes of an export', () => {
  const format = (file: 'csv' | 'xlsx' | 'json') =>
    resolveFormat(
      {
        id: 'f',
        format: file,
        includeFields: ['partnerHotelId', 'supplierCodes', 'referenceHotelCountryCode'],
        delimiter: ',',
        includeHeader: true,
        compression: 'none',
        updatedAt: '',
      },
      ['HOTELBEDS', 'expedia'],
    );
  const rows = [
    row({ partnerHotelId: 'P-1', supplierCodes: { EXPEDIA: '0998877' }, referenceHotelCountryCode: 'FR' }),
    row({ partnerHotelId: 'P-2' }),
  ];

  it('are a column per connected supplier in CSV and XLSX, an object in JSON', async () => {
    const csv = await openExportFile(format('csv'));
    csv.add(rows);
    assert.equal(
      (await csv.file()).bytes.toString('utf8'),
      'partnerHotelId,supplierCodes.HOTELBEDS,supplierCodes.EXPEDIA,referenceHotelCountryCode\nP-1,,0998877,FR\nP-2,,,\n',
    );
    const xlsx = await openExportFile(format('xlsx'));
    xlsx.add(rows);
    const sheet = await sheetOf((await xlsx.file()).bytes);
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), [
      'partnerHotelId',
      'supplierCodes.HOTELBEDS',
      'supplierCodes.EXPEDIA',
      'referenceHotelCountryCode',
    ]);
    assert.deepEqual([sheet.getRow(2).getCell(3).value, sheet.getRow(2).getCell(3).type], ['0998877', ExcelJS.ValueType.String]);
    const json = await openExportFile(format('json'));
    json.add(rows);
    assert.deepEqual(JSON.parse((await json.file()).bytes.toString('utf8')), [
      { partnerHotelId: 'P-1', supplierCodes: { EXPEDIA: '0998877' }, referenceHotelCountryCode: 'FR' },
      { partnerHotelId: 'P-2', supplierCodes: {}, referenceHotelCountryCode: null },
    ]);
  });

  it('make another format when the connections change: a file made before is not handed out again', () => {
    const before = format('csv');
    assert.ok(sameFormat(before, format('csv')));
    assert.ok(!sameFormat(before, { ...before, suppliers: ['HOTELBEDS'] }));
  });
});

describe('an XLSX export', () => {
  it('keeps as text what a spreadsheet would mangle: leading zeros, long numbers, formulas', async () => {
    const writer = await openExportFile(
      resolveFormat(
        {
          id: 'f',
          format: 'xlsx',
          includeFields: ['partnerHotelId', 'partnerHotelName', 'score', 'distanceMeters'],
          delimiter: ',',
          includeHeader: true,
          compression: 'none',
          updatedAt: '',
        },
        [],
      ),
    );
    writer.add([
      row({ partnerHotelId: '000123', partnerHotelName: '=HYPERLINK("http://evil.example","Click")', score: 0.91, distanceMeters: 12 }),
      row({ partnerHotelId: '12345678901234567890', partnerHotelName: '+1 (555) 0100', score: null }),
    ]);
    const file = await writer.file();
    assert.deepEqual([file.extension, file.contentType], ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    assert.equal(writer.rowCount, 2);
    const sheet = await sheetOf(file.bytes);
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), ['partnerHotelId', 'partnerHotelName', 'score', 'distanceMeters']);
    const [first, second] = [sheet.getRow(2), sheet.getRow(3)];
    assert.deepEqual([first.getCell(1).value, first.getCell(1).type], ['000123', ExcelJS.ValueType.String]);
    assert.deepEqual(
      [first.getCell(2).value, first.getCell(2).type],
      ['=HYPERLINK("http://evil.example","Click")', ExcelJS.ValueType.String],
    );
    assert.deepEqual([first.getCell(3).value, first.getCell(3).type], [0.91, ExcelJS.ValueType.Number]);
    assert.deepEqual([second.getCell(1).value, second.getCell(1).type], ['12345678901234567890', ExcelJS.ValueType.String]);
    assert.equal(second.getCell(2).value, '+1 (555) 0100');
    assert.equal(second.getCell(3).type, ExcelJS.ValueType.Null);
  });

  it('leaves the header row out when the format does', async () => {
    const writer = await openExportFile(
      resolveFormat(
        {
          id: 'f',
          format: 'xlsx',
          includeFields: ['partnerHotelId'],
          delimiter: ',',
          includeHeader: false,
          compression: 'none',
          updatedAt: '',
        },
        [],
      ),
    );
    writer.add([row({ partnerHotelId: 'P-1' })]);
    const sheet = await sheetOf((await writer.file()).bytes);
    assert.deepEqual(
      (sheet.getSheetValues().slice(1) as unknown[][]).map((values) => values.slice(1)),
      [['P-1']],
    );
  });
});
