/**
 * Workbooks whose archive lies about its size: a real workbook's parts, its first worksheet padded
 * with whitespace that inflates to `inflatedBytes`, while both the worksheet's local header and the
 * central directory declare `declaredBytes`. The padding is one flushed deflate block repeated, so
 * a bomb of gigabytes is made in milliseconds.
 */
import { constants, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';

const MEBIBYTE = 1024 * 1024;

/** Deflate blocks that end on a byte boundary with the history reset: they can be laid end to end. */
function flushedBlocks(data: Buffer): Buffer {
  return deflateRawSync(data, { finishFlush: constants.Z_FULL_FLUSH });
}

export interface WorkbookBombOptions {
  /** What the worksheet inflates to, in whole mebibytes of padding. */
  inflatedMebibytes: number;
  /** What the archive says the worksheet holds. */
  declaredBytes: number;
}

export async function workbookBomb({ inflatedMebibytes, declaredBytes }: WorkbookBombOptions): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Hotels').addRows([
    ['id', 'name'],
    ['H1', 'Hotel One'],
  ]);
  const archive = await JSZip.loadAsync(Buffer.from(await workbook.xlsx.writeBuffer()));
  const entries: ZipEntry[] = [];
  for (const [name, file] of Object.entries(archive.files)) {
    if (file.dir) continue;
    const content = await file.async('nodebuffer');
    if (name !== 'xl/worksheets/sheet1.xml') {
      entries.push({ name, deflated: deflateRawSync(content), declaredBytes: content.length });
      continue;
    }
    // The padding goes between the rows, where a reader has to read through it.
    const xml = content.toString('utf8');
    const cut = xml.indexOf('</row>') + '</row>'.length;
    const padding = flushedBlocks(Buffer.alloc(MEBIBYTE, ' '));
    const deflated = Buffer.concat([
      flushedBlocks(Buffer.from(xml.slice(0, cut))),
      ...Array.from({ length: inflatedMebibytes }, () => padding),
      deflateRawSync(Buffer.from(xml.slice(cut))),
    ]);
    entries.push({ name, deflated, declaredBytes });
  }
  return zipArchive(entries);
}

interface ZipEntry {
  name: string;
  deflated: Buffer;
  declaredBytes: number;
}

/** A ZIP archive of deflated entries whose headers (local and central) declare the sizes given; CRCs left 0. */
function zipArchive(entries: ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name, deflated, declaredBytes } of entries) {
    const fileName = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(declaredBytes, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // needed
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(declaredBytes, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, fileName, deflated);
    directory.push(central, fileName);
    offset += local.length + fileName.length + deflated.length;
  }
  const directoryBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directoryBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directoryBytes, end]);
}
