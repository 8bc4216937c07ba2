/**
 * The index artifact: one binary file holding every column, loaded back without parsing hotels.
 *
 * Layout: "HRIX" | uint32 LE header length | header JSON | zero padding to 8 | data sections.
 * The header is the IndexColumns object in which each typed array is replaced by
 * {"$typed": "<Type>", "offset": bytes from the data start, "length": elements}; sections are
 * 8-byte aligned so that loading creates views on the file buffer instead of copies.
 * The whole file may be gzipped (detected on load).
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { INDEX_FORMAT_VERSION, hydrateIndex, type IndexColumns, type ReferenceSearchIndex } from './index-model';

const MAGIC = 'HRIX';
const ALIGNMENT = 8;
const TYPED_ARRAYS = { Uint8Array, Uint32Array, Int32Array, Float32Array, Float64Array } as const;
type TypedArrayName = keyof typeof TYPED_ARRAYS;
type TypedArray = InstanceType<(typeof TYPED_ARRAYS)[TypedArrayName]>;

interface SectionReference {
  $typed: TypedArrayName;
  offset: number;
  length: number;
}

export interface SerializeOptions {
  /** Gzip the artifact (smaller download, slower load); default false. */
  gzip?: boolean;
}

function alignUp(value: number): number {
  return Math.ceil(value / ALIGNMENT) * ALIGNMENT;
}

function typedArrayName(value: unknown): TypedArrayName | undefined {
  if (!ArrayBuffer.isView(value)) return undefined;
  const name = value.constructor.name as TypedArrayName;
  if (!(name in TYPED_ARRAYS)) throw new Error(`Unsupported column type ${name}`);
  return name;
}

export function serializeIndex(index: ReferenceSearchIndex | IndexColumns, options: SerializeOptions = {}): Buffer {
  const columns = 'columns' in index ? index.columns : index;
  const sections: TypedArray[] = [];
  let dataLength = 0;
  const header = JSON.stringify(columns, (_key, value: unknown) => {
    const name = typedArrayName(value);
    if (!name) return value;
    const array = value as TypedArray;
    const reference: SectionReference = { $typed: name, offset: dataLength, length: array.length };
    sections.push(array);
    dataLength = alignUp(dataLength + array.byteLength);
    return reference;
  });
  const headerBytes = Buffer.from(header, 'utf8');
  const dataStart = alignUp(8 + headerBytes.length);
  const file = Buffer.alloc(dataStart + dataLength);
  file.write(MAGIC, 0, 'latin1');
  file.writeUInt32LE(headerBytes.length, 4);
  headerBytes.copy(file, 8);
  let offset = dataStart;
  for (const array of sections) {
    file.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), offset);
    offset = alignUp(offset + array.byteLength);
  }
  return options.gzip ? gzipSync(file, { level: 6 }) : file;
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

export function loadIndexColumns(artifact: Uint8Array): IndexColumns {
  let file = isGzip(artifact) ? gunzipSync(artifact) : artifact;
  // Views need element-aligned offsets: copy in the rare case the buffer itself is unaligned.
  if (file.byteOffset % ALIGNMENT !== 0) file = file.slice();
  const view = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (view.toString('latin1', 0, 4) !== MAGIC) throw new Error('Not a reference index artifact');
  const headerLength = view.readUInt32LE(4);
  const dataStart = file.byteOffset + alignUp(8 + headerLength);
  const columns = JSON.parse(view.toString('utf8', 8, 8 + headerLength), (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null || !('$typed' in value)) return value;
    const { $typed, offset, length } = value as SectionReference;
    return new TYPED_ARRAYS[$typed](file.buffer as ArrayBuffer, dataStart + offset, length);
  }) as IndexColumns;
  if (columns.formatVersion !== INDEX_FORMAT_VERSION) {
    throw new Error(`Reference index format ${columns.formatVersion} is not supported (expected ${INDEX_FORMAT_VERSION})`);
  }
  return columns;
}

export function loadIndex(artifact: Uint8Array): ReferenceSearchIndex {
  return hydrateIndex(loadIndexColumns(artifact));
}
