/**
 * `npm run bench:bundles`: synthesizes the stack with real bundling and prints each Lambda's
 * bundle size (minified index.js, and the zip-like gzip size of everything deployed).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { synthesize } from '../../infra/synth';

const outDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-bundles-'));
try {
  const startedAt = Date.now();
  const functions = await synthesize(outDir);
  console.log(`cdk synth with bundling: ${((Date.now() - startedAt) / 1000).toFixed(1)} s for ${functions.length} functions\n`);
  console.log('function'.padEnd(40), 'index.js'.padStart(10), 'deployed (gzip, no maps)'.padStart(26));
  for (const { handler, assetDir } of functions) {
    const files = readdirSync(assetDir).filter((file) => !file.endsWith('.map'));
    const indexBytes = statSync(join(assetDir, 'index.js')).size;
    const gzipBytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(assetDir, file))).length, 0);
    console.log(handler.padEnd(40), kb(indexBytes).padStart(10), kb(gzipBytes).padStart(26));
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)} KiB`;
}
