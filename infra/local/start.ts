/**
 * `npm start`: the whole API on this machine. Starts DynamoDB Local and s3rver on loopback,
 * creates the table and bucket, seeds demo data, and serves /api/v1 on http://127.0.0.1:3000
 * (PORT overrides). State persists under .local/ (LOCAL_STATE_DIR overrides), queued work included,
 * so a restart (even after a crash) resumes it; `npm start -- --fresh` starts from scratch.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { apiKeyStoreOf, authenticatorOf, bearerTokensOf, isUsable, parseApiKey } from '../../shared/api-keys';
import { destinationPolicyOf } from '../../shared/platform/network/destinations';
import type { Runtime } from '../../shared/platform/runtime';
import { organizationStoreOf } from '../../shared/organizations';
import { localRuntime } from './messaging';
import { mapReviewDemo, REVIEW_DEMO, seedDemoOrganizations, seedReferenceInventory, seedSuppliers, type DemoCredentials } from './seed';
import { localPaymentPages } from './payment-pages';
import { createLocalApi } from './server';
import { newLocalTokenSigningKey, provisionLocalStack, type LocalStack } from './stack';
import { StandInUnavailable } from './stand-ins';
import { CREDENTIALS_FILE, LOCAL_STATE_DIR as STATE_DIR, PROCESSES_FILE, QUEUES_DIR, STACK_FILE, STREAM_POSITION_FILE } from './state';
import { lockStateFolder, StartRefused, type StateFolderLock } from './state-folder-lock';

async function main(): Promise<void> {
  const startedAt = Date.now();
  process.env.LOG_LEVEL ??= 'warn';
  mkdirSync(STATE_DIR, { recursive: true });
  const lock = await lockStateFolder(PROCESSES_FILE, STATE_DIR);
  if (process.argv.includes('--fresh')) {
    for (const entry of readdirSync(STATE_DIR))
      if (join(STATE_DIR, entry) !== PROCESSES_FILE) rmSync(join(STATE_DIR, entry), { recursive: true, force: true });
  }

  const stack = await provisionLocalStack({
    onSpawn: (pid) => lock.recordStandIn(pid),
    dynamoDbDataDir: join(STATE_DIR, 'dynamodb'),
    s3DataDir: join(STATE_DIR, 's3'),
    localTokenSigningKey: persistentSecret(join(STATE_DIR, 'token-signing-key.pem'), newLocalTokenSigningKey),
    localSecretsKey: persistentSecret(join(STATE_DIR, 'secrets-key'), () => randomBytes(32).toString('base64url')),
  });
  const started: { server?: Server } = {};
  stopOnSignal(stack, lock, () => started.server);
  const { runtime, messaging } = localRuntime(stack.config, { queueFolder: QUEUES_DIR, streamPositionFile: STREAM_POSITION_FILE });
  messaging.start();
  // Ready means usable: the demo inventory is published (searchable, statistics right) before
  // the server listens, the credentials file is written and the banner printed.
  const [reference, { demo, seeded }] = await Promise.all([
    seedReferenceInventory(runtime),
    seedSuppliers(runtime).then(async () => {
      const reused = await reusableCredentials(runtime);
      return reused ? { demo: reused, seeded: false } : { demo: await seedDemoOrganizations(runtime), seeded: true };
    }),
  ]);

  const port = Number(process.env.PORT ?? 3000);
  const listening = createLocalApi({ runtime, pages: localPaymentPages(runtime) });
  started.server = listening;
  await new Promise<void>((done, fail) => {
    listening.once('error', fail);
    listening.listen(port, '127.0.0.1', done);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const bearerToken = await demoBearerToken(runtime, demo);
  const credentials = { baseUrl, ...demo, bearerToken };
  writeFileSync(CREDENTIALS_FILE, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  const { localTokenSigningKey: _tokenKey, localSecretsKey: _key, ...reachable } = stack.config;
  writeFileSync(STACK_FILE, `${JSON.stringify(reachable, null, 2)}\n`);

  const organization = await organizationStoreOf(runtime).get(demo.organizationId);
  process.stdout.write(
    [
      `Hotel Mapping API (local) ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
      `  Base URL        ${baseUrl}/api/v1`,
      `  API reference   ${baseUrl}/docs`,
      `  Guides          ${baseUrl}/docs/guides (for partners, operators and contributors)`,
      `  Review console  ${baseUrl}/console (sign in with the API key; the demo job of ${REVIEW_DEMO.rows.toLocaleString('en')} hotels leaves about 250 rows to review)`,
      `  Reference       ${reference.hotelCount.toLocaleString('en')} hotels${reference.seeded ? ` (generated and published in ${reference.seconds.toFixed(1)} s)` : ''}`,
      `  Organization    ${demo.organizationId} (${organization?.name}, ${organization?.planType} plan)`,
      // The full keys are in the credentials file (mode 600), not in terminal scrollback.
      `  API key         ${keyPrefix(demo.apiKey)}…   Admin API key ${keyPrefix(demo.adminApiKey)}…`,
      `  Credentials     ${CREDENTIALS_FILE} (full keys, and a bearer token valid 1 hour)`,
      ...(destinationPolicyOf(stack.config).allowLoopback
        ? ['  Destinations    webhooks and file deliveries may go to http://127.0.0.1 and localhost (ALLOW_LOOPBACK_DESTINATIONS)']
        : []),
      `Try: KEY=$(node -p "require('${CREDENTIALS_FILE}').apiKey"); curl -H "X-API-Key: $KEY" "${baseUrl}/api/v1/reference/search?q=hilton"`,
      'Ctrl-C stops the API, DynamoDB Local and s3rver.',
      '',
    ].join('\n'),
  );
  // After ready: the first call a newcomer makes never waits for it.
  if (seeded)
    mapReviewDemo(baseUrl, demo.apiKey).catch((error: unknown) =>
      process.stderr.write(`The review demo was not mapped: ${(error as Error).message}\n`),
    );
}

/** `hmk_<keyId>`: enough to tell keys apart, useless to a shoulder-surfer. */
function keyPrefix(key: string): string {
  const parsed = parseApiKey(key);
  return parsed ? `hmk_${parsed.keyId}` : key.slice(0, 16);
}

