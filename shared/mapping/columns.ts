/**
 * Helpers for data kept in typed-array columns rather than as millions of objects (the matching
 * index, the id table of a file being read): growing a column, a string's hash to store in one,
 * columns of strings kept as one string, and a table of string keys kept that way.
 */

/**
 * A copy of `array` with room for at least `needed` elements (doubling), or `array` when it has
 * room. A caller on a per-row path checks for room itself first: this function sees five array
 * types, and asking an array of any of them its length costs more than the check where the type is known.
 */
export function withRoom<T extends Float32Array | Float64Array | Int32Array | Uint32Array | Uint16Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const grown = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
}

/** 32-bit FNV-1a hash of a string. */
export function hashText(text: string): number {
  return hashTextRange(text, 0, text.length);
}

/** FNV-1a (as hashText) of text[start, end), without slicing it out. */
function hashTextRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/**
 * A column of strings kept as one string: value i is text.slice(starts[i], ends[i]). A million
 * hotels' ids as one string rather than a million: the collector copies and marks one object, and
 * a copy for another thread or a snapshot clones one. Plain data, so it serialises as it is.
 */
export interface TextColumn {
  text: string;
  starts: Uint32Array;
  ends: Uint32Array;
}

export function textAt(column: TextColumn, i: number): string {
  return column.text.slice(column.starts[i], column.ends[i]);
}

/** textAt(column, i) === value, without slicing the value out. */
export function textEquals(column: TextColumn, i: number, value: string): boolean {
  const start = column.starts[i]!;
  return column.ends[i]! - start === value.length && column.text.startsWith(value, start);
}

export function textIsEmpty(column: TextColumn, i: number): boolean {
  return column.starts[i] === column.ends[i];
}

/** hashText of every value, in column order. */
export function textHashes(column: TextColumn): Int32Array {
  const hashes = new Int32Array(column.starts.length);
  for (let i = 0; i < hashes.length; i++) hashes[i] = hashTextRange(column.text, column.starts[i]!, column.ends[i]!);
  return hashes;
}

/** A column of `values` in their order. */
export function textColumnOf(values: readonly string[]): TextColumn {
  const builder = new TextColumnBuilder();
  for (const value of values) builder.add(value);
  return builder.packed();
}

/** The column laid out anew: value i becomes value positionOf[i] (the text stays as it is). */
export function scatterText(column: TextColumn, positionOf: Int32Array): TextColumn {
  const count = positionOf.length;
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    starts[positionOf[i]!] = column.starts[i]!;
    ends[positionOf[i]!] = column.ends[i]!;
  }
  return { text: column.text, starts, ends };
}

/** V8's longest string (2^29 - 24 characters on 64-bit builds). */
const MAX_TEXT_LENGTH = 2 ** 29 - 24;

/**
 * Values added one at a time are joined a few hundred at a time: each is then alive only until its
 * piece is joined, most die young, and the collector copies a few thousand pieces instead of a
 * million strings.
 */
const PIECE_VALUES = 256;

/**
 * Builds a TextColumn value by value, or a packed column of another builder at a time. `packed`
 * gives the values in the order they came, each right after the one before in the text.
 */
export class TextColumnBuilder {
  private readonly pieces: string[] = [];
  /** Number of the first value of each piece. */
  private readonly pieceStarts: number[] = [];
  private pending: string[] = [];
  /** Value i is characters offsets[i] .. offsets[i + 1] of the pieces joined. */
  private offsets = new Uint32Array(1024);
  private values = 0;

  get count(): number {
    return this.values;
  }

  add(value: string): void {
    this.checkRoom(value.length);
    this.pending.push(value);
    if (this.values + 2 > this.offsets.length) this.offsets = withRoom(this.offsets, this.values + 2);
    this.offsets[this.values + 1] = this.offsets[this.values]! + value.length;
    this.values += 1;
    if (this.pending.length === PIECE_VALUES) this.joinPending();
  }

  /** Adds every value of `column`, a column `packed` made, in order. */
  append(column: TextColumn): void {
    const added = column.starts.length;
    if (added === 0) return;
    this.checkRoom(column.text.length);
    this.joinPending();
    this.pieces.push(column.text);
    this.pieceStarts.push(this.values);
    this.offsets = withRoom(this.offsets, this.values + added + 1);
    const shift = this.offsets[this.values]! - column.starts[0]!;
    for (let k = 0; k < added; k++) this.offsets[this.values + k + 1] = shift + column.ends[k]!;
    this.values += added;
  }

