/**
 * Webhooks through the HTTP API, delivered to real HTTP receivers on loopback (the local
 * allowance, ALLOW_LOOPBACK_DESTINATIONS): signatures checked with the `standardwebhooks` library and
 * by hand, the 1/5/30-minute retry schedule on the moved clock, dead-letters and redelivery,
 * legacy export webhooks, plan gating, destination checks and tenant isolation.
 */
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { seedReferenceInventory } from '../../infra/local/seed';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { sampleData, type EventType } from '../../shared/events';
import type { KnownEvent } from '../../shared/webhooks/dispatch';
import { eventOutboxOf, eventPut } from '../../shared/platform/events/outbox';
import { queueOf } from '../../shared/platform/queue/services';
import { formatCsvRow } from '../../shared/platform/files/csv-format';
import * as v from 'valibot';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';
import {
  domainEventQueue,
  legacyWebhookRoutes,
  subscriptionRoutes,
  webhookDeliveryQueue,
  webhookDescriptions,
} from '../../shared/webhooks';
import { deliveryStoreOf, webhookStoreOf } from '../../shared/webhooks/store';
import { startDelivery } from '../../shared/webhooks/dispatch';
import { startPorts } from '../../shared/webhooks/services';
import { visibilityTimeoutSeconds } from '../../shared/platform/queue/queue';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { organizationKey } from '../../shared/organizations';
import { tableOf } from '../../shared/platform/table';
import { startTestApi, type Caller } from '../support/test-api';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver whose answer per path the test sets: a status, or a list of statuses used up in order. */
function startReceiver() {
  const received: Received[] = [];
  const answers = new Map<string, number[]>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const planned = answers.get(path) ?? [200];
      const status = planned.length > 1 ? planned.shift()! : planned[0]!;
      if (status === 302) response.setHeader('location', `${url('/followed')}`);
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status >= 400 ? 'receiver says no' : 'ok');
    });
  });
  const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return {
    server,
    received,
    url,
    answer: (path: string, ...statuses: number[]) => answers.set(path, statuses),
    at: (path: string) => received.filter((request) => request.path === path),
  };
}

const receiver = startReceiver();
await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
afterAll(() => {
  receiver.server.closeAllConnections();
  receiver.server.close();
});

const api = await startTestApi({ config: { localAllowances: [LOOPBACK_DESTINATIONS] } });
const partner = await api.newOrganization({ planType: 'ENTERPRISE' });
const other = await api.newOrganization({ planType: 'ENTERPRISE' });
const MINUTE = 60_000;

const subscribe = async (as: Caller, path: string, events: EventType[] = ['MAPPING_COMPLETED']) => {
  const created = await api.request('POST', '/api/v1/webhook-subscriptions', { as, json: { url: receiver.url(path), events } });
  assert.equal(created.status, 201, created.text);
  return created.body as { id: string; secret: string };
};

/** Records an event as a producer does; its data is the type's sample unless given. */
const publish = async (organizationId: string, type: EventType = 'MAPPING_COMPLETED', data?: Record<string, unknown>) => {
  const occurredAt = api.clock.now().toISOString();
  const event: KnownEvent = { id: randomUUID(), type, organizationId, occurredAt, data: data ?? sampleData(type, occurredAt) };
  // As a producer records it (outbox.ts); the table's stream relays it.
  const table = tableOf(api.runtime);
  await table.client.send(new PutCommand(eventPut(table, event).Put));
  await api.messaging.idle();
  return event;
};

const deliveriesOf = async (as: Caller, subscriptionId: string, query = '') =>
  (await api.request('GET', `/api/v1/webhook-subscriptions/${subscriptionId}/deliveries${query}`, { as })).body;

/** The library checks the signature's timestamp against its own clock: give it the API's. */
function verifyWithLibrary(secret: string, request: Received): unknown {
  const now = jest.spyOn(Date, 'now').mockReturnValue(api.clock.now().getTime());
  try {
    return new StandardWebhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    now.mockRestore();
  }
}

