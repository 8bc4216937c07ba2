/**
 * Billing on Stripe: the real `stripe` SDK talks to a local HTTP server standing in for
 * api.stripe.com, which records each request; webhook deliveries are signed with the SDK's own
 * test-header helper and checked by its real verifier.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, it } from '@jest/globals';
import Stripe from 'stripe';
import { LOCAL_PRICE_IDS as PRICES } from '../../shared/billing/catalogue';
import { startTestApi, type Caller } from '../support/test-api';
import { billingStoreOf, PAYMENT_SETTINGS } from '../../shared/billing';
import { logLinesDuring } from '../support/log-lines';

// --- a recording stand-in for the Stripe API -------------------------------------------------------

interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  headers: IncomingMessage['headers'];
}

const requests: RecordedRequest[] = [];
/** Subscriptions the stand-in knows, as Stripe's API returns them. */
const subscriptions = new Map<string, Record<string, unknown>>();
/** Quantity of credits (millions) bought in each checkout session. */
const lineItemQuantities = new Map<string, number>();
let customerCount = 0;

const stripeApi = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const url = new URL(request.url ?? '/', 'http://stripe.test');
    const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    requests.push({ method: request.method!, path: url.pathname, params, headers: request.headers });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test' });
      response.end(JSON.stringify(body));
    };
    const route = `${request.method} ${url.pathname}`;
    if (route === 'POST /v1/customers') return send(200, { id: `cus_test_${++customerCount}`, object: 'customer' });
    if (route === 'POST /v1/checkout/sessions') {
      return send(200, { id: 'cs_test_1', object: 'checkout.session', url: 'https://checkout.stripe.test/c/pay/cs_test_1' });
    }
    if (route === 'POST /v1/billing_portal/sessions') {
      return send(200, { id: 'bps_test_1', object: 'billing_portal.session', url: 'https://billing.stripe.test/p/session/test_1' });
    }
    const lineItems = /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/.exec(url.pathname);
    if (request.method === 'GET' && lineItems) {
      const quantity = lineItemQuantities.get(lineItems[1]!) ?? 0;
      return send(200, {
        object: 'list',
        url: url.pathname,
        has_more: false,
        data: [{ id: 'li_1', object: 'item', quantity, price: { id: PRICES.creditsPrice, object: 'price' } }],
      });
    }
    const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && subscription) {
      const found = subscriptions.get(subscription[1]!);
      if (found) return send(200, found);
      return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } });
    }
    send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${route})` } });
  });
});
await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
afterAll(() => {
  stripeApi.close();
});
const stripePort = (stripeApi.address() as AddressInfo).port;

const WEBHOOK_SECRET = 'whsec_test_secret';
const api = await startTestApi({
  config: {
    variables: PAYMENT_SETTINGS.environment({
      stripeSecretKey: 'sk_test_123',
      stripeWebhookSecret: WEBHOOK_SECRET,
      stripeApiUrl: `http://127.0.0.1:${stripePort}`,
    }),
  },
});

const requestsTo = (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path);
const now = () => Math.floor(api.clock.now().getTime() / 1000);

function stripeSubscription(
  id: string,
  customer: string,
  fields: { status?: string; price?: string; cancelAtPeriodEnd?: boolean; start?: number } = {},
) {
  const start = fields.start ?? now();
  return {
    id,
    object: 'subscription',
    customer,
    status: fields.status ?? 'active',
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    created: start,
    metadata: {},
    items: {
      object: 'list',
      data: [
        {
          id: 'si_1',
          object: 'subscription_item',
          price: { id: fields.price ?? PRICES.SUBSCRIPTION },
          current_period_start: start,
          current_period_end: start + 30 * 86_400,
        },
      ],
    },
  };
}

let eventCount = 0;
function stripeEvent(type: string, object: Record<string, unknown>, created = now()) {
  return { id: `evt_test_${++eventCount}`, object: 'event', type, created, livemode: false, data: { object } };
}

