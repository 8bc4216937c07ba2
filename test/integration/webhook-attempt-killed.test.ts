/**
 * A webhook attempt cut off by a kill: the local runtime's queues (kept in a folder, as `npm start`
 * keeps them) are read again by a new process while the old one's worker is still inside its
 * attempt. The message is handed out again at once, and its attempt is recorded as lost at once
 * (not left PENDING until the queue's visibility timeout); the retry follows on the schedule and
 * carries the same webhook-id, which lets the receiver drop it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it } from '@jest/globals';
import { localRuntime } from '../../infra/local/messaging';
import { provisionResources } from '../../infra/local/stack';
import { ManualClock } from '../../shared/platform/clock';
import { secretBoxOf } from '../../shared/platform/secrets/services';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';
import { RETRY_DELAYS_SECONDS } from '../../shared/webhooks/delivery';
import { startDelivery } from '../../shared/webhooks/dispatch';
import { deliveryPorts } from '../../shared/webhooks/services';
import { newSigningSecret } from '../../shared/webhooks/signing';
import { deliveryStoreOf, webhookStoreOf } from '../../shared/webhooks/store';
import { secretContext, type Webhook } from '../../shared/webhooks/webhook';
import { testConfig } from '../support/test-api';

const queueFolder = mkdtempSync(join(tmpdir(), 'hotel-mapping-queues-'));
afterAll(() => rmSync(queueFolder, { recursive: true, force: true }));

/** Holds the first request unanswered (its worker is about to be killed); answers 200 to the rest. */
const received: { webhookId: string; body: string }[] = [];
const held: ServerResponse[] = [];
const receiver = createServer((request: IncomingMessage, response: ServerResponse) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    received.push({ webhookId: String(request.headers['webhook-id']), body });
    if (received.length === 1) held.push(response);
    else response.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
afterAll(() => {
  receiver.closeAllConnections();
  receiver.close();
});

const config = testConfig({ localAllowances: [LOOPBACK_DESTINATIONS] });
await provisionResources(config);
const clock = new ManualClock(new Date('2026-11-22T10:00:00.000Z'));

async function newSubscription(runtime: ReturnType<typeof localRuntime>['runtime']): Promise<Webhook> {
  const organizationId = randomUUID();
  const id = randomUUID();
  const now = clock.now().toISOString();
  const sealed = await secretBoxOf(runtime).seal(newSigningSecret(), secretContext({ organizationId, id }, 'signing-secret'));
  const webhook: Webhook = {
    id,
    organizationId,
    kind: 'SUBSCRIPTION',
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    status: 'ACTIVE',
    events: ['MAPPING_COMPLETED'],
    description: 'killed attempt',
    createdAt: now,
    updatedAt: now,
    revision: 1,
    signingSecrets: [{ sealed, createdAt: now }],
  };
  await webhookStoreOf(runtime).create(webhook);
  return webhook;
}

describe('a webhook attempt cut off by a kill', () => {
  it('is recorded as lost as soon as the restarted queue hands its message out again, and retried on the schedule', async () => {
    const killed = localRuntime(config, { clock, queueFolder });
    const webhook = await newSubscription(killed.runtime);
    const event = {
      id: randomUUID(),
      type: 'MAPPING_COMPLETED' as const,
      organizationId: webhook.organizationId,
      occurredAt: clock.now().toISOString(),
      data: { mappingJobId: randomUUID(), status: 'COMPLETED' },
    };
    const delivery = await startDelivery(deliveryPorts(killed.runtime), webhook, event, { test: false });
    // The worker sends attempt 1 and never hears back: the process dies here.
    void killed.messaging.idle();
    while (received.length === 0) await sleep(5);

    const restarted = localRuntime(config, { clock, queueFolder });
    await restarted.messaging.idle();
    const deliveries = deliveryStoreOf(restarted.runtime);
    const afterRestart = (await deliveries.get(webhook.organizationId, delivery.id))!;
    assert.equal(afterRestart.status, 'RETRYING', 'not left PENDING until the visibility timeout');
    assert.equal(afterRestart.attempts.length, 1);
    assert.equal(afterRestart.attempts[0]!.succeeded, false);
    assert.match(afterRestart.attempts[0]!.error ?? '', /lost/);
    assert.equal(afterRestart.nextAttemptAt, new Date(clock.now().getTime() + RETRY_DELAYS_SECONDS[0] * 1000).toISOString());

    clock.advance(RETRY_DELAYS_SECONDS[0] * 1000);
    await restarted.messaging.idle();
    const done = (await deliveries.get(webhook.organizationId, delivery.id))!;
    assert.equal(done.status, 'SUCCEEDED');
    assert.deepEqual(
      done.attempts.map((attempt) => attempt.succeeded),
      [false, true],
    );
    // The receiver got the cut-off attempt too: the retry is a duplicate, with the same webhook-id.
    assert.equal(received.length, 2);
    assert.equal(received[1]!.webhookId, received[0]!.webhookId);
    assert.equal(received[1]!.body, received[0]!.body);

    for (const response of held) response.writeHead(200).end();
    await killed.messaging.idle();
    assert.deepEqual(
      (await deliveries.get(webhook.organizationId, delivery.id))!.attempts.length,
      2,
      'the killed worker records nothing after the fact',
    );
  });
});