/** The partner's guide's five-line check, without any library. */
function verifyByHand(secret: string, request: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${String(request.headers['webhook-id'])}.${String(request.headers['webhook-timestamp'])}.${request.body}`;
  const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
  return String(request.headers['webhook-signature']).split(' ').includes(expected);
}

describe('webhook subscriptions', () => {
  it('creates a subscription whose secret is shown once, and lists it', async () => {
    const created = await api.request('POST', '/api/v1/webhook-subscriptions', {
      as: partner,
      json: { url: receiver.url('/created'), events: ['MAPPING_COMPLETED', 'MAPPING_COMPLETED'], description: 'Our ERP' },
    });
    assert.equal(created.status, 201);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(created.body.events, ['MAPPING_COMPLETED']);
    assert.equal(created.body.status, 'ACTIVE');
    assert.equal(created.body.kind, 'SUBSCRIPTION');
    const read = await api.request('GET', `/api/v1/webhook-subscriptions/${created.body.id}`, { as: partner });
    assert.equal(read.status, 200);
    assert.equal(read.body.secret, undefined);
    assert.equal(read.body.description, 'Our ERP');
    const stored = await webhookStoreOf(api.runtime).get(partner.organization.id, created.body.id);
    assert.ok(!JSON.stringify(stored).includes(created.body.secret.slice(6)), 'the secret is stored sealed');
    const list = await api.request('GET', '/api/v1/webhook-subscriptions', { as: partner });
    assert.ok(list.body.subscriptions.some((s: { id: string }) => s.id === created.body.id));
    assert.equal(list.body.total, list.body.subscriptions.length);
  });

  it('delivers a test event, signed: the standardwebhooks library and the hand check both verify it', async () => {
    const { id, secret } = await subscribe(partner, '/signed', ['MAPPING_COMPLETED', 'MAPPING_ERROR_RESOLVED']);
    const sent = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, {
      as: partner,
      json: { eventType: 'MAPPING_ERROR_RESOLVED' },
    });
    assert.equal(sent.status, 202);
    assert.equal(sent.body.status, 'PENDING');
    await api.messaging.idle();
    const [request] = receiver.at('/signed');
    assert.ok(request);
    const payload = verifyWithLibrary(secret, request) as Record<string, any>;
    assert.ok(verifyByHand(secret, request));
    v.parse(webhookDescriptions.MAPPING_ERROR_RESOLVED!.body, payload);
    assert.equal(request.headers['x-webhook-signature'], request.headers['webhook-signature']);
    assert.equal(request.headers['webhook-id'], sent.body.eventId);
    assert.equal(request.headers['webhook-timestamp'], String(Math.floor(api.clock.now().getTime() / 1000)));
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(Object.keys(payload), ['id', 'type', 'timestamp', 'organizationId', 'test', 'data']);
    assert.equal(payload.type, 'MAPPING_ERROR_RESOLVED');
    assert.equal(payload.organizationId, partner.organization.id);
    assert.equal(payload.test, true);
    assert.equal(payload.data.decision, 'MATCH');
    assert.throws(() => verifyWithLibrary(secret, { ...request, body: request.body.replace('MATCH', 'NO_MATCH') }));

    const history = await deliveriesOf(partner, id);
    assert.equal(history.deliveries.length, 1);
    assert.equal(history.deliveries[0].id, sent.body.deliveryId);
    assert.equal(history.deliveries[0].status, 'SUCCEEDED');
    assert.equal(history.deliveries[0].lastAttempt.statusCode, 200);
    const one = await api.request('GET', `/api/v1/webhook-subscriptions/${id}/deliveries/${sent.body.deliveryId}`, { as: partner });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.payload, payload);
    assert.equal(one.body.attempts.length, 1);
    assert.equal(one.body.attempts[0].responseBody, 'ok');
  });

  it('refuses a test event of a type the subscription does not receive', async () => {
    const { id } = await subscribe(partner, '/narrow');
    const refused = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, {
      as: partner,
      json: { eventType: 'INVENTORY_DUPLICATE_RESOLVED' },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /receives MAPPING_COMPLETED/);
    assert.equal((await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, { as: partner, json: {} })).status, 400);
  });

  it('retries a failing receiver 1, 5 and 30 minutes after each failure, then dead-letters; redelivery succeeds', async () => {
    const { id, secret } = await subscribe(partner, '/down');
    receiver.answer('/down', 503);
    const startedAt = api.clock.now().getTime();
    const event = await publish(partner.organization.id);
    assert.equal(receiver.at('/down').length, 1);
    let [delivery] = (await deliveriesOf(partner, id)).deliveries;
    assert.equal(delivery.status, 'RETRYING');
    assert.equal(delivery.nextAttemptAt, new Date(startedAt + MINUTE).toISOString());

    api.clock.advance(MINUTE - 1_000);
    await api.messaging.idle();
    assert.equal(receiver.at('/down').length, 1, 'nothing before the minute is up');
    for (const [wait, count] of [
      [1_000, 2],
      [5 * MINUTE, 3],
      [30 * MINUTE, 4],
    ] as const) {
      api.clock.advance(wait);
      await api.messaging.idle();
      assert.equal(receiver.at('/down').length, count);
    }
    api.clock.advance(24 * 60 * MINUTE);
    await api.messaging.idle();
    assert.equal(receiver.at('/down').length, 4, 'no attempt after the dead-letter');

    [delivery] = (await deliveriesOf(partner, id)).deliveries;
    assert.equal(delivery.status, 'DEAD_LETTERED');
    assert.equal(delivery.nextAttemptAt, null);
    const detail = (await api.request('GET', `/api/v1/webhook-subscriptions/${id}/deliveries/${delivery.id}`, { as: partner })).body;
    assert.deepEqual(
      detail.attempts.map((attempt: { attemptedAt: string }) => (Date.parse(attempt.attemptedAt) - startedAt) / MINUTE),
      [0, 1, 6, 36],
    );
    assert.ok(
      detail.attempts.every(
        (attempt: any) => attempt.statusCode === 503 && attempt.responseBody === 'receiver says no' && !attempt.succeeded,
      ),
    );
    // Every attempt carries the event's id and its own timestamp, and verifies.
    assert.ok(receiver.at('/down').every((request) => request.headers['webhook-id'] === event.id && verifyByHand(secret, request)));
    assert.equal(new Set(receiver.at('/down').map((request) => request.headers['webhook-timestamp'])).size, 4);

    const dead = (await deliveriesOf(partner, id, '?status=DEAD_LETTERED')).deliveries;
    assert.deepEqual(
      dead.map((d: { id: string }) => d.id),
      [delivery.id],
    );
    assert.deepEqual((await deliveriesOf(partner, id, '?status=SUCCEEDED')).deliveries, []);

    receiver.answer('/down', 200);
    const again = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/deliveries/${delivery.id}/redeliver`, { as: partner });
    assert.equal(again.status, 202);
    assert.equal(again.body.status, 'PENDING');
    await api.messaging.idle();
    const redelivered = (await api.request('GET', `/api/v1/webhook-subscriptions/${id}/deliveries/${delivery.id}`, { as: partner })).body;
    assert.equal(redelivered.status, 'SUCCEEDED');
    assert.equal(redelivered.attempts.length, 5);
    const twice = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/deliveries/${delivery.id}/redeliver`, { as: partner });
    assert.equal(twice.status, 409);
    assert.match(twice.body.message, /SUCCEEDED/);
  });

  it('stops retrying once the receiver recovers', async () => {
    const { id } = await subscribe(partner, '/flaky');
    receiver.answer('/flaky', 500, 500, 204);
    await publish(partner.organization.id);
    api.clock.advance(MINUTE);
    await api.messaging.idle();
    api.clock.advance(5 * MINUTE);
    await api.messaging.idle();
    const [delivery] = (await deliveriesOf(partner, id)).deliveries;
    assert.equal(delivery.status, 'SUCCEEDED');
    assert.equal(delivery.attemptCount, 3);
    assert.equal(delivery.lastAttempt.statusCode, 204);
    assert.ok(!api.messaging.waiting('webhook-deliveries').some(({ body }) => (body as { deliveryId: string }).deliveryId === delivery.id));
  });

  it('ends pending retries of a paused subscription as dead-lettered, to be redelivered later', async () => {
    const { id } = await subscribe(partner, '/paused-later');
    receiver.answer('/paused-later', 500);
    await publish(partner.organization.id);
    await api.request('PUT', `/api/v1/webhook-subscriptions/${id}`, { as: partner, json: { status: 'INACTIVE' } });
    api.clock.advance(MINUTE);
    await api.messaging.idle();
    assert.equal(receiver.at('/paused-later').length, 1, 'nothing is sent to a paused subscription');
    const [delivery] = (await deliveriesOf(partner, id)).deliveries;
    assert.equal(delivery.status, 'DEAD_LETTERED');
    assert.equal(delivery.lastAttempt.error, 'Not sent: the webhook is INACTIVE.');
    receiver.answer('/paused-later', 200);
    await api.request('PUT', `/api/v1/webhook-subscriptions/${id}`, { as: partner, json: { status: 'ACTIVE' } });
    await api.request('POST', `/api/v1/webhook-subscriptions/${id}/deliveries/${delivery.id}/redeliver`, { as: partner });
    await api.messaging.idle();
    assert.equal((await deliveriesOf(partner, id)).deliveries[0].status, 'SUCCEEDED');
  });

  it('dead-letters a delivery whose attempt keeps failing inside the service, without sending it twice', async () => {
    const { id } = await subscribe(partner, '/broken-secret');
    const store = webhookStoreOf(api.runtime);
    const webhook = (await store.get(partner.organization.id, id))!;
    // A sealed secret that no longer opens: every processing of the attempt fails after its claim.
    await store.replace({ ...webhook, signingSecrets: [{ ...webhook.signingSecrets![0]!, sealed: 'local:AAAA' }] });
    await publish(partner.organization.id);
    let [delivery] = (await deliveriesOf(partner, id)).deliveries;
    assert.equal(delivery.status, 'RETRYING', 'recorded and retried like a failing receiver');
    assert.equal(delivery.lastAttempt.error, 'Not sent: the service failed to prepare the request; it is retried.');
    for (const wait of [1, 5, 30]) {
      api.clock.advance(wait * MINUTE);
      await api.messaging.idle();
    }
    [delivery] = (await deliveriesOf(partner, id)).deliveries;
    assert.equal(delivery.status, 'DEAD_LETTERED');
    assert.equal(delivery.attemptCount, 4);
    assert.equal(receiver.at('/broken-secret').length, 0, 'nothing was sent');
  });

  it('lets a delivery whose next message was lost be redelivered once it is overdue', async () => {
    const { id } = await subscribe(partner, '/lost-message');
    receiver.answer('/lost-message', 500, 200);
    await publish(partner.organization.id);
    let [delivery] = (await deliveriesOf(partner, id)).deliveries;
    assert.equal(
      api.messaging.drop('webhook-deliveries', (body) => (body as { deliveryId: string }).deliveryId === delivery.id),
      1,
    );
    const early = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/deliveries/${delivery.id}/redeliver`, { as: partner });
    assert.equal(early.status, 409, 'not while its retry is still due');
    api.clock.advance(17 * MINUTE);
    const again = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/deliveries/${delivery.id}/redeliver`, { as: partner });
    assert.equal(again.status, 202);
    await api.messaging.idle();
    [delivery] = (await deliveriesOf(partner, id)).deliveries;
    assert.equal(delivery.status, 'SUCCEEDED');
    assert.equal(delivery.attemptCount, 2);
  });

  it('records an attempt whose worker died between sending and recording as lost, and retries it', async () => {
    const owner = await api.newOrganization();
    const { id } = await subscribe(owner, '/died-mid-flight');
    const webhook = (await webhookStoreOf(api.runtime).get(owner.organization.id, id))!;
    const occurredAt = api.clock.now().toISOString();
    const event: KnownEvent = {
      id: randomUUID(),
      type: 'MAPPING_COMPLETED',
      organizationId: owner.organization.id,
      occurredAt,
      data: sampleData('MAPPING_COMPLETED', occurredAt),
    };
    const created = await startDelivery(startPorts(api.runtime), webhook, event, { test: false });
    // The worker that took attempt 1 claimed it, maybe sent it, and died before recording it.
    assert.ok(await deliveryStoreOf(api.runtime).claim(created, 1, api.clock.now().toISOString()));
    await api.messaging.idle();
    let delivery = (await deliveriesOf(owner, id)).deliveries[0];
    assert.equal(delivery.status, 'PENDING');
    assert.equal(delivery.attemptCount, 0, 'a fresh claim may still be under way: its message waits');
    const early = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/deliveries/${created.id}/redeliver`, { as: owner });
    assert.equal(early.status, 409);
    assert.match(early.body.message, /under way/);

    // The message is handed out again after the visibility timeout; by then the claim is stale.
    api.clock.advance(visibilityTimeoutSeconds(webhookDeliveryQueue) * 1000);
    await api.messaging.idle();
    const history = (await api.request('GET', `/api/v1/webhook-subscriptions/${id}/deliveries/${created.id}`, { as: owner })).body;
    assert.equal(history.status, 'RETRYING');
    assert.deepEqual(
      history.attempts.map((attempt: { succeeded: boolean; error?: string }) => [attempt.succeeded, attempt.error]),
      [[false, 'The outcome of this attempt was lost (its worker stopped before recording it).']],
    );
    api.clock.advance(MINUTE);
    await api.messaging.idle();
    delivery = (await deliveriesOf(owner, id)).deliveries[0];
    assert.equal(delivery.status, 'SUCCEEDED');
    assert.equal(delivery.attemptCount, 2);
    assert.equal(receiver.at('/died-mid-flight').length, 1);
  });

  it('never lets a rotation and an edit overwrite each other', async () => {
    const { id } = await subscribe(partner, '/raced', ['MAPPING_COMPLETED']);
    const [edit, rotation] = await Promise.all([
      api.request('PUT', `/api/v1/webhook-subscriptions/${id}`, { as: partner, json: { description: 'edited' } }),
      api.request('POST', `/api/v1/webhook-subscriptions/${id}/rotate-secret`, { as: partner }),
    ]);
    assert.ok(
      [edit.status, rotation.status].every((status) => status === 200 || status === 409),
      `${edit.status} ${rotation.status}`,
    );
    const stored = (await webhookStoreOf(api.runtime).get(partner.organization.id, id))!;
    if (edit.status === 200) assert.equal(stored.description, 'edited');
    if (rotation.status === 200) {
      assert.equal(stored.signingSecrets!.length, 2, 'the rotation kept its new secret');
      await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, { as: partner, json: { eventType: 'MAPPING_COMPLETED' } });
      await api.messaging.idle();
      verifyWithLibrary(rotation.body.secret, receiver.at('/raced').at(-1)!);
    }
    if (edit.status === 409) assert.match(edit.body.message, /changed by another request/);
  });

  it('signs with at most three secrets: a fourth rotation within the grace period answers 409', async () => {
    const { id } = await subscribe(partner, '/rotated-often');
    for (let i = 0; i < 2; i++)
      assert.equal((await api.request('POST', `/api/v1/webhook-subscriptions/${id}/rotate-secret`, { as: partner })).status, 200);
    const refused = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/rotate-secret`, { as: partner });
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /3 secrets already sign/);
  });

  it('does not follow a redirect: the attempt fails with the 3xx', async () => {
    const { id } = await subscribe(partner, '/moved');
    receiver.answer('/moved', 302);
    await publish(partner.organization.id);
    const [delivery] = (await deliveriesOf(partner, id)).deliveries;
    assert.equal(delivery.lastAttempt.statusCode, 302);
    assert.equal(delivery.status, 'RETRYING');
    assert.equal(receiver.at('/followed').length, 0);
  });

  it('delivers one event once per matching subscription, and nothing to paused or unsubscribed ones', async () => {
    const one = await subscribe(partner, '/fan-a', ['MAPPING_COMPLETED']);
    const two = await subscribe(partner, '/fan-b', ['MAPPING_COMPLETED', 'INVENTORY_DUPLICATE_RESOLVED']);
    const paused = await subscribe(partner, '/fan-paused');
    assert.equal(
      (await api.request('PUT', `/api/v1/webhook-subscriptions/${paused.id}`, { as: partner, json: { status: 'INACTIVE' } })).body.status,
      'INACTIVE',
    );
    const event = await publish(partner.organization.id, 'INVENTORY_DUPLICATE_RESOLVED', { reportId: randomUUID() });
    assert.equal(receiver.at('/fan-a').length, 0);
    assert.equal(receiver.at('/fan-b').length, 1);
    assert.equal(receiver.at('/fan-paused').length, 0);
    // The same event relayed again (a relay retried after its send went through) is not delivered again.
    await queueOf(api.runtime, domainEventQueue).send(event);
    await api.messaging.idle();
    assert.equal(receiver.at('/fan-b').length, 1);
    await publish(partner.organization.id, 'MAPPING_COMPLETED');
    assert.equal(receiver.at('/fan-a').length, 1);
    assert.equal((await deliveriesOf(partner, one.id)).deliveries.length, 1);
    assert.equal((await deliveriesOf(partner, two.id)).deliveries.length, 2);
  });

  it('keeps signing with the previous secret for 24 hours after a rotation', async () => {
    const { id, secret: old } = await subscribe(partner, '/rotated');
    const rotated = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/rotate-secret`, { as: partner });
    assert.equal(rotated.status, 200);
    const fresh = rotated.body.secret as string;
    assert.notEqual(fresh, old);
    assert.equal(rotated.body.previousSecretExpiresAt, new Date(api.clock.now().getTime() + 24 * 60 * MINUTE).toISOString());
    await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, { as: partner, json: { eventType: 'MAPPING_COMPLETED' } });
    await api.messaging.idle();
    const during = receiver.at('/rotated').at(-1)!;
    assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
    verifyWithLibrary(fresh, during);
    verifyWithLibrary(old, during);

    api.clock.advance(24 * 60 * MINUTE + 1_000);
    await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, { as: partner, json: { eventType: 'MAPPING_COMPLETED' } });
    await api.messaging.idle();
    const after = receiver.at('/rotated').at(-1)!;
    verifyWithLibrary(fresh, after);
    assert.throws(() => verifyWithLibrary(old, after), /No matching signature/);
  });

  it('pages the delivery history newest first', async () => {
    const { id } = await subscribe(partner, '/paged');
    const sent: string[] = [];
    for (let i = 0; i < 3; i++) {
      api.clock.advance(1_000);
      const test = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, {
        as: partner,
        json: { eventType: 'MAPPING_COMPLETED' },
      });
      sent.push(test.body.deliveryId);
    }
    await api.messaging.idle();
    const first = await deliveriesOf(partner, id, '?limit=2');
    assert.deepEqual(
      first.deliveries.map((d: { id: string }) => d.id),
      [sent[2], sent[1]],
    );
    assert.ok(first.nextCursor);
    const second = await deliveriesOf(partner, id, `?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`);
    assert.deepEqual(
      second.deliveries.map((d: { id: string }) => d.id),
      [sent[0]],
    );
    assert.equal(second.nextCursor, null);
    const filtered = await deliveriesOf(partner, id, '?status=SUCCEEDED&limit=2');
    assert.equal(filtered.deliveries.length, 2);
    const bad = await api.request('GET', `/api/v1/webhook-subscriptions/${id}/deliveries?status=LOST`, { as: partner });
    assert.equal(bad.status, 400);
    const forged = await api.request('GET', `/api/v1/webhook-subscriptions/${id}/deliveries?cursor=bm9wZQ`, { as: partner });
    assert.equal(forged.status, 400);
    // A cursor of this very list with empty keys: DynamoDB would refuse it with a 500.
    const partition = `ORG#${partner.organization.id}#WEBHOOK#${id}#DELIVERIES`;
    const empty = Buffer.from(JSON.stringify({ GSI1PK: partition, GSI1SK: '', PK: '', SK: '' })).toString('base64url');
    assert.equal((await api.request('GET', `/api/v1/webhook-subscriptions/${id}/deliveries?cursor=${empty}`, { as: partner })).status, 400);
  });

  it('changes only the fields sent, and checks them', async () => {
    const { id } = await subscribe(partner, '/changed');
    const changed = await api.request('PUT', `/api/v1/webhook-subscriptions/${id}`, { as: partner, json: { description: 'Renamed' } });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.description, 'Renamed');
    assert.equal(changed.body.url, receiver.url('/changed'));
    for (const json of [
      { events: [] },
      { events: ['ORDER_SHIPPED'] },
      { url: 'ftp://example.com' },
      { status: 'PAUSED' },
      { secret: 'x' },
    ]) {
      const refused = await api.request('PUT', `/api/v1/webhook-subscriptions/${id}`, { as: partner, json });
      assert.equal(refused.status, 400, JSON.stringify(json));
      assert.ok(refused.body.message);
    }
    assert.equal((await api.request('GET', `/api/v1/webhook-subscriptions/${id}`, { as: partner })).body.description, 'Renamed');
    assert.equal((await api.request('GET', '/api/v1/webhook-subscriptions/not-a-uuid', { as: partner })).status, 400);
    assert.equal((await api.request('DELETE', `/api/v1/webhook-subscriptions/${id}`, { as: partner })).status, 204);
    assert.equal((await api.request('GET', `/api/v1/webhook-subscriptions/${id}`, { as: partner })).status, 404);
    assert.equal((await api.request('DELETE', `/api/v1/webhook-subscriptions/${id}`, { as: partner })).status, 404);
  });

  it('answers 401 without a credential', async () => {
    assert.equal((await api.request('GET', '/api/v1/webhook-subscriptions')).status, 401);
    assert.equal((await api.request('POST', '/api/v1/export-webhooks', { json: { webhookUrl: receiver.url('/x') } })).status, 401);
  });
});