/** Posts an event to the webhook endpoint, signed the way Stripe signs it. */
function deliver(event: unknown, options: { secret?: string; signature?: string } = {}) {
  const payload = JSON.stringify(event);
  const signature =
    options.signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET, timestamp: now() });
  return api.request('POST', '/api/v1/billing/stripe/webhook', {
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
}

async function customerOf(caller: Caller): Promise<string> {
  await api.request('POST', '/api/v1/billing/portal', { as: caller, json: { returnUrl: 'https://partner.test/account' } });
  const { customerId } = await billingStoreOf(api.runtime).account(caller.organization.id);
  assert.ok(customerId);
  return customerId;
}

async function subscribe(caller: Caller, subscriptionId: string) {
  const customer = await customerOf(caller);
  subscriptions.set(subscriptionId, stripeSubscription(subscriptionId, customer));
  const event = stripeEvent('checkout.session.completed', {
    id: `cs_${subscriptionId}`,
    object: 'checkout.session',
    mode: 'subscription',
    customer,
    client_reference_id: caller.organization.id,
    payment_status: 'paid',
    subscription: subscriptionId,
    amount_total: 4900,
  });
  const response = await deliver(event);
  assert.equal(response.status, 200);
  return { customer, event };
}

const plan = async (caller: Caller) => (await api.request('GET', '/api/v1/billing/quota/status', { as: caller })).body.planType;
const balance = async (caller: Caller) => (await api.request('GET', '/api/v1/billing/credits/balance', { as: caller })).body;
const shownSubscription = async (caller: Caller) => (await api.request('GET', '/api/v1/billing/subscription', { as: caller })).body;

/** Runs `work`, collecting the error-level log lines written meanwhile (the tests log nothing otherwise). */
async function errorsLoggedDuring(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  return (await logLinesDuring(work, 'error')).filter((entry) => entry.level === 'ERROR');
}

/** A completed subscription checkout for `subscriptionId`, which Stripe knows with `price`. */
function subscriptionCheckoutCompleted(caller: Caller, customer: string, subscriptionId: string, price: string) {
  subscriptions.set(subscriptionId, stripeSubscription(subscriptionId, customer, { price }));
  return stripeEvent('checkout.session.completed', {
    id: `cs_${subscriptionId}`,
    object: 'checkout.session',
    mode: 'subscription',
    customer,
    client_reference_id: caller.organization.id,
    payment_status: 'paid',
    subscription: subscriptionId,
  });
}

// --- the adapter's requests ----------------------------------------------------------------------

describe('Stripe adapter: the requests the SDK sends', () => {
  it('subscription checkout: one customer per organization, then a subscription-mode session for the tier price', async () => {
    const caller = await api.newOrganization();
    requests.length = 0;
    const { status, body } = await api.request('POST', '/api/v1/billing/checkout', {
      as: caller,
      json: { priceId: PRICES.SUBSCRIPTION, successUrl: 'https://partner.test/ok', cancelUrl: 'https://partner.test/cancel' },
    });
    assert.equal(status, 200);
    assert.deepEqual(body, { checkoutUrl: 'https://checkout.stripe.test/c/pay/cs_test_1' });

    const [customer] = requestsTo('POST', '/v1/customers');
    assert.ok(customer);
    assert.equal(customer.params['metadata[organizationId]'], caller.organization.id);
    assert.equal(customer.headers['idempotency-key'], `customer-for-organization-${caller.organization.id}`);
    assert.equal(customer.headers.authorization, 'Bearer sk_test_123');

    const [session] = requestsTo('POST', '/v1/checkout/sessions');
    assert.ok(session);
    assert.equal(session.params.mode, 'subscription');
    assert.equal(session.params['line_items[0][price]'], PRICES.SUBSCRIPTION);
    assert.equal(session.params['line_items[0][quantity]'], '1');
    assert.equal(session.params.customer, (await billingStoreOf(api.runtime).account(caller.organization.id)).customerId);
    assert.equal(session.params.client_reference_id, caller.organization.id);
    assert.equal(session.params.success_url, 'https://partner.test/ok');
    assert.equal(session.params.cancel_url, 'https://partner.test/cancel');
    assert.equal(session.params['subscription_data[metadata][planType]'], 'SUBSCRIPTION');

    // A second checkout reuses the stored customer.
    await api.request('POST', '/api/v1/billing/checkout', {
      as: caller,
      json: { priceId: PRICES.ENTERPRISE, successUrl: 'https://partner.test/ok', cancelUrl: 'https://partner.test/cancel' },
    });
    assert.equal(requestsTo('POST', '/v1/customers').length, 1);
    assert.equal(requestsTo('POST', '/v1/checkout/sessions')[1]!.params['line_items[0][price]'], PRICES.ENTERPRISE);
  });

  it('a subscription checkout while Stripe reports a live subscription answers 409 and opens no session; after it ended, 200', async () => {
    const caller = await api.newOrganization();
    const { customer } = await subscribe(caller, 'sub_guard');
    const json = { priceId: PRICES.ENTERPRISE, successUrl: 'https://partner.test/ok', cancelUrl: 'https://partner.test/cancel' };
    requests.length = 0;
    const refused = await api.request('POST', '/api/v1/billing/checkout', { as: caller, json });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error, 'Conflict');
    assert.match(refused.body.message, /already has a live SUBSCRIPTION subscription \(sub_guard\)/);
    assert.match(refused.body.message, /POST \/api\/v1\/billing\/portal/);
    assert.equal(requestsTo('POST', '/v1/checkout/sessions').length, 0);
    // Credits are not a subscription: buying them stays open.
    const credits = await api.request('POST', '/api/v1/billing/credits/purchase', {
      as: caller,
      json: { ...json, priceId: PRICES.creditsPrice },
    });
    assert.equal(credits.status, 200);

    // Stripe has ended it and its event has not arrived yet: Stripe's live state decides.
    subscriptions.set('sub_guard', stripeSubscription('sub_guard', customer, { status: 'canceled' }));
    assert.equal((await api.request('POST', '/api/v1/billing/checkout', { as: caller, json })).status, 200);
  });

  it('two first checkouts at once store one customer', async () => {
    const caller = await api.newOrganization();
    requests.length = 0;
    const json = { priceId: PRICES.SUBSCRIPTION, successUrl: 'https://partner.test/ok', cancelUrl: 'https://partner.test/cancel' };
    await Promise.all([1, 2, 3].map(() => api.request('POST', '/api/v1/billing/checkout', { as: caller, json })));
    const stored = (await billingStoreOf(api.runtime).account(caller.organization.id)).customerId;
    const sessions = requestsTo('POST', '/v1/checkout/sessions');
    assert.equal(sessions.length, 3);
    // Every session names the one stored customer; Stripe's idempotency key covers the rest.
    assert.ok(sessions.every((s) => s.params.customer === stored));
    assert.ok(
      requestsTo('POST', '/v1/customers').every(
        (r) => r.headers['idempotency-key'] === `customer-for-organization-${caller.organization.id}`,
      ),
    );
  });

  it('credit purchase: a payment-mode session whose quantity (millions) is adjustable from 5 to 10,000', async () => {
    const caller = await api.newOrganization();
    requests.length = 0;
    const { status, body } = await api.request('POST', '/api/v1/billing/credits/purchase', {
      as: caller,
      json: { priceId: PRICES.creditsPrice, successUrl: 'https://partner.test/ok', cancelUrl: 'https://partner.test/no' },
    });
    assert.equal(status, 200);
    assert.equal(body.checkoutUrl, 'https://checkout.stripe.test/c/pay/cs_test_1');
    const [session] = requestsTo('POST', '/v1/checkout/sessions');
    assert.ok(session);
    assert.equal(session.params.mode, 'payment');
    assert.equal(session.params['line_items[0][price]'], PRICES.creditsPrice);
    assert.equal(session.params['line_items[0][quantity]'], '5');
    assert.equal(session.params['line_items[0][adjustable_quantity][enabled]'], 'true');
    assert.equal(session.params['line_items[0][adjustable_quantity][minimum]'], '5');
    assert.equal(session.params['line_items[0][adjustable_quantity][maximum]'], '10000');
    assert.ok(session.params.customer?.startsWith('cus_test_'));
    assert.equal(session.params.success_url, 'https://partner.test/ok');
  });

  it('answers 400 for a price that is not a tier (checkout) or not the credits price (purchase), calling nothing', async () => {
    const caller = await api.newOrganization();
    requests.length = 0;
    const urls = { successUrl: 'https://partner.test/ok', cancelUrl: 'https://partner.test/cancel' };
    for (const [path, priceId] of [
      ['/api/v1/billing/checkout', PRICES.creditsPrice],
      ['/api/v1/billing/checkout', 'price_unknown'],
      ['/api/v1/billing/credits/purchase', PRICES.SUBSCRIPTION],
    ] as const) {
      const response = await api.request('POST', path, { as: caller, json: { priceId, ...urls } });
      assert.equal(response.status, 400, `${path} ${priceId}`);
      assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message']);
      assert.match(response.body.message, /priceId/);
    }
    assert.equal(requests.length, 0);
    assert.equal((await billingStoreOf(api.runtime).account(caller.organization.id)).customerId, undefined);
  });

  it('portal: a billing-portal session for the customer with the return URL; 400 without returnUrl', async () => {
    const caller = await api.newOrganization();
    requests.length = 0;
    const missing = await api.request('POST', '/api/v1/billing/portal', { as: caller, json: {} });
    assert.equal(missing.status, 400);
    assert.match(missing.body.message, /returnUrl/);
    assert.equal(requests.length, 0);

    const { status, body } = await api.request('POST', '/api/v1/billing/portal', {
      as: caller,
      json: { returnUrl: 'https://partner.test/account' },
    });
    assert.equal(status, 200);
    assert.deepEqual(body, { portalUrl: 'https://billing.stripe.test/p/session/test_1' });
    const [portal] = requestsTo('POST', '/v1/billing_portal/sessions');
    assert.equal(portal!.params.customer, (await billingStoreOf(api.runtime).account(caller.organization.id)).customerId);
    assert.equal(portal!.params.return_url, 'https://partner.test/account');
  });

  it('subscription: null before any checkout; afterwards the live state read from Stripe', async () => {
    const caller = await api.newOrganization();
    const before = await api.request('GET', '/api/v1/billing/subscription', { as: caller });
    assert.equal(before.status, 200);
    assert.equal(before.text, 'null');

    await subscribe(caller, 'sub_live_1');
    // Stripe's state changes without an event reaching us yet: the endpoint shows Stripe's.
    const customer = (await billingStoreOf(api.runtime).account(caller.organization.id)).customerId!;
    subscriptions.set('sub_live_1', stripeSubscription('sub_live_1', customer, { cancelAtPeriodEnd: true, start: 1_790_000_000 }));
    requests.length = 0;
    const { body } = await api.request('GET', '/api/v1/billing/subscription', { as: caller });
    assert.deepEqual(requestsTo('GET', '/v1/subscriptions/sub_live_1').length, 1);
    assert.deepEqual(body, {
      id: 'sub_live_1',
      status: 'active',
      planType: 'SUBSCRIPTION',
      currentPeriodStart: new Date(1_790_000_000_000).toISOString(),
      currentPeriodEnd: new Date((1_790_000_000 + 30 * 86_400) * 1000).toISOString(),
      cancelAtPeriodEnd: true,
    });
  });
});

