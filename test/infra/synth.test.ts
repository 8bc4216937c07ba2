import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { CONSOLE_FILES_DIR } from '../../shared/console';
import { queueList } from '../../shared/queues';
import { routeList } from '../../shared/routes';
import { synthesize, type SynthesizedFunction } from '../../infra/synth';

describe('cdk synth (real bundling, no credentials, no Docker)', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-synth-'));
  let functions: SynthesizedFunction[];
  beforeAll(async () => {
    functions = await synthesize(outDir);
  }, 600_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('bundles every route and every queue worker into its own function', () => {
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
  });

  // Lambda has only the bundle: a dependency that requires its own files at run time fails at cold
  // start, which no test through the local runtime (it loads the sources) can see.
  it('loads every bundle alone, as Lambda does, and finds its handler', async () => {
    const alone = mkdtempSync(join(tmpdir(), 'hotel-mapping-bundle-alone-'));
    try {
      assert.deepEqual(ancestorsWithNodeModules(alone), [], 'nothing to resolve a package from above the copies');
      const failures: string[] = [];
      await inParallel(functions, 2, async ({ handler, assetDir, environment }) => {
        const copy = join(alone, handler.replace('/', '-'));
        cpSync(assetDir, copy, { recursive: true });
        const problem = await loadProblem(copy, environment);
        if (problem) failures.push(`${handler}: ${problem}`);
      });
      assert.deepEqual(failures, []);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  }, 300_000);

  it('the load check sees a bundle that needs a file it does not hold', async () => {
    const alone = mkdtempSync(join(tmpdir(), 'hotel-mapping-bundle-alone-'));
    try {
      const { assetDir, environment } = functions.find((f) => f.handler === 'docs/asset')!;
      cpSync(assetDir, alone, { recursive: true });
      const bundle = join(alone, 'index.js');
      cpSync(bundle, join(alone, 'bundled.js'));
      // The shape of the failure it guards against: a require left to run time.
      writeFileSync(bundle, `require('./impl/format'); module.exports = require('./bundled.js');`);
      assert.match((await loadProblem(alone, environment)) ?? '', /Cannot find module '\.\/impl\/format'/);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });
});

/** Why requiring the folder's index.js in a fresh Node with only the function's environment fails, or undefined when it loads and exports a handler. */
async function loadProblem(folder: string, environment: Record<string, string>): Promise<string | undefined> {
  const script = `try { const m = require('./index.js'); if (typeof m.handler !== 'function') throw new Error('no handler exported'); } catch (error) { process.stdout.write(String(error.message).split('\\n')[0]); process.exit(1); }`;
  const env = { ...environment, PATH: process.env.PATH ?? '', AWS_REGION: 'eu-west-1', AWS_LAMBDA_FUNCTION_NAME: 'load-check', LAMBDA_TASK_ROOT: folder };
  try {
    await promisify(execFile)(process.execPath, ['-e', script], { cwd: folder, env, timeout: 60_000 });
    return undefined;
  } catch (error) {
    const { stdout, message } = error as { stdout?: string; message: string };
    return stdout || message;
  }
}

function ancestorsWithNodeModules(folder: string): string[] {
  const found: string[] = [];
  for (let dir = folder; dir !== parse(dir).root; dir = dirname(dir)) if (existsSync(join(dir, 'node_modules'))) found.push(dir);
  if (existsSync(join(parse(folder).root, 'node_modules'))) found.push(parse(folder).root);
  return found;
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: width }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  }));
}