describe('plan gating', () => {
  it('shows which event types each plan may receive', async () => {
    const plans = await api.request('GET', '/api/v1/billing/plans');
    const byPlan = Object.fromEntries(
      plans.body.tiers.map((tier: { planType: string; webhookEvents: string[] }) => [tier.planType, tier.webhookEvents]),
    );
    assert.deepEqual(byPlan, {
      FREE: ['MAPPING_COMPLETED', 'MAPPING_BOOK_CHANGED', 'DELIVERY_DESTINATION_DISABLED'],
      SUBSCRIPTION: ['MAPPING_COMPLETED', 'MAPPING_ERROR_RESOLVED', 'MAPPING_BOOK_CHANGED', 'DELIVERY_DESTINATION_DISABLED'],
      ENTERPRISE: [
        'MAPPING_COMPLETED',
        'MAPPING_ERROR_RESOLVED',
        'MAPPING_BOOK_CHANGED',
        'INVENTORY_DUPLICATE_RESOLVED',
        'DELIVERY_DESTINATION_DISABLED',
      ],
    });
  });

  it('answers 403 naming the plan that includes a gated type, and changes nothing', async () => {
    const free = await api.newOrganization({ planType: 'FREE' });
    const refused = await api.request('POST', '/api/v1/webhook-subscriptions', {
      as: free,
      json: { url: receiver.url('/gated'), events: ['MAPPING_COMPLETED', 'MAPPING_ERROR_RESOLVED'] },
    });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /MAPPING_ERROR_RESOLVED events need the Professional plan or higher; your organization is on Free/);
    assert.equal((await api.request('GET', '/api/v1/webhook-subscriptions', { as: free })).body.total, 0);
    const open = await subscribe(free, '/gated');
    const upgrade = await api.request('PUT', `/api/v1/webhook-subscriptions/${open.id}`, {
      as: free,
      json: { events: ['INVENTORY_DUPLICATE_RESOLVED'] },
    });
    assert.equal(upgrade.status, 403);
    assert.match(upgrade.body.message, /Enterprise/);
    const professional = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    await subscribe(professional, '/gated', ['MAPPING_ERROR_RESOLVED']);
  });

  it('sends no test event of a type the plan no longer includes, and at most 10 test events a minute', async () => {
    const caller = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const { id } = await subscribe(caller, '/downgraded', ['MAPPING_COMPLETED', 'MAPPING_ERROR_RESOLVED']);
    // A downgrade, as billing records it.
    const table = tableOf(api.runtime);
    await table.client.send(
      new UpdateCommand({
        TableName: table.name,
        Key: organizationKey(caller.organization.id),
        UpdateExpression: 'SET planType = :free',
        ExpressionAttributeValues: { ':free': 'FREE' },
      }),
    );
    const refused = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, {
      as: caller,
      json: { eventType: 'MAPPING_ERROR_RESOLVED' },
    });
    assert.equal(refused.status, 403);
    const answers = [];
    for (let i = 0; i < 11; i++)
      answers.push(
        (await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, { as: caller, json: { eventType: 'MAPPING_COMPLETED' } }))
          .status,
      );
    assert.deepEqual(answers, [...Array(10).fill(202), 400]);
  });
});

