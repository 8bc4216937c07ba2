import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { CONSOLE_FILES_DIR } from '../../shared/console';
import { DOCS_FILES_DIR, GUIDE_NAMES } from '../../shared/docs';
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
    for (const file of readdirSync(DOCS_FILES_DIR))
      assert.ok(existsSync(join(docs.assetDir, 'docs', file)), `docs/${file} is shipped beside the bundle`);
    // The guides' Markdown beside each function that renders it: a guide's page and the index of them all.
    for (const handler of ['docs/guide', 'docs/guides']) {
      const { assetDir } = functions.find((f) => f.handler === handler)!;
      for (const guide of GUIDE_NAMES)
        assert.ok(existsSync(join(assetDir, 'guides', `${guide}.md`)), `${handler} ships guides/${guide}.md`);
    }
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

  // The files a page reads at run time are found where the stack put them, by the bundle alone.
  it('serves the guides and the docs files from their bundles alone', async () => {
    const alone = mkdtempSync(join(tmpdir(), 'hotel-mapping-bundle-alone-'));
    try {
      const pages = [
        { handler: 'docs/guides', resource: '/docs/guides', pathParameters: null, shows: '<h1 id="guides">' },
        ...GUIDE_NAMES.map((guide) => ({
          handler: 'docs/guide',
          resource: '/docs/guides/{guide}',
          pathParameters: { guide },
          shows: '<h1 id="',
        })),
        { handler: 'docs/asset', resource: '/docs/{asset}', pathParameters: { asset: 'guides.css' }, shows: '.guide-page' },
        { handler: 'docs/asset', resource: '/docs/{asset}', pathParameters: { asset: 'swagger-init.js' }, shows: 'SwaggerUIBundle' },
      ];
      for (const { handler, resource, pathParameters, shows } of pages) {
        const { assetDir, environment } = functions.find((f) => f.handler === handler)!;
        const copy = join(alone, handler.replace('/', '-'));
        if (!existsSync(copy)) cpSync(assetDir, copy, { recursive: true });
        const path = resource.replace(/\{(\w+)\}/, (_, name: string) => (pathParameters as Record<string, string>)[name]!);
        const answer = await invokeAlone(copy, environment, gatewayEvent(path, resource, pathParameters));
        assert.equal(answer.statusCode, 200, `${path}: ${answer.body.slice(0, 300)}`);
        assert.ok(answer.body.includes(shows), path);
        if (answer.body.startsWith('<!doctype html>')) assert.ok(answer.body.includes('<base href="/prod/">'), path);
      }
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  }, 120_000);

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
  const env = {
    ...environment,
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-west-1',
    AWS_LAMBDA_FUNCTION_NAME: 'load-check',
    LAMBDA_TASK_ROOT: folder,
  };
  try {
    await promisify(execFile)(process.execPath, ['-e', script], { cwd: folder, env, timeout: 60_000 });
    return undefined;
  } catch (error) {
    const { stdout, message } = error as { stdout?: string; message: string };
    return stdout || message;
  }
}

/** A GET through API Gateway's REST proxy on stage `prod`, as the deployed function receives it. */
function gatewayEvent(path: string, resource: string, pathParameters: Record<string, string> | null) {
  const domainName = 'abc123.execute-api.eu-west-1.amazonaws.com';
  return {
    resource,
    path,
    httpMethod: 'GET',
    headers: { host: domainName, 'x-forwarded-proto': 'https' },
    multiValueHeaders: { host: [domainName], 'x-forwarded-proto': ['https'] },
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: 'bundle-alone',
      path: `/prod${path}`,
      stage: 'prod',
      domainName,
      httpMethod: 'GET',
      resourcePath: resource,
      identity: { sourceIp: '203.0.113.7' },
    },
  };
}

const ANSWER_MARK = '\n--- answer ---\n';

/** What the handler of the folder's index.js answers to the event, in a fresh Node with only the function's environment. */
async function invokeAlone(
  folder: string,
  environment: Record<string, string>,
  event: unknown,
): Promise<{ statusCode: number; body: string }> {
  // The function logs (and writes its metrics) on stdout too: its answer is what follows the mark.
  const script = `const answered = (answer) => process.stdout.write(process.env.ANSWER_MARK + JSON.stringify(answer));
    require('./index.js').handler(JSON.parse(process.env.GATEWAY_EVENT), { awsRequestId: 'bundle-alone', functionName: 'bundle-alone', getRemainingTimeInMillis: () => 10000 })
      .then(answered, (error) => answered({ statusCode: 0, body: String(error && error.stack) }));`;
  const env = {
    ...environment,
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'eu-west-1',
    AWS_LAMBDA_FUNCTION_NAME: 'bundle-alone',
    LAMBDA_TASK_ROOT: folder,
    GATEWAY_EVENT: JSON.stringify(event),
    ANSWER_MARK,
  };
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
    cwd: folder,
    env,
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.slice(stdout.lastIndexOf(ANSWER_MARK) + ANSWER_MARK.length)) as { statusCode: number; body: string };
}

function ancestorsWithNodeModules(folder: string): string[] {
  const found: string[] = [];
  for (let dir = folder; dir !== parse(dir).root; dir = dirname(dir)) if (existsSync(join(dir, 'node_modules'))) found.push(dir);
  if (existsSync(join(parse(folder).root, 'node_modules'))) found.push(parse(folder).root);
  return found;
}

async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}
