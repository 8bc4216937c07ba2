/**
 * A chunk worker's cold start, as Lambda bills it: the INIT phase (loading the function's bundle)
 * and its first message's load of the matching index, each measured in a fresh process. The bench
 * maps every chunk in its own process, which loads the index once; in AWS every container the
 * queue's concurrency starts loads it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildBundles } from '../../../infra/constructs/function-bundles';
import type { AppConfig } from '../../../shared/platform/config';

const run = promisify(execFile);

export interface ColdStart {
  initMs: number;
  indexLoadMs: number;
}

/** The cold start of the function of `handler`, whose first message loads the matching index at `matchingIndexKey`. */
export async function coldChunkContainer(config: AppConfig, handler: string, matchingIndexKey: string): Promise<ColdStart> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  try {
    buildBundles([handler], folder);
    const load = `const started = performance.now(); require(${JSON.stringify(join(folder, handler, 'index.js'))}); process.stdout.write(String(performance.now() - started));`;
    const init = await run(process.execPath, ['-e', load], { env: { PATH: process.env.PATH ?? '', AWS_REGION: 'us-east-1' } });
    const indexLoad = await run(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'load-index.ts')], {
      env: { ...process.env, BENCH_CONFIG: JSON.stringify(config), BENCH_INDEX_KEY: matchingIndexKey },
      maxBuffer: 1 << 20,
    });
    return { initMs: Number(init.stdout), indexLoadMs: Number(indexLoad.stdout.trim().split('\n').pop()) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