describe('destinations', () => {
  const refusedUrls = [
    'https://10.0.0.8/hook',
    'https://192.168.1.20/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[fe80::1]/',
    'https://224.0.0.1/',
    'https://100.100.100.200/',
    'http://93.184.215.14/hook',
    'https://user:pass@93.184.215.14/',
    'not a url',
    'https://93.184.215.14/ho\nok',
  ];

  it('refuses private, link-local, metadata, multicast and non-https URLs, on both APIs', async () => {
    for (const url of refusedUrls) {
      const subscription = await api.request('POST', '/api/v1/webhook-subscriptions', {
        as: partner,
        json: { url, events: ['MAPPING_COMPLETED'] },
      });
      assert.equal(subscription.status, 400, url);
      assert.match(subscription.body.message, /^url: /);
      const legacy = await api.request('POST', '/api/v1/export-webhooks', { as: other, json: { webhookUrl: url } });
      assert.equal(legacy.status, 400, url);
      assert.match(legacy.body.message, /^webhookUrl: /);
    }
    assert.equal((await api.request('GET', '/api/v1/export-webhooks', { as: other })).body.total, 0);
  });

  it('refuses loopback receivers unless the local allowance is on', async () => {
    const strict = await startTestApi({ config: { localAllowances: [] } });
    const caller = await strict.newOrganization();
    for (const url of [
      receiver.url('/x'),
      'https://127.0.0.1/',
      'https://localhost/',
      'https://[::1]/',
      'https://2130706433/',
      'https://0x7f.1/',
    ]) {
      const refused = await strict.request('POST', '/api/v1/webhook-subscriptions', {
        as: caller,
        json: { url, events: ['MAPPING_COMPLETED'] },
      });
      assert.equal(refused.status, 400, url);
    }
  });

  it("refuses a host name that resolves to an inside address (this machine's own name)", async () => {
    const strict = await startTestApi({ config: { localAllowances: [] } });
    const caller = await strict.newOrganization();
    // The machine's name resolves through /etc/hosts to a loopback or private address, never a public one.
    const name = hostname();
    const refused = await strict.request('POST', '/api/v1/webhook-subscriptions', {
      as: caller,
      json: { url: `https://${name}/hook`, events: ['MAPPING_COMPLETED'] },
    });
    assert.equal(refused.status, 400);
    assert.match(
      refused.body.message,
      new RegExp(
        `^url: the host ${name.toLowerCase()} (resolves to .*, a (loopback|private|link-local|unique-local) address|does not resolve)`,
      ),
    );
  });
});

