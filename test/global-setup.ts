/**
 * Starts DynamoDB Local and s3rver once for the whole run. Their endpoints reach the test workers
 * through the environment, which the workers inherit.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStandIns } from '../infra/local/stand-ins';

export default async function globalSetup(): Promise<void> {
  const s3DataDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-s3-'));
  const standIns = await startStandIns({ s3DataDir });
  process.env.DYNAMODB_ENDPOINT = standIns.dynamoDbEndpoint;
  process.env.S3_ENDPOINT = standIns.s3Endpoint;
  process.env.LOG_LEVEL ??= 'silent';
  (globalThis as { standIns?: unknown }).standIns = { ...standIns, s3DataDir };
}
