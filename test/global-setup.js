/**
 * Starts DynamoDB Local and s3rver once for the whole run. Their endpoints reach the test workers
 * through the environment, which the workers inherit; so does TMPDIR, one folder for the run that
 * the teardown removes whole (each synth writes a cdk.out of its own there, as tests' files do).
 * (Plain JavaScript: jest loads global setup outside its module system; tsx loads the TypeScript it
 * needs.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { findBrowser } from './support/browser.js';

export default async function globalSetup() {
  findBrowser({ required: process.env.REQUIRE_BROWSER === '1' });
  const runTmp = mkdtempSync(join(tmpdir(), 'hotel-mapping-test-'));
  process.env.TMPDIR = runTmp;
  const { startStandIns, StandInUnavailable } = await tsImport('../infra/local/stand-ins.ts', import.meta.url);
  const s3DataDir = mkdtempSync(join(runTmp, 'hotel-mapping-s3-'));
  const standIns = await startStandIns({ s3DataDir }).catch((error) => {
    // No Java, for one: one line that says what to install, not a stack.
    if (!(error instanceof StandInUnavailable)) throw error;
    process.stderr.write(`\n${error.message}\n`);
    process.exit(1);
  });
  process.env.DYNAMODB_ENDPOINT = standIns.dynamoDbEndpoint;
  process.env.S3_ENDPOINT = standIns.s3Endpoint;
  process.env.LOG_LEVEL ??= 'silent';
  globalThis.standIns = { ...standIns, runTmp };
}