describe('legacy export webhooks', () => {
  const legacyUrl = receiver.url('/legacy');
  const create = (as: Caller, json: Record<string, unknown>) => api.request('POST', '/api/v1/export-webhooks', { as, json });

  it('stores the header value encrypted, shows a hint, and says the endpoint is deprecated', async () => {
    const created = await create(other, {
      name: 'ERP',
      webhookUrl: legacyUrl,
      apiKeyName: 'X-Partner-Key',
      apiKeyValue: 'partner-secret-9f3a',
      additionalHeaders: { 'X-Env': 'test' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('deprecation'), `@${Date.UTC(2026, 10, 23) / 1000}`);
    assert.equal(created.headers.get('link'), '</api/v1/webhook-subscriptions>; rel="successor-version"');
    assert.deepEqual(
      { ...created.body, id: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined,
        name: 'ERP',
        webhookUrl: legacyUrl,
        apiKeyName: 'X-Partner-Key',
        apiKeyValueHint: '…9f3a',
        additionalHeaders: { 'X-Env': 'test' },
        status: 'ACTIVE',
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    const stored = await webhookStoreOf(api.runtime).get(other.organization.id, created.body.id);
    assert.ok(stored?.apiKeyValueSealed && !JSON.stringify(stored).includes('partner-secret'));
    const missing = await api.request('GET', `/api/v1/export-webhooks/${randomUUID()}`, { as: other });
    assert.equal(missing.status, 404);
    assert.ok(missing.headers.get('deprecation'), 'errors are marked deprecated too');
  });

  it('is the same row under the subscription API, with the legacy fields mapped', async () => {
    const created = (await create(other, { name: 'Mapped', webhookUrl: legacyUrl })).body;
    const seen = await api.request('GET', `/api/v1/webhook-subscriptions/${created.id}`, { as: other });
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body, {
      id: created.id,
      kind: 'EXPORT_WEBHOOK',
      url: legacyUrl,
      events: ['MAPPING_COMPLETED'],
      status: 'ACTIVE',
      description: 'Mapped',
      createdAt: created.createdAt,
      updatedAt: created.updatedAt,
    });
    const paused = await api.request('PUT', `/api/v1/webhook-subscriptions/${created.id}`, {
      as: other,
      json: { status: 'INACTIVE', description: 'Renamed' },
    });
    assert.equal(paused.status, 200);
    const legacyView = (await api.request('GET', `/api/v1/export-webhooks/${created.id}`, { as: other })).body;
    assert.equal(legacyView.status, 'INACTIVE');
    assert.equal(legacyView.name, 'Renamed');
    const widened = await api.request('PUT', `/api/v1/webhook-subscriptions/${created.id}`, {
      as: other,
      json: { events: ['MAPPING_ERROR_RESOLVED'] },
    });
    assert.equal(widened.status, 400);
    assert.equal((await api.request('POST', `/api/v1/webhook-subscriptions/${created.id}/rotate-secret`, { as: other })).status, 409);
    assert.equal(
      (
        await api.request('POST', `/api/v1/webhook-subscriptions/${created.id}/test`, {
          as: other,
          json: { eventType: 'MAPPING_COMPLETED' },
        })
      ).status,
      409,
    );
    // A subscription is not a legacy webhook.
    const subscription = await subscribe(other, '/not-legacy');
    assert.equal((await api.request('GET', `/api/v1/export-webhooks/${subscription.id}`, { as: other })).status, 404);
    assert.ok(
      !(await api.request('GET', '/api/v1/export-webhooks', { as: other })).body.webhooks.some(
        (w: { id: string }) => w.id === subscription.id,
      ),
    );
    assert.equal((await api.request('DELETE', `/api/v1/webhook-subscriptions/${subscription.id}`, { as: other })).status, 204);
    assert.equal((await api.request('DELETE', `/api/v1/webhook-subscriptions/${created.id}`, { as: other })).status, 204);
    assert.equal((await api.request('GET', `/api/v1/export-webhooks/${created.id}`, { as: other })).status, 404);
  });

  it('delivers mapping.completed once, unsigned, with the partner headers; INACTIVE pauses; a failure is not retried', async () => {
    const caller = await api.newOrganization();
    const created = (
      await create(caller, {
        webhookUrl: receiver.url('/legacy-once'),
        apiKeyName: 'X-Partner-Key',
        apiKeyValue: 'value-0042',
        additionalHeaders: { 'X-Env': 'test' },
      })
    ).body;
    const event = await publish(caller.organization.id, 'MAPPING_COMPLETED', { mappingJobId: 'job-1', status: 'COMPLETED' });
    const [request] = receiver.at('/legacy-once');
    assert.ok(request);
    assert.equal(request.headers['x-partner-key'], 'value-0042');
    assert.equal(request.headers['x-env'], 'test');
    assert.equal(request.headers['webhook-signature'], undefined);
    assert.equal(request.headers['x-webhook-signature'], undefined);
    assert.deepEqual(JSON.parse(request.body), {
      event: 'mapping.completed',
      timestamp: event.occurredAt,
      mappingJobId: 'job-1',
      status: 'COMPLETED',
    });
    const history = await api.request('GET', `/api/v1/webhook-subscriptions/${created.id}/deliveries`, { as: caller });
    assert.deepEqual(history.body.deliveries, [], 'legacy webhooks keep no history');

    const paused = await api.request('PUT', `/api/v1/export-webhooks/${created.id}`, { as: caller, json: { status: 'INACTIVE' } });
    assert.equal(paused.body.apiKeyValueHint, '…0042', 'a field left out keeps its value');
    await publish(caller.organization.id);
    assert.equal(receiver.at('/legacy-once').length, 1);
    const active = (await api.request('GET', '/api/v1/export-webhooks?activeOnly=true', { as: caller })).body;
    assert.equal(active.total, 0);
    assert.equal((await api.request('GET', '/api/v1/export-webhooks?activeOnly=false', { as: caller })).body.total, 1);

    receiver.answer('/legacy-once', 500);
    await api.request('PUT', `/api/v1/export-webhooks/${created.id}`, { as: caller, json: { status: 'ACTIVE' } });
    await publish(caller.organization.id);
    assert.equal(receiver.at('/legacy-once').length, 2);
    api.clock.advance(60 * MINUTE);
    await api.messaging.idle();
    assert.equal(receiver.at('/legacy-once').length, 2, 'no retry');
    const waiting = api.messaging
      .waiting('webhook-deliveries')
      .filter(({ body }) => (body as { organizationId: string }).organizationId === caller.organization.id);
    assert.deepEqual(waiting, []);

    const cleared = await api.request('PUT', `/api/v1/export-webhooks/${created.id}`, {
      as: caller,
      json: { apiKeyName: null, additionalHeaders: null, name: null },
    });
    assert.equal(cleared.status, 200);
    assert.deepEqual(
      [cleared.body.apiKeyName, cleared.body.apiKeyValueHint, cleared.body.additionalHeaders, cleared.body.name],
      [null, null, {}, null],
      'null on the header clears its value too',
    );
  });

  it('refuses bad input and changes nothing', async () => {
    const caller = await api.newOrganization();
    const bad = [
      {},
      { webhookUrl: legacyUrl, apiKeyName: 'X-Key' },
      { webhookUrl: legacyUrl, apiKeyValue: 'v' },
      { webhookUrl: legacyUrl, additionalHeaders: { Host: 'evil' } },
      { webhookUrl: legacyUrl, additionalHeaders: { 'X-A': 'line\r\nInjected: yes' } },
      { webhookUrl: legacyUrl, additionalHeaders: { 'Bad Name': 'v' } },
      { webhookUrl: legacyUrl, additionalHeaders: { 'X-A': '1', 'x-a': '2' } },
      { webhookUrl: legacyUrl, apiKeyName: 'X-A', apiKeyValue: 'v', additionalHeaders: { 'x-a': '2' } },
      { webhookUrl: legacyUrl, status: 'PAUSED' },
      { webhookUrl: legacyUrl, unknown: true },
      { webhookUrl: legacyUrl, additionalHeaders: { 'X-Currency': '€' } },
      { webhookUrl: legacyUrl, apiKeyName: 'X-Key', apiKeyValue: 'naïve ✓' },
      { webhookUrl: legacyUrl, additionalHeaders: { Authorization: 'Bearer abc' } },
      { webhookUrl: legacyUrl, additionalHeaders: { 'X-Api-Token': 'abc' } },
    ];
    for (const json of bad) {
      const refused = await create(caller, json);
      assert.equal(refused.status, 400, JSON.stringify(json));
      assert.equal(refused.body.error, 'Bad Request');
    }
    assert.equal((await api.request('GET', '/api/v1/export-webhooks', { as: caller })).body.total, 0);
    assert.equal((await api.request('GET', '/api/v1/export-webhooks?activeOnly=yes', { as: caller })).status, 400);
  });

  it('allows at most 20 webhooks per organization', async () => {
    const caller = await api.newOrganization();
    for (let i = 0; i < 20; i++) assert.equal((await create(caller, { webhookUrl: receiver.url(`/many-${i}`) })).status, 201);
    const refused = await create(caller, { webhookUrl: receiver.url('/many-20') });
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /at most 20/);
  });

  it('holds the limit under concurrent creates, and a delete gives its place back', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    for (let i = 0; i < 11; i++) assert.equal((await create(caller, { webhookUrl: receiver.url(`/busy-${i}`) })).status, 201);
    const racing = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        i % 2
          ? create(caller, { webhookUrl: receiver.url(`/race-${i}`) })
          : api.request('POST', '/api/v1/webhook-subscriptions', {
              as: caller,
              json: { url: receiver.url(`/race-${i}`), events: ['MAPPING_COMPLETED'] },
            }),
      ),
    );
    assert.deepEqual(racing.map((answer) => answer.status).sort(), [...Array(9).fill(201), ...Array(6).fill(400)]);
    const stored = await webhookStoreOf(api.runtime).list(caller.organization.id);
    assert.equal(stored.length, 20);
    assert.equal((await create(caller, { webhookUrl: receiver.url('/full') })).status, 400);
    assert.equal(
      (
        await api.request('DELETE', `/api/v1/export-webhooks/${stored.find((webhook) => webhook.kind === 'EXPORT_WEBHOOK')!.id}`, {
          as: caller,
        })
      ).status,
      204,
    );
    assert.equal((await create(caller, { webhookUrl: receiver.url('/freed') })).status, 201);
    assert.equal((await webhookStoreOf(api.runtime).list(caller.organization.id)).length, 20);
  });

  it('counts the webhooks an organization had before the count was kept', async () => {
    const caller = await api.newOrganization();
    const now = api.clock.now().toISOString();
    const table = tableOf(api.runtime);
    for (let i = 0; i < 19; i++) {
      const id = randomUUID();
      await table.client.send(
        new PutCommand({
          TableName: table.name,
          Item: {
            PK: `ORG#${caller.organization.id}`,
            SK: `WEBHOOK#${id}`,
            GSI1PK: `ORG#${caller.organization.id}#WEBHOOKS`,
            GSI1SK: `${now}#${id}`,
            ...{
              id,
              organizationId: caller.organization.id,
              kind: 'EXPORT_WEBHOOK',
              url: receiver.url(`/old-${i}`),
              status: 'ACTIVE',
              events: ['MAPPING_COMPLETED'],
              createdAt: now,
              updatedAt: now,
              revision: 1,
            },
          },
        }),
      );
    }
    const answers = await Promise.all([0, 1, 2].map((i) => create(caller, { webhookUrl: receiver.url(`/after-${i}`) })));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 400, 400]);
    assert.equal((await webhookStoreOf(api.runtime).list(caller.organization.id)).length, 20);
  });
});

