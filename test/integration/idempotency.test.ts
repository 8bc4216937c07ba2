/**
 * Idempotency-Key on the routes that create or charge: the same key and request answer the first
 * answer again and create nothing twice; the same key with another request is a 422; a request
 * still running holds its key (409) until it ends or its invocation's time runs out; a failed
 * request is not kept; keys are per organization; an answer holding a secret is kept sealed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, it } from '@jest/globals';
import { seedReferenceInventory } from '../../infra/local/seed';
import { LOCAL_PRICE_IDS } from '../../shared/billing/catalogue';
import { answerIdempotently } from '../../shared/platform/http/idempotency';
import type { HttpRequest } from '../../shared/platform/http/endpoint';
import { routes } from '../../shared/routes';
import { tableOf } from '../../shared/platform/table';
import { startTestApi, type Caller } from '../support/test-api';
import { LOOPBACK_DESTINATIONS } from '../../shared/platform/network/destinations';

const api = await startTestApi({ config: { localAllowances: [LOOPBACK_DESTINATIONS] } });
await seedReferenceInventory(api.runtime, { hotels: 50, seed: 2 });
const CSV = 'id,name,city,country\nH1,Hotel Alpha,Paris,fr\nH2,Hotel Beta,Lyon,fr\n';

function inventoryForm(csv = CSV): FormData {
  const form = new FormData();
  form.append('name', 'Keyed upload');
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'hotels.csv');
  return form;
}

const keyed = (key: string) => ({ 'idempotency-key': key });

async function inventories(as: Caller) {
  return (await api.request('GET', '/api/v1/partner-inventories', { as })).body.inventories as { partnerInventoryId: string }[];
}

describe('Idempotency-Key', () => {
  it('answers a repeated upload and job creation with the first answer, creating and reserving once', async () => {
    const caller = await api.newOrganization();
    const key = randomUUID();
    const first = await api.request('POST', '/api/v1/partner-inventories', { as: caller, headers: keyed(key), body: inventoryForm() });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await api.request('POST', '/api/v1/partner-inventories', { as: caller, headers: keyed(key), body: inventoryForm() });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((await inventories(caller)).length, 1);

    const jobKey = randomUUID();
    const json = { partnerInventoryId: first.body.partnerInventoryId };
    const job = await api.request('POST', '/api/v1/mapping', { as: caller, headers: keyed(jobKey), json });
    const repeated = await api.request('POST', '/api/v1/mapping', { as: caller, headers: keyed(jobKey), json });
    assert.equal(job.status, 201);
    assert.deepEqual(repeated.body, job.body);
    assert.equal((await api.request('GET', '/api/v1/mapping', { as: caller })).body.jobs.length, 1);
    assert.equal((await api.request('GET', '/api/v1/billing/quota/status', { as: caller })).body.mappingsUsedToday, 2, 'reserved once');
  });

  it('refuses the same key with another request (422), creating nothing', async () => {
    const caller = await api.newOrganization();
    const key = randomUUID();
    assert.equal(
      (await api.request('POST', '/api/v1/partner-inventories', { as: caller, headers: keyed(key), body: inventoryForm() })).status,
      201,
    );
    const otherFile = await api.request('POST', '/api/v1/partner-inventories', {
      as: caller,
      headers: keyed(key),
      body: inventoryForm(`${CSV}H3,Hotel Gamma,Nice,fr\n`),
    });
    assert.equal(otherFile.status, 422);
    assert.deepEqual(Object.keys(otherFile.body).sort(), ['error', 'message']);
    assert.match(otherFile.body.message, /used with another request/);
    assert.equal((await inventories(caller)).length, 1);
  });

  it('keeps no failed request: the same request with its key goes through once it can', async () => {
    const caller = await api.newOrganization();
    const created = await api.request('POST', '/api/v1/partner-inventories/uploads', {
      as: caller,
      json: { name: 'Later', fileName: 'hotels.csv', sizeBytes: Buffer.byteLength(CSV) },
    });
    const { partnerInventoryId } = created.body;
    const key = randomUUID();
    const early = await api.request('POST', '/api/v1/mapping', { as: caller, headers: keyed(key), json: { partnerInventoryId } });
    assert.equal(early.status, 400, 'the inventory is not READY yet');
    await fetch(created.body.upload.url, { method: 'PUT', headers: created.body.upload.headers, body: CSV });
    await api.request('POST', `/api/v1/partner-inventories/${partnerInventoryId}/complete`, { as: caller });
    await api.messaging.idle();
    const later = await api.request('POST', '/api/v1/mapping', { as: caller, headers: keyed(key), json: { partnerInventoryId } });
    assert.equal(later.status, 201, later.text);
    assert.equal(later.headers.get('idempotent-replayed'), null);
  });

  it('keeps keys apart per organization', async () => {
    const [one, two] = [await api.newOrganization(), await api.newOrganization()];
    const key = randomUUID();
    const mine = await api.request('POST', '/api/v1/partner-inventories', { as: one, headers: keyed(key), body: inventoryForm() });
    const theirs = await api.request('POST', '/api/v1/partner-inventories', { as: two, headers: keyed(key), body: inventoryForm() });
    assert.equal(theirs.status, 201);
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    assert.notEqual(theirs.body.partnerInventoryId, mine.body.partnerInventoryId);
    assert.equal((await inventories(two)).length, 1);
  });

  it('keeps an answer holding a signing secret sealed, and answers it again whole', async () => {
    const caller = await api.newOrganization();
    const key = randomUUID();
    const json = { url: 'http://127.0.0.1:9/hooks', events: ['MAPPING_COMPLETED'] };
    const first = await api.request('POST', '/api/v1/webhook-subscriptions', { as: caller, headers: keyed(key), json });
    const again = await api.request('POST', '/api/v1/webhook-subscriptions', { as: caller, headers: keyed(key), json });
    assert.equal(first.status, 201, first.text);
    assert.match(first.body.secret, /^whsec_/);
    assert.deepEqual(again.body, first.body);
    assert.equal((await api.request('GET', '/api/v1/webhook-subscriptions', { as: caller })).body.subscriptions.length, 1);
    const table = tableOf(api.runtime);
    const { Items = [] } = await table.client.send(new ScanCommand({ TableName: table.name }));
    assert.ok(
      Items.some((item) => item.PK === 'IDEMPOTENCY'),
      'the answer is kept',
    );
    assert.ok(!JSON.stringify(Items).includes(first.body.secret), 'never in the clear');
  });

  it('makes checkouts and test events idempotent too', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    const urls = { successUrl: 'https://partner.example/ok', cancelUrl: 'https://partner.example/cancel' };
    const key = randomUUID();
    const json = { priceId: LOCAL_PRICE_IDS.creditsPrice, ...urls };
    const first = await api.request('POST', '/api/v1/billing/credits/purchase', { as: caller, headers: keyed(key), json });
    const again = await api.request('POST', '/api/v1/billing/credits/purchase', { as: caller, headers: keyed(key), json });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.body.checkoutUrl, first.body.checkoutUrl, 'one checkout session, not two');

    const subscription = await api.request('POST', '/api/v1/webhook-subscriptions', {
      as: caller,
      json: { url: 'http://127.0.0.1:9/hooks', events: ['MAPPING_COMPLETED'] },
    });
    const testKey = randomUUID();
    const path = `/api/v1/webhook-subscriptions/${subscription.body.id}/test`;
    const sent = await api.request('POST', path, { as: caller, headers: keyed(testKey), json: { eventType: 'MAPPING_COMPLETED' } });
    const resent = await api.request('POST', path, { as: caller, headers: keyed(testKey), json: { eventType: 'MAPPING_COMPLETED' } });
    assert.equal(sent.status, 202, sent.text);
    assert.deepEqual(resent.body, sent.body);
    const deliveries = await api.request('GET', `/api/v1/webhook-subscriptions/${subscription.body.id}/deliveries`, { as: caller });
    assert.equal(deliveries.body.deliveries.length, 1, 'one test event, not two');
  });

  it('refuses a key that is not 1 to 255 visible ASCII characters', async () => {
    const caller = await api.newOrganization();
    for (const key of ['with space', 'x'.repeat(256), 'clé']) {
      const refused = await api.request('POST', '/api/v1/partner-inventories', {
        as: caller,
        headers: { 'idempotency-key': key },
        body: inventoryForm(),
      });
      assert.equal(refused.status, 400, key);
      assert.match(refused.body.message, /^Idempotency-Key must be/);
    }
    assert.equal((await inventories(caller)).length, 0);
  });
});

describe('a request still running with its key', () => {
  const route = routes.createMappingJob;
  const request = (organizationId: string, key: string) =>
    ({
      principal: { organizationId },
      headers: { 'idempotency-key': key },
      params: {},
      query: {},
      body: { partnerInventoryId: 'x' },
    }) as unknown as HttpRequest<typeof route>;
  const ok = { statusCode: 201, headers: {}, body: '{"done":true}' };

  it('holds it (409) until it ends, then answers its answer', async () => {
    const organizationId = randomUUID();
    const key = randomUUID();
    let finish!: () => void;
    let started!: () => void;
    const answering = new Promise<void>((resolve) => (started = resolve));
    const running = answerIdempotently(route, api.runtime, request(organizationId, key), { getRemainingTimeInMillis: () => 10_000 }, () => {
      started();
      return new Promise((resolve) => (finish = () => resolve(ok)));
    });
    // Its answer runs once its in-progress record is written.
    await answering;
    await assert.rejects(
      answerIdempotently(route, api.runtime, request(organizationId, key), { getRemainingTimeInMillis: () => 10_000 }, async () => ok),
      (error: { status: number; message: string }) => error.status === 409 && /still being processed/.test(error.message),
    );
    finish();
    assert.deepEqual(await running, ok);
    const replay = await answerIdempotently(
      route,
      api.runtime,
      request(organizationId, key),
      { getRemainingTimeInMillis: () => 10_000 },
      async () => assert.fail('not run again'),
    );
    assert.equal(replay.headers!['idempotent-replayed'], 'true');
  });

  it('frees it when the invocation that held it ran out of time (it died)', async () => {
    const organizationId = randomUUID();
    const key = randomUUID();
    // An invocation with 50 ms left that never answers: a function killed mid-way. Its record, written
    // before its answer runs, expires 50 ms after: waited for from then on.
    let started!: () => void;
    const answering = new Promise<void>((resolve) => (started = resolve));
    void answerIdempotently(route, api.runtime, request(organizationId, key), { getRemainingTimeInMillis: () => 50 }, () => {
      started();
      return new Promise(() => undefined);
    });
    await answering;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const retried = await answerIdempotently(
      route,
      api.runtime,
      request(organizationId, key),
      { getRemainingTimeInMillis: () => 10_000 },
      async () => ok,
    );
    assert.deepEqual(retried, ok);
  });
});
