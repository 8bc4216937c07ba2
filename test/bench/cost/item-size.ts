/**
 * The bytes DynamoDB bills an item's storage by: each attribute's name and value (strings by their
 * UTF-8 length, numbers by about one byte per two significant digits plus one, lists and maps 3
 * bytes plus a byte per element), plus 100 bytes of overhead per item in the table and again in
 * each index that holds it. As documented in the DynamoDB developer guide ("Item sizes and formats").
 */
const ITEM_OVERHEAD_BYTES = 100;

export function itemBytes(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value), 0) + ITEM_OVERHEAD_BYTES;
}

function valueBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') {
    const digits =
      String(Math.abs(value))
        .replace(/[.-]|e.*$/g, '')
        .replace(/^0+/, '').length || 1;
    return Math.ceil(digits / 2) + 1;
  }
  if (value instanceof Uint8Array) return value.length;
  if (value instanceof Set) return [...value].reduce((sum: number, member) => sum + valueBytes(member), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + valueBytes(element), 0);
  if (typeof value === 'object') {
    return (
      3 +
      Object.entries(value as Record<string, unknown>).reduce(
        (sum, [name, element]) => sum + 1 + Buffer.byteLength(name) + valueBytes(element),
        0,
      )
    );
  }
  return 0;
}