describe('tenant isolation', () => {
  it("lets no organization read or change another's webhooks or deliveries", async () => {
    const { id } = await subscribe(partner, '/isolated');
    const test = await api.request('POST', `/api/v1/webhook-subscriptions/${id}/test`, {
      as: partner,
      json: { eventType: 'MAPPING_COMPLETED' },
    });
    await api.messaging.idle();
    const legacy = (
      await api.request('POST', '/api/v1/export-webhooks', { as: partner, json: { webhookUrl: receiver.url('/isolated-legacy') } })
    ).body;
    const base = `/api/v1/webhook-subscriptions/${id}`;
    const attempts: [string, string, unknown?][] = [
      ['GET', base],
      ['PUT', base, { status: 'INACTIVE' }],
      ['DELETE', base],
      ['POST', `${base}/rotate-secret`],
      ['POST', `${base}/test`, { eventType: 'MAPPING_COMPLETED' }],
      ['GET', `${base}/deliveries`],
      ['GET', `${base}/deliveries/${test.body.deliveryId}`],
      ['POST', `${base}/deliveries/${test.body.deliveryId}/redeliver`],
      ['GET', `/api/v1/export-webhooks/${legacy.id}`],
      ['PUT', `/api/v1/export-webhooks/${legacy.id}`, { status: 'INACTIVE' }],
      ['DELETE', `/api/v1/export-webhooks/${legacy.id}`],
      ['GET', `/api/v1/webhook-subscriptions/${legacy.id}`],
    ];
    for (const [method, path, json] of attempts) {
      const answer = await api.request(method, path, { as: other, json });
      assert.equal(answer.status, 404, `${method} ${path}`);
    }
    const theirs = await api.request('GET', '/api/v1/webhook-subscriptions', { as: other });
    assert.ok(!theirs.body.subscriptions.some((s: { id: string }) => s.id === id || s.id === legacy.id));
    // The other organization's own deliveries do not show the partner's either.
    const own = await subscribe(other, '/isolated-other');
    assert.equal(
      (await api.request('GET', `/api/v1/webhook-subscriptions/${own.id}/deliveries/${test.body.deliveryId}`, { as: other })).status,
      404,
    );
    assert.equal((await api.request('GET', base, { as: partner })).body.status, 'ACTIVE');
    assert.equal((await api.request('GET', `/api/v1/export-webhooks/${legacy.id}`, { as: partner })).body.status, 'ACTIVE');
  });
});

