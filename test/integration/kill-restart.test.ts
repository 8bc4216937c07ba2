/**
 * Nothing is lost when the local API dies: `npm start` is killed (SIGKILL) while a mapping job
 * runs, an inventory validates and a webhook waits for its retry, then started again. Each one
 * finishes: every row counted once, the reservation settled, the inventory READY, the webhook's
 * retry sent once; and the DynamoDB Local the dead run left behind is stopped, not doubled.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it } from '@jest/globals';
import { RETRY_DELAYS_SECONDS } from '../../shared/webhooks/delivery';
import { adminCli } from '../support/local-api-process';
import { killHard, npmStart, stopGracefully, type Started } from '../support/npm-start';

const stateDir = mkdtempSync(join(tmpdir(), 'hotel-mapping-kill-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));
const ENV = { ALLOW_LOOPBACK_DESTINATIONS: 'true' };

const JOB_ROWS = 40_000;
const VALIDATED_ROWS = 60_000;

function partnerCsv(rows: number, prefix: string): string {
  const lines = ['id,name,city,country,lat,lon'];
  for (let index = 0; index < rows; index++) {
    lines.push(
      `${prefix}-${index},${prefix} Hotel ${index},Lisbon,pt,${(38.7 + (index % 997) / 10_000).toFixed(5)},${(-9.14 + (index % 991) / 10_000).toFixed(5)}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A webhook receiver that fails the first request it gets and accepts the rest. */