  /** Value i === value, without slicing it out. */
  equals(i: number, value: string): boolean {
    const start = this.offsets[i]!;
    if (this.offsets[i + 1]! - start !== value.length) return false;
    const joined = this.values - this.pending.length;
    if (i >= joined) return this.pending[i - joined] === value;
    const piece = lastAtOrBefore(this.pieceStarts, i);
    return this.pieces[piece]!.startsWith(value, start - this.offsets[this.pieceStarts[piece]!]!);
  }

  /** Every value so far, as one string (the builder can go on adding). */
  packed(): TextColumn {
    this.joinPending();
    if (this.pieces.length > 1) {
      const text = this.pieces.join('');
      this.pieces.length = 0;
      this.pieceStarts.length = 0;
      this.pieces.push(text);
      this.pieceStarts.push(0);
    }
    const offsets = this.offsets.slice(0, this.values + 1);
    return { text: this.pieces[0] ?? '', starts: offsets.subarray(0, this.values), ends: offsets.subarray(1) };
  }

  private checkRoom(characters: number): void {
    if (this.offsets[this.values]! + characters > MAX_TEXT_LENGTH) {
      throw new RangeError(`a text column holds at most ${MAX_TEXT_LENGTH} characters in all`);
    }
  }

  private joinPending(): void {
    if (this.pending.length === 0) return;
    this.pieceStarts.push(this.values - this.pending.length);
    this.pieces.push(this.pending.join(''));
    this.pending = [];
  }
}

/** Position of the last element of the ascending `sorted` that is <= value (sorted[0] <= value). */
function lastAtOrBefore(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (sorted[middle]! <= value) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** A TextKeyTable as plain data (what a snapshot holds); look a key up with textKeyEntry. */
export interface TextKeys {
  /** Each key, in the order first added: entry k is keys value k. */
  keys: TextColumn;
  /** hashText of each key. */
  hashes: Int32Array;
  /** Entry + 1 per slot, 0 for an empty slot; a power of two long, at most two thirds full. */
  slots: Int32Array;
}

/** The entry of `key` in `table`, or -1. */
export function textKeyEntry(table: TextKeys, key: string): number {
  const hash = hashText(key);
  const mask = table.slots.length - 1;
  for (let slot = hash & mask; table.slots[slot] !== 0; slot = (slot + 1) & mask) {
    const entry = table.slots[slot]! - 1;
    if (table.hashes[entry] === hash && textEquals(table.keys, entry, key)) return entry;
  }
  return -1;
}

/**
 * Strings to entry numbers (0, 1, 2… in the order first added): an open-addressing table over
 * typed arrays with its keys in a text column, so millions of keys are not millions of strings
 * (a Map of a million fresh id strings cost more than reading the rows). Callers keep what an
 * entry maps to in arrays of their own.
 */
export class TextKeyTable {
  private readonly keys = new TextColumnBuilder();
  private hashes: Int32Array;
  private slots: Int32Array;

  /** `expected`: keys to make room for at once (the table grows past them). */
  constructor(expected = 1024) {
    this.hashes = new Int32Array(Math.max(1, expected));
    this.slots = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(2, 1.5 * expected))));
  }

  get count(): number {
    return this.keys.count;
  }

  /** The entry of `key`, or -1. */
  entryOf(key: string): number {
    return this.slots[this.slotOf(key, hashText(key))]! - 1;
  }

  /** The entry of `key` when it was added before; else adds it (as entry count - 1) and returns -1. */
  claim(key: string): number {
    const hash = hashText(key);
    const slot = this.slotOf(key, hash);
    if (this.slots[slot] !== 0) return this.slots[slot]! - 1;
    const entry = this.keys.count;
    this.keys.add(key);
    if (entry + 1 > this.hashes.length) this.hashes = withRoom(this.hashes, entry + 1);
    this.hashes[entry] = hash;
    this.slots[slot] = entry + 1;
    if (3 * this.keys.count > 2 * this.slots.length) this.rehash();
    return -1;
  }

  toData(): TextKeys {
    return { keys: this.keys.packed(), hashes: this.hashes.slice(0, this.keys.count), slots: this.slots };
  }

  /** The slot holding `key`, or the empty slot where it goes. */
  private slotOf(key: string, hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let entry = this.slots[slot]! - 1; entry >= 0; entry = this.slots[slot]! - 1) {
      if (this.hashes[entry] === hash && this.keys.equals(entry, key)) return slot;
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let entry = 0; entry < this.keys.count; entry++) {
      let slot = this.hashes[entry]! & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = entry + 1;
    }
  }
}
