/**
 * `npm run bench:bundles`: synthesizes the stack with real bundling and prints each Lambda's
 * bundle size (minified index.js, and the zip-like gzip size of everything deployed) and its
 * module load time: `require` of the bundle in a fresh Node process, the median of LOAD_RUNS
 * (default 5), what a cold start spends before the handler runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { synthesize } from '../../infra/synth';

const LOAD_RUNS = Number(process.env.LOAD_RUNS ?? 5);
const outDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-bundles-'));
try {
  const startedAt = Date.now();
  const functions = await synthesize(outDir);
  console.log(`cdk synth with bundling: ${((Date.now() - startedAt) / 1000).toFixed(1)} s for ${functions.length} functions\n`);
  console.log('function'.padEnd(40), 'index.js'.padStart(10), 'deployed (gzip, no maps)'.padStart(26), 'module load'.padStart(12));
  const loads: number[] = [];
  for (const { handler, assetDir } of functions) {
    const files = readdirSync(assetDir).filter((file) => !file.endsWith('.map'));
    const indexBytes = statSync(join(assetDir, 'index.js')).size;
    const gzipBytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(assetDir, file))).length, 0);
    const load = moduleLoadMs(join(assetDir, 'index.js'));
    loads.push(load);
    console.log(handler.padEnd(40), kb(indexBytes).padStart(10), kb(gzipBytes).padStart(26), `${load.toFixed(1)} ms`.padStart(12));
  }
  loads.sort((a, b) => a - b);
  console.log(
    `\nmodule load over all functions: median ${loads[Math.floor(loads.length / 2)]!.toFixed(1)} ms, max ${loads.at(-1)!.toFixed(1)} ms`,
  );
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

/** Median milliseconds to require the bundle in a fresh process (as Lambda's runtime does, before the handler). */
function moduleLoadMs(bundle: string): number {
  const script = `const t = process.hrtime.bigint(); require(${JSON.stringify(bundle)}); process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e6));`;
  const runs = Array.from({ length: LOAD_RUNS }, () =>
    Number(execFileSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH, AWS_REGION: 'eu-west-1' }, encoding: 'utf8' })),
  ).sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)]!;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)} KiB`;
}
