/**
 * Helpers for data kept in typed-array columns rather than as millions of objects (the matching
 * index, the id table of a file being read): growing a column, and a string's hash to store in one.
 */

/** A copy of `array` with room for at least `needed` elements (doubling), or `array` when it has room. */
export function withRoom<T extends Float32Array | Float64Array | Int32Array | Uint32Array | Uint16Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const grown = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
}

/** 32-bit FNV-1a hash of a string. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}