async function flakyReceiver() {
  const received: { at: number; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ at: Date.now(), body });
      response.writeHead(received.length === 1 ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

const admin = (...args: string[]) => adminCli(stateDir, ...args);

const FIND_REQUESTS = 20;
const FIND_HOTELS = 100;

/** A find-match request's hotels: a hundred of its own ids. */
function findHotels(request: number) {
  return Array.from({ length: FIND_HOTELS }, (_, i) => ({
    id: `F${request}-${i}`,
    name: `Find Hotel ${request} ${i}`,
    city: 'Lisbon',
    country: 'PT',
    lat: 38.7 + i / 10_000,
    lon: -9.14 + request / 10_000,
  }));
}

async function findMatch(started: Started, apiKey: string, idempotencyKey: string, json: unknown) {
  const response = await fetch(`${started.credentials.baseUrl}/api/v1/mapping/match`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

function caller(started: Started, apiKey: string) {
  return async (method: string, path: string, init: { json?: unknown; body?: FormData } = {}) => {
    const response = await fetch(`${started.credentials.baseUrl}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(init.json !== undefined && { 'content-type': 'application/json' }) },
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, seconds: number): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${seconds} s`);
    await sleep(50);
  }
}

/**
 * Like `until`, but fails only when the work stops moving for `stalledSeconds`: how fast it moves
 * depends on the machine and on what else the suite runs beside it, not on what is tested here.
 */
async function untilFinished<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, stalledSeconds: number): Promise<T> {
  let last = '';
  let deadline = 0;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    const seen = JSON.stringify(value);
    if (seen !== last) [last, deadline] = [seen, Date.now() + stalledSeconds * 1000];
    if (Date.now() > deadline) throw new Error(`${what}: stalled at ${seen} for ${stalledSeconds} s`);
    await sleep(50);
  }
}

const dynamoDbLocalProcesses = () =>
  execFileSync('ps', ['-eo', 'pid=,command='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('DynamoDBLocal') && line.includes(stateDir));

const receiver = await flakyReceiver();
afterAll(() => void receiver.server.close());

describe('npm start killed mid-work', () => {
  it('resumes a running job, a validating inventory and a waiting webhook retry after a restart', async () => {
    const first = await npmStart(stateDir, ['--fresh'], ENV);
    const organization = admin('create-org', '--name', 'Kill test', '--plan', 'ENTERPRISE');
    const apiKey = admin('create-key', '--org', organization.id!).apiKey!;
    let api = caller(first, apiKey);

    // A webhook whose first attempt fails: its retry waits a minute.
    const subscription = await api('POST', '/api/v1/webhook-subscriptions', { json: { url: receiver.url, events: ['MAPPING_COMPLETED'] } });
    assert.equal(subscription.status, 201);
    const test = await api('POST', `/api/v1/webhook-subscriptions/${subscription.body.id}/test`, {
      json: { eventType: 'MAPPING_COMPLETED' },
    });
    assert.equal(test.status, 202);
    await until(
      'the first attempt',
      async () => receiver.received.length,
      (count) => count === 1,
      10,
    );

    // A job on a READY inventory.
    const form = new FormData();
    form.append('name', 'Job rows');
    form.append('file', new Blob([partnerCsv(JOB_ROWS, 'J')]), 'job.csv');
    const inventory = await api('POST', '/api/v1/partner-inventories', { body: form });
    assert.equal(inventory.status, 201, JSON.stringify(inventory.body));
    const job = await api('POST', '/api/v1/mapping', { json: { partnerInventoryId: inventory.body.partnerInventoryId } });
    assert.equal(job.status, 201);
    const jobPath = `/api/v1/mapping/${job.body.mappingJobId}`;
    const midway = await until(
      'the job under way',
      async () => (await api('GET', jobPath)).body,
      (view) => view.counts.processed > 0,
      60,
    );
    assert.equal(midway.status, 'RUNNING');

    // An inventory uploaded through S3, validating when the process dies.
    const uploadedCsv = partnerCsv(VALIDATED_ROWS, 'V');
    const upload = await api('POST', '/api/v1/partner-inventories/uploads', {
      json: { name: 'Big upload', fileName: 'big.csv', sizeBytes: Buffer.byteLength(uploadedCsv) },
    });
    assert.equal(upload.status, 201);
    const put = await fetch(upload.body.upload.url, { method: 'PUT', headers: upload.body.upload.headers, body: uploadedCsv });
    assert.equal(put.status, 200);
    const uploadedId = upload.body.partnerInventoryId;
    const completing = await api('POST', `/api/v1/partner-inventories/${uploadedId}/complete`);
    assert.equal(completing.status, 202);

    // Find-match requests that record, in flight when the process dies (each under its Idempotency-Key).
    const finder = admin('create-org', '--name', 'Kill test finder', '--plan', 'ENTERPRISE');
    const findKey = admin('create-key', '--org', finder.id!).apiKey!;
    const findRequests = Array.from({ length: FIND_REQUESTS }, (_, r) => ({
      key: `find-${r}`,
      json: { hotels: findHotels(r), record: true },
    }));
    const inFlight = findRequests.map(({ key, json }) => findMatch(first, findKey, key, json).catch(() => undefined));

    await killHard(first);
    await Promise.all(inFlight);
    assert.equal(dynamoDbLocalProcesses().length, 1, 'the killed run left its DynamoDB Local running');

    const second = await npmStart(stateDir, [], ENV);
    assert.match(second.output(), /Stopping DynamoDB Local left running by a stopped npm start/);
    assert.equal(dynamoDbLocalProcesses().length, 1, 'one DynamoDB Local on the state folder, not two');
    api = caller(second, apiKey);

    const completed = await untilFinished(
      'the job',
      async () => (await api('GET', jobPath)).body,
      (view) => view.status !== 'RUNNING',
      60,
    );
    assert.equal(completed.status, 'COMPLETED', JSON.stringify(completed));
    assert.equal(completed.counts.total, JOB_ROWS);
    assert.equal(completed.counts.processed, JOB_ROWS);
    assert.equal(completed.counts.matched + completed.counts.review + completed.counts.unmatched, JOB_ROWS);
    // Settled just after the job reads COMPLETED (the completion commits first): waited for, then exact.
    const quota = await until(
      'the reservation settled',
      async () => (await api('GET', '/api/v1/billing/quota/status')).body,
      (status) => status.mappingsUsedToday > 0,
      30,
    );
    assert.equal(quota.mappingsUsedToday, JOB_ROWS, 'the reservation is settled at what was processed, once');
    // Its rows reach the mapping book, each once, whatever the restart interrupted.
    const book = await until(
      'the book written',
      async () => (await api('GET', '/api/v1/mapping-book')).body,
      (view) => view.writing === null && view.entries > 0,
      60,
    );
    assert.equal(book.entries, JOB_ROWS);
    assert.equal((await api('GET', '/api/v1/mapping-book/changes/counts')).body.new, JOB_ROWS);

    // Sent again with their keys, the find-match requests are answered; each hotel is charged and recorded once.
    const answered = await Promise.all(
      findRequests.map(({ key, json }) =>
        // 409 while the killed attempt's record is still in progress (until its deadline); 429 past the organization's share a second.
        until(
          `find-match ${key}`,
          () => findMatch(second, findKey, key, json),
          (answer) => answer.status !== 409 && answer.status !== 429,
          60,
        ),
      ),
    );
    assert.deepEqual(
      answered.map((answer) => answer.status),
      findRequests.map(() => 200),
    );
    const findCharged = answered.reduce((sum, answer) => sum + (answer.body.charged as number), 0);
    assert.equal(findCharged, FIND_REQUESTS * FIND_HOTELS);
    assert.equal(
      (await caller(second, findKey)('GET', '/api/v1/billing/quota/status')).body.mappingsUsedToday,
      findCharged,
      'hotels charged = hotels answered',
    );
    const recorded = await until(
      'the answers recorded',
      async () => (await caller(second, findKey)('GET', '/api/v1/mapping-book/changes/counts')).body,
      (counts) => counts.new >= findCharged,
      60,
    );
    assert.deepEqual([recorded.new, recorded.updated], [findCharged, 0]);

    const validated = await until(
      'the upload',
      async () => (await api('GET', `/api/v1/partner-inventories/${uploadedId}`)).body,
      (view) => view.status !== 'VALIDATING',
      180,
    );
    assert.equal(validated.status, 'READY', JSON.stringify(validated));
    assert.equal(validated.hotelCount, VALIDATED_ROWS);

    // The job's own MAPPING_COMPLETED reaches the receiver too (at once: only the first request failed).
    const [firstAttempt] = receiver.received;
    const attemptsOfTest = () => receiver.received.filter((received) => received.body === firstAttempt!.body);
    await until(
      'the webhook retry',
      async () => attemptsOfTest().length,
      (count) => count >= 2,
      RETRY_DELAYS_SECONDS[0] + 30,
    );
    const retriedAfter = (attemptsOfTest()[1]!.at - firstAttempt!.at) / 1000;
    assert.ok(retriedAfter >= RETRY_DELAYS_SECONDS[0] - 1, `retried after ${retriedAfter} s`);
    // The receiver has answered; the attempt is recorded just after.
    const history = await until(
      'the recorded retry',
      async () => (await api('GET', `/api/v1/webhook-subscriptions/${subscription.body.id}/deliveries/${test.body.deliveryId}`)).body,
      (view) => view.status !== 'PENDING' && view.status !== 'RETRYING',
      10,
    );
    assert.equal(history.status, 'SUCCEEDED');
    assert.deepEqual(
      history.attempts.map((attempt: { succeeded: boolean }) => attempt.succeeded),
      [false, true],
    );

    assert.equal(await stopGracefully(second), 0);
    assert.equal(dynamoDbLocalProcesses().length, 0);
  }, 600_000);
});