// --- the webhook ---------------------------------------------------------------------------------

describe('POST /api/v1/billing/stripe/webhook', () => {
  it('subscription checkout completed: the plan becomes SUBSCRIPTION', async () => {
    const caller = await api.newOrganization();
    assert.equal(await plan(caller), 'FREE');
    await subscribe(caller, 'sub_a');
    assert.equal(await plan(caller), 'SUBSCRIPTION');
    const plans = await api.request('GET', '/api/v1/billing/plans', { as: caller });
    assert.equal(plans.body.currentPlan, 'SUBSCRIPTION');
    // The supplier budget follows the plan.
    assert.equal((await api.request('GET', '/api/v1/suppliers/my-suppliers', { as: caller })).body.maxSuppliers, 10);
  });

  it('credits checkout completed: quantity (read from the line items) × 1,000,000 credits, amount added to totalSpent', async () => {
    const caller = await api.newOrganization();
    const customer = await customerOf(caller);
    lineItemQuantities.set('cs_credits_1', 7);
    requests.length = 0;
    const event = stripeEvent('checkout.session.completed', {
      id: 'cs_credits_1',
      object: 'checkout.session',
      mode: 'payment',
      customer,
      client_reference_id: caller.organization.id,
      payment_status: 'paid',
      amount_total: 700,
      subscription: null,
    });
    const response = await deliver(event);
    assert.deepEqual(response.body, { received: true, outcome: 'applied' });
    assert.equal(requestsTo('GET', '/v1/checkout/sessions/cs_credits_1/line_items').length, 1);
    assert.deepEqual(await balance(caller), { creditsRemaining: 7_000_000, creditsUsed: 0, totalSpent: 7 });
  });

  it('a redelivered event is applied once', async () => {
    const caller = await api.newOrganization();
    const customer = await customerOf(caller);
    lineItemQuantities.set('cs_credits_2', 5);
    const event = stripeEvent('checkout.session.completed', {
      id: 'cs_credits_2',
      object: 'checkout.session',
      mode: 'payment',
      customer,
      client_reference_id: caller.organization.id,
      payment_status: 'paid',
      amount_total: 500,
    });
    const outcomes = await Promise.all([deliver(event), deliver(event), deliver(event)]);
    assert.deepEqual(
      outcomes.map((r) => r.status),
      [200, 200, 200],
    );
    assert.deepEqual(outcomes.map((r) => r.body.outcome).sort(), ['applied', 'duplicate', 'duplicate']);
    assert.equal((await deliver(event)).body.outcome, 'duplicate');
    assert.deepEqual(await balance(caller), { creditsRemaining: 5_000_000, creditsUsed: 0, totalSpent: 5 });
  });

  it('a bad signature answers 400 {error, message} and changes nothing', async () => {
    const caller = await api.newOrganization();
    const customer = await customerOf(caller);
    lineItemQuantities.set('cs_forged', 1000);
    const event = stripeEvent('checkout.session.completed', {
      id: 'cs_forged',
      object: 'checkout.session',
      mode: 'payment',
      customer,
      client_reference_id: caller.organization.id,
      payment_status: 'paid',
      amount_total: 100_000,
    });
    for (const options of [{ secret: 'whsec_wrong' }, { signature: 't=1,v1=deadbeef' }, { signature: '' }]) {
      const response = await deliver(event, options);
      assert.equal(response.status, 400);
      assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message']);
      assert.equal(response.body.error, 'Bad Request');
    }
    // The body is verified as sent: re-serialising it breaks the signature.
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: now() });
    const tampered = await api.request('POST', '/api/v1/billing/stripe/webhook', {
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: JSON.stringify(event, null, 2),
    });
    assert.equal(tampered.status, 400);
    // A signature older than five minutes (by the service's clock) is refused too.
    const old = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: now() - 600 });
    assert.equal((await deliver(event, { signature: old })).status, 400);
    assert.deepEqual(await balance(caller), { creditsRemaining: 0, creditsUsed: 0, totalSpent: 0 });
    // The real delivery afterwards still applies (nothing was marked processed).
    assert.equal((await deliver(event)).body.outcome, 'applied');
  });

  it('answers 415 for another content type, and 200 "ignored" for event types it does not use', async () => {
    const payload = JSON.stringify(stripeEvent('charge.succeeded', { id: 'ch_1', object: 'charge' }));
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: now() });
    const wrongType = await api.request('POST', '/api/v1/billing/stripe/webhook', {
      headers: { 'content-type': 'text/plain', 'stripe-signature': signature },
      body: payload,
    });
    assert.equal(wrongType.status, 415);
    const ignored = await api.request('POST', '/api/v1/billing/stripe/webhook', {
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      body: payload,
    });
    assert.deepEqual(ignored.body, { received: true, outcome: 'ignored' });
  });

  it('subscription updated: status, period and cancel-at-period-end; deleted: back to FREE', async () => {
    const caller = await api.newOrganization();
    const { customer } = await subscribe(caller, 'sub_b');
    api.clock.advance(60_000);
    const updated = stripeSubscription('sub_b', customer, { cancelAtPeriodEnd: true, start: 1_795_000_000 });
    assert.equal((await deliver(stripeEvent('customer.subscription.updated', updated))).body.outcome, 'applied');
    subscriptions.delete('sub_b'); // Stripe no longer answers: the endpoint falls back to the stored state
    const stored = (await api.request('GET', '/api/v1/billing/subscription', { as: caller })).body;
    assert.equal(stored.cancelAtPeriodEnd, true);
    assert.equal(stored.currentPeriodStart, new Date(1_795_000_000_000).toISOString());
    assert.equal(await plan(caller), 'SUBSCRIPTION');

    api.clock.advance(60_000);
    const ended = stripeSubscription('sub_b', customer, { status: 'canceled', start: 1_795_000_000 });
    assert.equal((await deliver(stripeEvent('customer.subscription.deleted', ended))).body.outcome, 'applied');
    assert.equal(await plan(caller), 'FREE');
    assert.equal((await api.request('GET', '/api/v1/billing/subscription', { as: caller })).body.status, 'canceled');
  });

  it('an older subscription update delivered after a newer one does not overwrite it', async () => {
    const caller = await api.newOrganization();
    const { customer } = await subscribe(caller, 'sub_c');
    const t = now();
    const older = stripeEvent('customer.subscription.updated', stripeSubscription('sub_c', customer, { status: 'past_due' }), t + 10);
    const newer = stripeEvent('customer.subscription.deleted', stripeSubscription('sub_c', customer, { status: 'canceled' }), t + 20);
    assert.equal((await deliver(newer)).body.outcome, 'applied');
    assert.equal((await deliver(older)).body.outcome, 'stale');
    assert.equal((await deliver(older)).body.outcome, 'duplicate');
    assert.equal(await plan(caller), 'FREE');
    subscriptions.delete('sub_c');
    assert.equal((await api.request('GET', '/api/v1/billing/subscription', { as: caller })).body.status, 'canceled');
  });

  it('invoice.payment_failed marks the subscription past_due and keeps the plan', async () => {
    const caller = await api.newOrganization();
    const { customer } = await subscribe(caller, 'sub_d');
    subscriptions.delete('sub_d');
    const invoice = {
      id: 'in_1',
      object: 'invoice',
      customer,
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_d' } },
    };
    assert.equal((await deliver(stripeEvent('invoice.payment_failed', invoice, now() + 5))).body.outcome, 'applied');
    const { body } = await api.request('GET', '/api/v1/billing/subscription', { as: caller });
    assert.equal(body.status, 'past_due');
    assert.equal(await plan(caller), 'SUBSCRIPTION');
  });

  it('a second live subscription is recorded beside the first, logged as an error, and never orphans it', async () => {
    const caller = await api.newOrganization();
    const customer = await customerOf(caller);
    assert.equal((await deliver(subscriptionCheckoutCompleted(caller, customer, 'sub_ent', PRICES.ENTERPRISE))).body.outcome, 'applied');
    assert.equal(await plan(caller), 'ENTERPRISE');

    // A second checkout slipped through (opened before the first was paid): Stripe bills both.
    api.clock.advance(60_000);
    const errors = await errorsLoggedDuring(async () => {
      const second = await deliver(subscriptionCheckoutCompleted(caller, customer, 'sub_pro', PRICES.SUBSCRIPTION));
      assert.deepEqual(second.body, { received: true, outcome: 'applied' });
    });
    const flagged = errors.find((entry) => entry.message === 'organization has more than one live subscription');
    assert.ok(flagged, JSON.stringify(errors));
    assert.equal(flagged.organizationId, caller.organization.id);
    assert.deepEqual(flagged.liveSubscriptionIds, ['sub_ent', 'sub_pro']);
    // The organization keeps the better plan it pays for, and the subscription it comes from.
    assert.equal(await plan(caller), 'ENTERPRISE');
    assert.equal((await shownSubscription(caller)).id, 'sub_ent');

    // The ENTERPRISE one ends: the organization is on the one still billing, not FREE.
    api.clock.advance(60_000);
    subscriptions.set('sub_ent', stripeSubscription('sub_ent', customer, { status: 'canceled', price: PRICES.ENTERPRISE }));
    assert.equal((await deliver(stripeEvent('customer.subscription.deleted', subscriptions.get('sub_ent')!))).body.outcome, 'applied');
    assert.equal(await plan(caller), 'SUBSCRIPTION');
    assert.equal((await shownSubscription(caller)).id, 'sub_pro');

    api.clock.advance(60_000);
    subscriptions.set('sub_pro', stripeSubscription('sub_pro', customer, { status: 'canceled' }));
    assert.equal((await deliver(stripeEvent('customer.subscription.deleted', subscriptions.get('sub_pro')!))).body.outcome, 'applied');
    assert.equal(await plan(caller), 'FREE');
  });

  it("orders events per subscription: one subscription's newer event does not make another's older one stale", async () => {
    const caller = await api.newOrganization();
    const customer = await customerOf(caller);
    const t = now();
    await deliver(subscriptionCheckoutCompleted(caller, customer, 'sub_old', PRICES.SUBSCRIPTION));
    const newerOfOther = stripeEvent(
      'customer.subscription.created',
      stripeSubscription('sub_new', customer, { price: PRICES.ENTERPRISE }),
      t + 20,
    );
    const olderEnd = stripeEvent('customer.subscription.deleted', stripeSubscription('sub_old', customer, { status: 'canceled' }), t + 10);
    assert.equal((await deliver(newerOfOther)).body.outcome, 'applied');
    assert.equal((await deliver(olderEnd)).body.outcome, 'applied');
    assert.equal(await plan(caller), 'ENTERPRISE');
    assert.equal((await shownSubscription(caller)).id, 'sub_new');
    // Within one subscription, an update older than what is stored is still stale; an ended one stays ended.
    const olderUpdate = stripeEvent('customer.subscription.updated', stripeSubscription('sub_old', customer), t + 5);
    assert.equal((await deliver(olderUpdate)).body.outcome, 'stale');
    const sameSecond = stripeEvent('customer.subscription.updated', stripeSubscription('sub_old', customer), t + 10);
    assert.equal((await deliver(sameSecond)).body.outcome, 'stale');
  });

  it('an organization an admin put on ENTERPRISE keeps it when a subscription of its starts and ends', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    const { customer } = await subscribe(caller, 'sub_beside_admin_plan');
    assert.equal(await plan(caller), 'ENTERPRISE');
    api.clock.advance(60_000);
    const ended = stripeSubscription('sub_beside_admin_plan', customer, { status: 'canceled' });
    assert.equal((await deliver(stripeEvent('customer.subscription.deleted', ended))).body.outcome, 'applied');
    assert.equal(await plan(caller), 'ENTERPRISE');
  });

  it('an admin SUBSCRIPTION plan is the floor: an ENTERPRISE subscription lifts it, and its end returns to it', async () => {
    const caller = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    const customer = await customerOf(caller);
    await deliver(subscriptionCheckoutCompleted(caller, customer, 'sub_lift', PRICES.ENTERPRISE));
    assert.equal(await plan(caller), 'ENTERPRISE');
    api.clock.advance(60_000);
    const ended = stripeSubscription('sub_lift', customer, { status: 'canceled', price: PRICES.ENTERPRISE });
    await deliver(stripeEvent('customer.subscription.deleted', ended));
    assert.equal(await plan(caller), 'SUBSCRIPTION');
  });

  it('a credits quantity that would take a count past Number.MAX_SAFE_INTEGER answers 400 and changes nothing', async () => {
    const caller = await api.newOrganization();
    const customer = await customerOf(caller);
    const creditsCompleted = (session: string, millions: number) => {
      lineItemQuantities.set(session, millions);
      return stripeEvent('checkout.session.completed', {
        id: session,
        object: 'checkout.session',
        mode: 'payment',
        customer,
        client_reference_id: caller.organization.id,
        payment_status: 'paid',
        amount_total: millions * 100,
      });
    };
    const unsafe = await deliver(creditsCompleted('cs_unsafe', 99_999_999_999));
    assert.equal(unsafe.status, 400);
    assert.deepEqual(Object.keys(unsafe.body).sort(), ['error', 'message']);
    assert.deepEqual(await balance(caller), { creditsRemaining: 0, creditsUsed: 0, totalSpent: 0 });

    // Each purchase safe, the balance they would make together not.
    assert.equal((await deliver(creditsCompleted('cs_large', 9_000_000_000))).body.outcome, 'applied');
    const overflowing = await deliver(creditsCompleted('cs_overflow', 9_000_000));
    assert.equal(overflowing.status, 400);
    assert.match(overflowing.body.message, /credits/);
    assert.deepEqual(await balance(caller), { creditsRemaining: 9_000_000_000_000_000, creditsUsed: 0, totalSpent: 9_000_000_000 });
  });

  it('an event for a customer the service does not know changes nothing', async () => {
    const event = stripeEvent('customer.subscription.updated', stripeSubscription('sub_x', 'cus_nobody'));
    assert.deepEqual((await deliver(event)).body, { received: true, outcome: 'unknown_customer' });
  });
});
