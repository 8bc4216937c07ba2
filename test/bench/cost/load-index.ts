/** Run by cold-container.ts in a fresh process: loads the matching index at BENCH_INDEX_KEY and prints the milliseconds it took. */
import { localRuntime } from '../../../infra/local/messaging';
import type { AppConfig } from '../../../shared/platform/config';
import { matchingIndexesOf } from '../../../shared/reference';

const { runtime } = localRuntime(JSON.parse(process.env.BENCH_CONFIG!) as AppConfig);
const started = performance.now();
await matchingIndexesOf(runtime).load(process.env.BENCH_INDEX_KEY!);
process.stdout.write(`\n${performance.now() - started}`);
