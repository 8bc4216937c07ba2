/**
 * Compact column types of the search index. Strings are stored once (UTF-8 bytes plus offsets, or a
 * dictionary), numbers in typed arrays, so that an index of a million hotels loads as a handful of
 * buffers instead of millions of JavaScript objects.
 */

/** Code of a missing value in a dictionary column. */
export const MISSING_CODE = 0xffffffff;

/** Many strings in one UTF-8 buffer: string i is bytes[offsets[i]..offsets[i+1]). */
export interface StringColumn {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** Repeated strings: value of row i is values[codes[i]], or missing when codes[i] is MISSING_CODE. */
export interface DictionaryColumn {
  values: string[];
  codes: Uint32Array;
}

/** Compressed sparse rows: the list of key k is items[offsets[k]..offsets[k+1]), ascending. */
export interface PostingLists {
  offsets: Uint32Array;
  items: Uint32Array;
}

const utf8Decoder = new TextDecoder();

export function readString(column: StringColumn, row: number): string {
  return utf8Decoder.decode(column.bytes.subarray(column.offsets[row], column.offsets[row + 1]));
}

export function postingList(lists: PostingLists, key: number): Uint32Array {
  return lists.items.subarray(lists.offsets[key], lists.offsets[key + 1]);
}

export function postingLength(lists: PostingLists, key: number): number {
  return (lists.offsets[key + 1] as number) - (lists.offsets[key] as number);
}

export function encodeStringColumn(strings: readonly string[]): StringColumn {
  const offsets = new Uint32Array(strings.length + 1);
  strings.forEach((text, row) => {
    offsets[row + 1] = offsets[row]! + Buffer.byteLength(text, 'utf8');
  });
  // One native encoding of the joined text is far faster than encoding each string.
  const encoded = Buffer.from(strings.join(''), 'utf8');
  return { bytes: new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.length), offsets };
}

/** Assigns dictionary codes as values arrive; `undefined` and '' become MISSING_CODE. */
export class DictionaryEncoder {
  readonly values: string[] = [];
  private readonly codeOf = new Map<string, number>();

  encode(value: string | undefined): number {
    if (value === undefined || value === '') return MISSING_CODE;
    let code = this.codeOf.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codeOf.set(value, code);
    }
    return code;
  }
}

/** Builds posting lists from (key, item) pairs given in ascending item order. */
export function buildPostingLists(keyCount: number, keyOfItem: Uint32Array): PostingLists {
  const offsets = new Uint32Array(keyCount + 1);
  for (const key of keyOfItem) if (key !== MISSING_CODE) offsets[key + 1]! += 1;
  for (let key = 0; key < keyCount; key++) offsets[key + 1]! += offsets[key]!;
  const items = new Uint32Array(offsets[keyCount] as number);
  const cursor = offsets.slice(0, keyCount);
  keyOfItem.forEach((key, item) => {
    if (key !== MISSING_CODE) items[cursor[key]!++] = item;
  });
  return { offsets, items };
}