describe('events from the service', () => {
  const hotels = [...generateReferenceHotels({ count: 60, seed: 5 })];
  beforeAll(() => seedReferenceInventory(api.runtime, { hotels: 60, seed: 5 }));

  it("delivers a real job's completion to a legacy webhook and a subscription, and its review decision", async () => {
    const caller = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    await api.request('POST', '/api/v1/export-webhooks', { as: caller, json: { webhookUrl: receiver.url('/job-legacy') } });
    const { secret } = await subscribe(caller, '/job-subscription', ['MAPPING_COMPLETED', 'MAPPING_ERROR_RESOLVED']);
    const csv = [
      'id,name,address,city,country,lat,lon',
      ...hotels.slice(0, 5).map((h, i) => formatCsvRow([`P${i}`, h.name, h.address, h.city, h.country, h.lat, h.lon])),
    ].join('\n');
    const form = new FormData();
    form.append('name', 'webhook job');
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'hotels.csv');
    const uploaded = await api.request('POST', '/api/v1/partner-inventories', { as: caller, body: form });
    assert.equal(uploaded.status, 201, uploaded.text);
    const job = await api.request('POST', '/api/v1/mapping', {
      as: caller,
      json: { partnerInventoryId: uploaded.body.partnerInventoryId },
    });
    assert.equal(job.status, 201, job.text);
    await api.messaging.idle();

    const [legacy] = receiver.at('/job-legacy');
    assert.ok(legacy, 'the legacy webhook got the completion');
    const legacyBody = JSON.parse(legacy.body);
    v.parse(webhookDescriptions.legacyMappingCompleted!.body, legacyBody);
    assert.equal(legacyBody.event, 'mapping.completed');
    assert.equal(legacyBody.mappingJobId, job.body.mappingJobId);
    assert.equal(legacyBody.status, 'COMPLETED');
    assert.equal(legacyBody.counts.processed, 5);
    const [completed] = receiver.at('/job-subscription');
    assert.ok(completed);
    const payload = verifyWithLibrary(secret, completed) as Record<string, any>;
    v.parse(webhookDescriptions.MAPPING_COMPLETED!.body, payload);
    assert.equal(payload.id, `${job.body.mappingJobId}-completed`);
    assert.equal(payload.type, 'MAPPING_COMPLETED');
    assert.equal(payload.data.mappingJobId, job.body.mappingJobId);

    const review = await api.request('POST', `/api/v1/mapping/${job.body.mappingJobId}/reviews`, {
      as: caller,
      json: { partnerHotelId: 'P0', decision: 'NO_MATCH' },
    });
    assert.equal(review.status, 200, review.text);
    await api.messaging.idle();
    const decided = receiver.at('/job-subscription').at(-1)!;
    const decision = verifyWithLibrary(secret, decided) as Record<string, any>;
    v.parse(webhookDescriptions.MAPPING_ERROR_RESOLVED!.body, decision);
    assert.equal(decision.type, 'MAPPING_ERROR_RESOLVED');
    assert.equal(decision.data.partnerHotelId, 'P0');
    assert.equal(decision.data.decision, 'NO_MATCH');
    assert.equal(receiver.at('/job-legacy').length, 1, 'the legacy webhook takes completions only');
  });

  it('delivers a completion recorded while the queue refused it: the outbox relays it once the queue takes it', async () => {
    const caller = await api.newOrganization();
    await subscribe(caller, '/outbox');
    const csv = ['id,name,city,country', ...hotels.slice(0, 3).map((h, i) => formatCsvRow([`P${i}`, h.name, h.city, h.country]))].join(
      '\n',
    );
    const form = new FormData();
    form.append('name', 'outbox job');
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'hotels.csv');
    const uploaded = await api.request('POST', '/api/v1/partner-inventories', { as: caller, body: form });
    const job = await api.request('POST', '/api/v1/mapping', {
      as: caller,
      json: { partnerInventoryId: uploaded.body.partnerInventoryId },
    });
    api.messaging.refuseSends('domain-events', 3);
    await api.messaging.idle();
    // The job completed with its event recorded in the same transaction; the queue refused it.
    assert.equal((await api.request('GET', `/api/v1/mapping/${job.body.mappingJobId}`, { as: caller })).body.status, 'COMPLETED');
    const recorded = await eventOutboxOf(api.runtime).listForOrganization(caller.organization.id);
    assert.deepEqual(
      recorded.filter((event) => event.type === 'MAPPING_COMPLETED').map((event) => event.id),
      [`${job.body.mappingJobId}-completed`],
    );
    assert.equal(receiver.at('/outbox').length, 0);
    for (let poll = 0; poll < 3 && receiver.at('/outbox').length === 0; poll++) await api.messaging.idle();
    assert.equal(receiver.at('/outbox').length, 1, 'relayed once the queue took it');
    assert.equal(JSON.parse(receiver.at('/outbox')[0]!.body).id, `${job.body.mappingJobId}-completed`);
    await api.messaging.idle();
    assert.equal(receiver.at('/outbox').length, 1, 'and only once');
  });

  it('delivers INVENTORY_DUPLICATE_RESOLVED when the back office resolves a reported duplicate', async () => {
    const reporter = await api.newOrganization({ planType: 'ENTERPRISE' });
    const admin = await api.newOrganization({ role: 'admin' });
    const { secret } = await subscribe(reporter, '/duplicates', ['INVENTORY_DUPLICATE_RESOLVED']);
    const report = await api.request('POST', '/api/v1/reference/duplicates', {
      as: reporter,
      json: { originalHotelId: hotels[0]!.id, duplicateHotelId: hotels[1]!.id },
    });
    assert.equal(report.status, 200, report.text);
    const resolved = await api.request('POST', `/api/v1/reference/duplicates/${report.body.reportId}/resolve`, {
      as: admin,
      json: { decision: 'REJECT' },
    });
    assert.equal(resolved.status, 200);
    await api.messaging.idle();
    const [request] = receiver.at('/duplicates');
    assert.ok(request);
    const payload = verifyWithLibrary(secret, request) as Record<string, any>;
    v.parse(webhookDescriptions.INVENTORY_DUPLICATE_RESOLVED!.body, payload);
    assert.equal(payload.type, 'INVENTORY_DUPLICATE_RESOLVED');
    assert.deepEqual(payload.data, {
      reportId: report.body.reportId,
      decision: 'REJECT',
      originalHotelId: hotels[0]!.id,
      duplicateHotelId: hotels[1]!.id,
    });
  });

  it('serves the webhook routes on only the settings they are deployed with', async () => {
    const lean = await api.serveLean([...Object.values(subscriptionRoutes), ...Object.values(legacyWebhookRoutes)]);
    const created = await lean('POST', '/api/v1/webhook-subscriptions', {
      as: partner,
      json: { url: receiver.url('/lean'), events: ['MAPPING_COMPLETED'] },
    });
    assert.equal(created.status, 201);
    assert.equal(
      (
        await lean('POST', `/api/v1/webhook-subscriptions/${created.body.id}/test`, {
          as: partner,
          json: { eventType: 'MAPPING_COMPLETED' },
        })
      ).status,
      202,
    );
    const legacy = await lean('POST', '/api/v1/export-webhooks', {
      as: partner,
      json: { webhookUrl: receiver.url('/lean'), apiKeyName: 'X-K', apiKeyValue: 'v-1' },
    });
    assert.equal(legacy.status, 201);
    assert.equal((await lean('GET', `/api/v1/webhook-subscriptions/${created.body.id}/deliveries`, { as: partner })).status, 200);
  });
});
