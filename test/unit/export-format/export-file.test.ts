/** The export files' writers: what a spreadsheet reads in an XLSX file. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { openExportFile, resolveFormat } from '../../../shared/export-format/export-file';
import { MAPPING_EXPORT_COLUMNS, type MappingExportRow } from '../../../shared/mapping';

const row = (overrides: Partial<MappingExportRow>): MappingExportRow => ({
  ...(Object.fromEntries(MAPPING_EXPORT_COLUMNS.map((column) => [column, null])) as MappingExportRow),
  status: 'MATCHED',
  ...overrides,
});

async function sheetOf(bytes: Buffer): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as never);
  assert.equal(workbook.worksheets.length, 1);
  return workbook.worksheets[0]!;
}

describe('an XLSX export', () => {
  it('keeps as text what a spreadsheet would mangle: leading zeros, long numbers, formulas', async () => {
    const writer = await openExportFile(resolveFormat({ id: 'f', format: 'xlsx', includeFields: ['partnerHotelId', 'partnerHotelName', 'score', 'distanceMeters'], delimiter: ',', includeHeader: true, compression: 'none', updatedAt: '' }));
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
    assert.deepEqual([first.getCell(2).value, first.getCell(2).type], ['=HYPERLINK("http://evil.example","Click")', ExcelJS.ValueType.String]);
    assert.deepEqual([first.getCell(3).value, first.getCell(3).type], [0.91, ExcelJS.ValueType.Number]);
    assert.deepEqual([second.getCell(1).value, second.getCell(1).type], ['12345678901234567890', ExcelJS.ValueType.String]);
    assert.equal(second.getCell(2).value, '+1 (555) 0100');
    assert.equal(second.getCell(3).type, ExcelJS.ValueType.Null);
  });

  it('leaves the header row out when the format does', async () => {
    const writer = await openExportFile(resolveFormat({ id: 'f', format: 'xlsx', includeFields: ['partnerHotelId'], delimiter: ',', includeHeader: false, compression: 'none', updatedAt: '' }));
    writer.add([row({ partnerHotelId: 'P-1' })]);
    const sheet = await sheetOf((await writer.file()).bytes);
    assert.deepEqual((sheet.getSheetValues().slice(1) as unknown[][]).map((values) => values.slice(1)), [['P-1']]);
  });
});
