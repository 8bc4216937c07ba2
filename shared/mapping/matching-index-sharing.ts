/** The matching index handed to worker threads: its typed arrays in shared memory, read in place by every thread. */
import { type MatchingIndex, type ReferenceIndexSnapshot } from './matching-index';

/**
 * The index's data for worker threads (postMessage, workerData): its typed arrays moved into
 * shared memory, so that every thread reads the one copy made here (strings are still copied,
 * about a hundred bytes per hotel). `new MatchingIndex(data)` on the worker takes it as it comes.
 */
export function shareMatchingIndex(index: MatchingIndex): ReferenceIndexSnapshot {
  return inSharedMemory(index.data) as ReferenceIndexSnapshot;
}

type TypedArray = Exclude<ArrayBufferView, DataView>;

/** Typed arrays copied into shared memory, inside plain objects too (a TextColumn, the supplier lookup); anything else as it is. */
function inSharedMemory(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    const array = value;
    if (array.buffer instanceof SharedArrayBuffer) return array;
    const Type = array.constructor as new (buffer: SharedArrayBuffer) => TypedArray & { set(source: TypedArray): void };
    const shared = new Type(new SharedArrayBuffer(array.byteLength));
    shared.set(array);
    return shared;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, inSharedMemory(field)]));
  }
  return value;
}
