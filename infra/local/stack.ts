/**
 * The local stack: stand-ins running, table and bucket created, and the configuration handlers
 * use to reach them. Shared by `npm start` and the tests.
 */
import { generateKeyPairSync } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { requireSetting, type AppConfig } from '../../shared/platform/config';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';
import { createS3Client } from '../../shared/platform/objects/s3-object-store';
import { ensureBucket, ensureTable } from './provision';
import { startStandIns, type StandInOptions } from './stand-ins';

export interface LocalStack {
  config: AppConfig;
  stop(): Promise<void>;
}

export const LOCAL_REGION = 'eu-west-1';
/** The account trust policies name on the local runtime, which has none. */
export const LOCAL_ACCOUNT_ID = '000000000000';

export async function provisionLocalStack(
  options: StandInOptions & {
    localTokenSigningKey: string;
    localSecretsKey: string;
    tableName?: string;
    bucketName?: string;
    resultsBucketName?: string;
  },
): Promise<LocalStack> {
  const standIns = await startStandIns(options);
  const config: AppConfig = {
    stage: 'local',
    region: LOCAL_REGION,
    tableName: options.tableName ?? 'hotel-mapping-local',
    bucketName: options.bucketName ?? 'hotel-mapping-local',
    resultsBucketName: options.resultsBucketName ?? 'hotel-mapping-local-results',
    dynamoDbEndpoint: standIns.dynamoDbEndpoint,
    s3Endpoint: standIns.s3Endpoint,
    localTokenSigningKey: options.localTokenSigningKey,
    localSecretsKey: options.localSecretsKey,
    // No AWS account: trust policies name this placeholder.
    accountId: LOCAL_ACCOUNT_ID,
    // A local receiver (http://127.0.0.1:…) only when asked for; never in a deployed stack.
    localAllowances: process.env.ALLOW_LOOPBACK_DESTINATIONS === 'true' ? [LOOPBACK_DESTINATIONS] : [],
  };
  await provisionResources(config);
  return { config, stop: () => standIns.stop() };
}

/** A new P-256 private key (PKCS#8 PEM) for bearer tokens: what the KMS key is in AWS. */
export function newLocalTokenSigningKey(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
}

/** Creates the config's table and buckets on running stand-ins (tests call it per test file). */
export async function provisionResources(config: AppConfig): Promise<void> {
  const dynamo = new DynamoDBClient({
    region: config.region,
    endpoint: config.dynamoDbEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const s3 = createS3Client(config);
  try {
    await Promise.all([
      ensureTable(dynamo, requireSetting(config, 'tableName')),
      ensureBucket(s3, requireSetting(config, 'bucketName')),
      ensureBucket(s3, requireSetting(config, 'resultsBucketName')),
    ]);
  } finally {
    dynamo.destroy();
    s3.destroy();
  }
}
