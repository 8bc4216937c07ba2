/**
 * Loads a matching index file in a fresh process, as a cold find-match function does (the S3 read
 * aside), and prints what it took as JSON: the time, the peak RSS and what stays held after.
 *   npx tsx test/bench/index-memory.ts <index file>
 */
import { readFileSync } from 'node:fs';
import { deserializeMatchingIndex } from '../../shared/mapping';

const started = performance.now();
let bytes: Buffer | undefined = readFileSync(process.argv[2]!);
const index = deserializeMatchingIndex(bytes);
const loadMs = performance.now() - started;
bytes = undefined;
global.gc?.();
const memory = process.memoryUsage();
console.log(
  JSON.stringify({
    loadMs,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    heldRssMb: memory.rss / 2 ** 20,
    heapMb: memory.heapUsed / 2 ** 20,
    buffersMb: memory.arrayBuffers / 2 ** 20,
    kept: index !== undefined,
  }),
);
