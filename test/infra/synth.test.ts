import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from '@jest/globals';
import { CONSOLE_FILES_DIR } from '../../shared/console';
import { queueList } from '../../shared/queues';
import { routeList } from '../../shared/routes';
import { synthesize } from '../../infra/synth';

describe('cdk synth (real bundling, no credentials, no Docker)', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-synth-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('bundles every route and every queue worker into its own function', async () => {
    const functions = await synthesize(outDir);
    const workers = queueList.flatMap((queue) => [queue.handler, ...(queue.deadLetterHandler ? [queue.deadLetterHandler] : [])]);
    assert.equal(functions.length, routeList.length + workers.length);
    assert.equal(new Set(functions.map((f) => f.assetDir)).size, functions.length);
    for (const { handler, assetDir } of functions) {
      const bundle = join(assetDir, 'index.js');
      assert.ok(existsSync(bundle), `${handler} has a bundle`);
      assert.ok(statSync(bundle).size > 1000);
    }
    const docs = functions.find((f) => f.handler === 'docs/asset')!;
    assert.ok(existsSync(join(docs.assetDir, 'swagger-ui-bundle.js')), 'docs assets are shipped beside the bundle');
    // The console's page files too, every one the function serves.
    const consoleAssets = functions.find((f) => f.handler === 'console/asset')!;
    for (const file of readdirSync(CONSOLE_FILES_DIR).filter((name) => /\.(js|css)$/.test(name))) {
      assert.ok(existsSync(join(consoleAssets.assetDir, 'console', file)), `console/${file} is shipped beside the bundle`);
    }
    // A function bundles only what its code uses: the public docs and console pages touch no table and verify no token.
    for (const { handler, assetDir } of functions.filter((f) => f.handler.startsWith('docs/') || f.handler.startsWith('console/'))) {
      const bundle = readFileSync(join(assetDir, 'index.js'), 'utf8');
      assert.ok(!bundle.includes('DynamoDB_20120810'), `${handler} bundles no DynamoDB client`);
      assert.ok(!bundle.includes('ERR_JWS_SIGNATURE_VERIFICATION_FAILED'), `${handler} bundles no token verifier`);
    }
    const search = readFileSync(join(functions.find((f) => f.handler === 'reference/search')!.assetDir, 'index.js'), 'utf8');
    assert.ok(search.includes('DynamoDB_20120810'), 'the check above would see the client');
  }, 600_000);
});
