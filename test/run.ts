/**
 * `npm test` (after the typecheck): every test file under test/unit, test/integration and
 * test/infra, on Node's test runner. DynamoDB Local and s3rver start once for the whole run; each
 * integration test file makes its own table and bucket on them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startStandIns } from '../infra/local/stand-ins';

const TEST_ROOT = import.meta.dirname;
const SUITES = ['unit', 'integration', 'infra'];

function testFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

async function main(): Promise<number> {
  const only = process.argv.slice(2);
  const files = SUITES.flatMap((suite) => testFiles(join(TEST_ROOT, suite)))
    .filter((file) => only.length === 0 || only.some((filter) => file.includes(filter)))
    .sort();
  if (files.length === 0) throw new Error('No test files found.');

  const s3DataDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-s3-'));
  const standIns = await startStandIns({ s3DataDir });
  try {
    process.stdout.write(`Running ${files.length} test files (DynamoDB Local ${standIns.dynamoDbEndpoint}, s3rver ${standIns.s3Endpoint})\n`);
    return await new Promise<number>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files.map((file) => relative(process.cwd(), file))],
        {
          stdio: 'inherit',
          env: {
            ...process.env,
            DYNAMODB_ENDPOINT: standIns.dynamoDbEndpoint,
            S3_ENDPOINT: standIns.s3Endpoint,
            LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
          },
        },
      );
      child.on('error', reject);
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    });
  } finally {
    await standIns.stop();
    rmSync(s3DataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`test run failed: ${String((error as Error)?.stack ?? error)}\n`);
    process.exit(1);
  },
);