/** The demo keys from an earlier start, when the persisted table still knows them. */
async function reusableCredentials(runtime: Runtime): Promise<DemoCredentials | undefined> {
  if (!existsSync(CREDENTIALS_FILE)) return undefined;
  const { organizationId, apiKey, adminApiKey } = JSON.parse(readFileSync(CREDENTIALS_FILE, 'utf8')) as Partial<DemoCredentials>;
  for (const key of [apiKey, adminApiKey]) {
    const parsed = key ? parseApiKey(key) : undefined;
    if (!parsed || !isUsable(await apiKeyStoreOf(runtime).get(parsed.keyId))) return undefined;
  }
  return organizationId ? { organizationId, apiKey: apiKey!, adminApiKey: adminApiKey! } : undefined;
}

async function demoBearerToken(runtime: Runtime, demo: DemoCredentials): Promise<string> {
  const key = await authenticatorOf(runtime).verifyApiKey(demo.apiKey);
  const token = await bearerTokensOf(runtime).issue(
    { organizationId: key.organizationId, keyId: key.id, role: key.role },
    runtime.clock.now(),
  );
  return token.accessToken;
}

function persistentSecret(file: string, generate: () => string): string {
  if (!existsSync(file)) writeFileSync(file, generate(), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** Stops everything on Ctrl-C, from the moment the stand-ins run (an interrupted first seed starts over next time). */
function stopOnSignal(stack: LocalStack, lock: StateFolderLock, server: () => Server | undefined): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nStopping...\n');
    server()?.closeAllConnections();
    server()?.close();
    rmSync(STACK_FILE, { force: true });
    await stack.stop();
    lock.release();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(
    `npm start failed: ${error instanceof StartRefused || error instanceof StandInUnavailable ? error.message : String((error as Error)?.stack ?? error)}\n`,
  );
  process.exit(1);
});
