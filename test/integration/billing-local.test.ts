/**
 * The billing endpoints with the local payment provider (no Stripe key): its hosted pages are
 * served by the local runtime, and completing them goes through the signed webhook like Stripe.
 * Also the catalogue, the read endpoints' shapes, validation and authentication, and that the
 * provider's state outlives a restart.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, it } from '@jest/globals';
import { LOCAL_PRICE_IDS as PRICES } from '../../shared/billing/catalogue';
import { startTestApi, type Caller } from '../support/test-api';
import { billingStoreOf } from '../../shared/billing';
import { localRuntime } from '../../infra/local/messaging';
import { localPaymentPages } from '../../infra/local/payment-pages';
import { createLocalApi } from '../../infra/local/server';

const api = await startTestApi();
const URLS = { successUrl: 'https://partner.test/billing/done', cancelUrl: 'https://partner.test/billing/cancelled' };

/** Follows the local page flow without following the final redirect to the partner's site. */
async function page(method: 'GET' | 'POST', url: string, form?: Record<string, string>) {
  const response = await fetch(url, {
    method,
    redirect: 'manual',
    ...(form && { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }),
  });
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

const get = async (caller: Caller, path: string) => (await api.request('GET', `/api/v1/billing/${path}`, { as: caller })).body;

const restartedServers: ReturnType<typeof createLocalApi>[] = [];
afterAll(() => {
  for (const server of restartedServers) {
    server.closeAllConnections();
    server.close();
  }
});

/** A new runtime (new local payment provider, nothing in memory) and server over the test API's table. */
async function restartedApi() {
  const { runtime } = localRuntime(api.config, { clock: api.clock });
  const server = createLocalApi({ runtime, pages: localPaymentPages(runtime) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  restartedServers.push(server);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = async (method: string, path: string, options: { as: Caller; json?: unknown }) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...options.as.headers, ...(options.json !== undefined && { 'content-type': 'application/json' }) },
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return { baseUrl, request };
}

describe('GET /api/v1/billing/plans', () => {
  it('is public: tiers and the credits product, without currentPlan', async () => {
    const { status, body } = await api.request('GET', '/api/v1/billing/plans');
    assert.equal(status, 200);
    assert.equal(body.currentPlan, undefined);
    assert.deepEqual(
      body.tiers.map((t: { planType: string; maxSuppliers: number; mappingsPerDay: number; providerPriceId: string | null }) => [
        t.planType,
        t.maxSuppliers,
        t.mappingsPerDay,
        t.providerPriceId,
      ]),
      [
        ['FREE', 2, 1_000, null],
        ['SUBSCRIPTION', 10, 100_000, PRICES.SUBSCRIPTION],
        ['ENTERPRISE', 100, 5_000_000, PRICES.ENTERPRISE],
      ],
    );
    const subscription = body.tiers[1];
    assert.deepEqual(Object.keys(subscription).sort(), [
      'currency',
      'displayName',
      'features',
      'mappingsPerDay',
      'maxSuppliers',
      'monthlyPrice',
      'monthlyPriceAmount',
      'planType',
      'pricePerMillion',
      'pricePerMillionAmount',
      'providerPriceId',
      'webhookEvents',
    ]);
    assert.deepEqual(subscription.webhookEvents, [
      'MAPPING_COMPLETED',
      'MAPPING_ERROR_RESOLVED',
      'MAPPING_BOOK_CHANGED',
      'DELIVERY_DESTINATION_DISABLED',
    ]);
    assert.equal(subscription.monthlyPrice, '€49.00 / month');
    assert.equal(subscription.pricePerMillion, '€1.00');
    // The same prices as numbers a client computes with: cents, and their currency.
    assert.deepEqual([subscription.monthlyPriceAmount, subscription.pricePerMillionAmount, subscription.currency], [4_900, 100, 'EUR']);
    assert.equal(body.tiers[0].monthlyPrice, '€0.00');
    // The catalogue sells as one plan's only what the service refuses below it: modes and export
    // formats are open to every plan (a FREE organization maps ID_TO_ID and saves a format in
    // mapping-jobs.test.ts and export-format.test.ts), so every tier lists them.
    for (const tier of body.tiers) {
      assert.ok(tier.features.includes('STANDARD, ID_TO_ID and HYBRID mapping'), tier.planType);
      assert.ok(tier.features.includes('Custom export formats'), tier.planType);
    }
    assert.deepEqual(body.credits, {
      name: 'Mapping credits',
      description: body.credits.description,
      pricePerMillion: '€1.00',
      pricePerMillionAmount: 100,
      currency: 'EUR',
      minimumCredits: 5_000_000,
      providerProductId: PRICES.creditsProduct,
      providerPriceId: PRICES.creditsPrice,
    });
  });

  it('adds currentPlan for a valid credential, and ignores an invalid one', async () => {
    const caller = await api.newOrganization({ planType: 'ENTERPRISE' });
    assert.equal((await api.request('GET', '/api/v1/billing/plans', { as: caller })).body.currentPlan, 'ENTERPRISE');
    const invalid = await api.request('GET', '/api/v1/billing/plans', { headers: { 'x-api-key': 'hmk_000000000000_nope' } });
    assert.equal(invalid.status, 200);
    assert.equal(invalid.body.currentPlan, undefined);
  });
});

describe('authentication and validation', () => {
  const required = [
    ['GET', 'subscription'],
    ['GET', 'plan'],
    ['GET', 'quota/status'],
    ['GET', 'credits/balance'],
    ['GET', 'usage'],
    ['GET', 'metrics/current-month'],
    ['GET', 'metrics/history'],
    ['POST', 'checkout'],
    ['POST', 'portal'],
    ['POST', 'credits/purchase'],
  ] as const;

  it('answers 401 {error, message} without a credential on every endpoint but plans', async () => {
    for (const [method, path] of required) {
      const response = await api.request(method, `/api/v1/billing/${path}`, method === 'POST' ? { json: {} } : {});
      assert.equal(response.status, 401, path);
      assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message']);
    }
  });

  it('validates bodies: missing or non-URL fields, unknown fields, wrong content type (400/415), storing nothing', async () => {
    const caller = await api.newOrganization();
    const cases: [string, unknown, RegExp][] = [
      ['checkout', { priceId: PRICES.SUBSCRIPTION, successUrl: URLS.successUrl }, /cancelUrl is required/],
      ['checkout', { priceId: PRICES.SUBSCRIPTION, ...URLS, successUrl: 'not a url' }, /successUrl/],
      ['checkout', { ...URLS }, /priceId is required/],
      ['credits/purchase', { priceId: PRICES.creditsPrice, ...URLS, quantity: 9 }, /Unknown field "quantity"/],
      ['portal', { returnUrl: 'ftp://partner.test' }, /returnUrl/],
    ];
    for (const [path, json, message] of cases) {
      const response = await api.request('POST', `/api/v1/billing/${path}`, { as: caller, json });
      assert.equal(response.status, 400, `${path} ${JSON.stringify(json)}`);
      assert.match(response.body.message, message);
    }
    const wrongType = await api.request('POST', '/api/v1/billing/portal', {
      as: caller,
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ returnUrl: URLS.successUrl }),
    });
    assert.equal(wrongType.status, 415);
    assert.equal((await billingStoreOf(api.runtime).account(caller.organization.id)).customerId, undefined);
  });

  it('redirect URLs: https (http only for localhost / 127.0.0.1), no control characters or spaces, at most 2,000 characters', async () => {
    const caller = await api.newOrganization();
    const refused = [
      'https://partner.test/done\r\nSet-Cookie: session=stolen',
      'https://partner.test/done\nX: y',
      'https://partner.test/\tdone',
      'https://partner.test/a b',
      'https://partner.test/\u0000',
      'http://partner.test/done',
      'http://localhost.partner.test/done',
      'javascript:alert(1)//https://partner.test',
      '//partner.test/done',
      `https://partner.test/${'a'.repeat(2_000 - 'https://partner.test/'.length + 1)}`,
    ];
    for (const url of refused) {
      for (const [path, json] of [
        ['checkout', { priceId: PRICES.SUBSCRIPTION, ...URLS, successUrl: url }],
        ['credits/purchase', { priceId: PRICES.creditsPrice, ...URLS, cancelUrl: url }],
        ['portal', { returnUrl: url }],
      ] as const) {
        const response = await api.request('POST', `/api/v1/billing/${path}`, { as: caller, json });
        assert.equal(response.status, 400, `${path} ${JSON.stringify(url)}`);
        assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message']);
        assert.match(response.body.message, /successUrl|cancelUrl|returnUrl/);
      }
    }
    assert.equal((await billingStoreOf(api.runtime).account(caller.organization.id)).customerId, undefined, 'nothing stored');

    const accepted = [
      `https://partner.test/${'a'.repeat(2_000 - 'https://partner.test/'.length)}`,
      'https://partner.test/done?session={CHECKOUT_SESSION_ID}&x=%0D%0A',
      'http://localhost:5173/billing/done',
      'http://127.0.0.1:8080/done',
      'http://[::1]/done',
    ];
    for (const url of accepted) {
      const response = await api.request('POST', '/api/v1/billing/credits/purchase', {
        as: caller,
        json: { priceId: PRICES.creditsPrice, successUrl: url, cancelUrl: url },
      });
      assert.equal(response.status, 200, `${url}: ${response.text}`);
    }
  });

  it('metrics history: limit 1 to 12 (default 12); 0, 13 or text answer 400', async () => {
    const caller = await api.newOrganization();
    for (const limit of ['0', '13', 'x', '-1']) {
      const response = await api.request('GET', `/api/v1/billing/metrics/history?limit=${limit}`, { as: caller });
      assert.equal(response.status, 400, limit);
      assert.match(response.body.message, /limit: must be a whole number from 1 to 12/);
    }
    assert.equal((await api.request('GET', '/api/v1/billing/metrics/history?limit=1', { as: caller })).body.length, 1);
  });

  it('metrics history: at most `limit` months, most recent first, none before the organization existed', async () => {
    api.clock.set('2025-01-15T12:00:00.000Z');
    const caller = await api.newOrganization();
    api.clock.set('2026-11-22T10:00:00.000Z');
    const all = await get(caller, 'metrics/history');
    assert.equal(all.length, 12);
    assert.equal(all[0].billingMonth, '2026-11');
    assert.equal(all[11].billingMonth, '2025-12');
    assert.deepEqual(all[5], { billingMonth: '2026-06', matchesProcessed: 0, costPerMatch: 0, totalCost: 0 });
    const three = (await api.request('GET', '/api/v1/billing/metrics/history?limit=3', { as: caller })).body;
    assert.deepEqual(
      three.map((m: { billingMonth: string }) => m.billingMonth),
      ['2026-11', '2026-10', '2026-09'],
    );
    const young = await api.newOrganization();
    assert.deepEqual(
      (await get(young, 'metrics/history')).map((m: { billingMonth: string }) => m.billingMonth),
      ['2026-11'],
    );
  });
});

describe('a new organization', () => {
  it('starts on its plan with nothing used and no credits', async () => {
    api.clock.set('2026-11-22T10:00:00.000Z');
    const caller = await api.newOrganization({ planType: 'SUBSCRIPTION' });
    assert.deepEqual(await get(caller, 'quota/status'), {
      canProceed: true,
      message: '100,000 of 100,000 daily mappings left.',
      remainingQuota: 100_000,
      usagePercentage: 0,
      planType: 'SUBSCRIPTION',
      quotaType: 'daily_limit',
      mappingsPerDayLimit: 100_000,
      mappingsUsedToday: 0,
      maxSuppliers: 10,
    });
    assert.deepEqual(await get(caller, 'plan'), {
      planName: 'SUBSCRIPTION',
      displayName: 'Professional',
      matchesPerMonth: 3_000_000,
      pricePerMatch: 0.000001,
      matchesUsed: 0,
      monthlyTotalCost: 0,
      quotaRemaining: 3_000_000,
      usagePercentage: 0,
    });
    assert.deepEqual(await get(caller, 'credits/balance'), { creditsRemaining: 0, creditsUsed: 0, totalSpent: 0 });
    assert.deepEqual(await get(caller, 'usage'), { period: '2026-11', totalMappings: 0, totalCost: 0, bySupplier: [] });
    assert.deepEqual(await get(caller, 'metrics/current-month'), {
      billingMonth: '2026-11',
      matchesProcessed: 0,
      costPerMatch: 0,
      totalCost: 0,
      usagePercentage: 0,
    });
    const subscription = await api.request('GET', '/api/v1/billing/subscription', { as: caller });
    assert.equal(subscription.status, 200);
    assert.equal(subscription.text, 'null');
  });
});

describe('the local payment provider', () => {
  it('subscription checkout: the hosted page completes through the webhook; the plan becomes SUBSCRIPTION', async () => {
    api.clock.set('2026-11-22T10:00:00.000Z');
    const caller = await api.newOrganization();
    const { status, body } = await api.request('POST', '/api/v1/billing/checkout', {
      as: caller,
      json: { priceId: PRICES.SUBSCRIPTION, ...URLS },
    });
    assert.equal(status, 200);
    assert.ok(body.checkoutUrl.startsWith(`${api.baseUrl}/local-payments/checkout/cs_local_`), body.checkoutUrl);

    const shown = await page('GET', body.checkoutUrl);
    assert.equal(shown.status, 200);
    assert.match(shown.text, /Subscribe to <b>Professional<\/b>/);
    const paid = await page('POST', `${body.checkoutUrl}/complete`);
    assert.equal(paid.status, 303);
    assert.equal(paid.location, URLS.successUrl);

    assert.equal((await get(caller, 'quota/status')).planType, 'SUBSCRIPTION');
    const subscription = await get(caller, 'subscription');
    assert.match(subscription.id, /^sub_local_/);
    assert.deepEqual(
      { ...subscription, id: 'x' },
      {
        id: 'x',
        status: 'active',
        planType: 'SUBSCRIPTION',
        currentPeriodStart: '2026-11-22T10:00:00.000Z',
        currentPeriodEnd: '2026-12-22T10:00:00.000Z',
        cancelAtPeriodEnd: false,
      },
    );
    // A completed page cannot be paid twice.
    assert.equal((await page('POST', `${body.checkoutUrl}/complete`)).status, 409);
  });

  it('credit purchase: the quantity chosen on the page (at least 5 million) becomes credits', async () => {
    const caller = await api.newOrganization();
    const { body } = await api.request('POST', '/api/v1/billing/credits/purchase', {
      as: caller,
      json: { priceId: PRICES.creditsPrice, ...URLS },
    });
    const shown = await page('GET', body.checkoutUrl);
    assert.match(shown.text, /name="millions" min="5" max="10000" step="1" value="5"/);
    const paid = await page('POST', `${body.checkoutUrl}/complete`, { millions: '12' });
    assert.equal(paid.location, URLS.successUrl);
    assert.deepEqual(await get(caller, 'credits/balance'), { creditsRemaining: 12_000_000, creditsUsed: 0, totalSpent: 12 });
  });

  it('credit purchase: the page refuses a missing quantity or an unknown field (400), the checkout still open', async () => {
    const caller = await api.newOrganization();
    const { body } = await api.request('POST', '/api/v1/billing/credits/purchase', {
      as: caller,
      json: { priceId: PRICES.creditsPrice, ...URLS },
    });
    const missing = await page('POST', `${body.checkoutUrl}/complete`);
    assert.equal(missing.status, 400);
    assert.match(missing.text, /whole number of millions from 5 to 10,000/);
    const unknown = await page('POST', `${body.checkoutUrl}/complete`, { millions: '6', discount: '100' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.text, /Unknown field &quot;discount&quot;|Unknown field "discount"/);
    assert.deepEqual(await get(caller, 'credits/balance'), { creditsRemaining: 0, creditsUsed: 0, totalSpent: 0 });
    assert.equal((await page('POST', `${body.checkoutUrl}/complete`, { millions: '6' })).status, 303);
  });

  it("subscription checkout: the page shows the plan's price and what it gives", async () => {
    const caller = await api.newOrganization();
    const { body } = await api.request('POST', '/api/v1/billing/checkout', { as: caller, json: { priceId: PRICES.SUBSCRIPTION, ...URLS } });
    const shown = (await page('GET', body.checkoutUrl)).text;
    assert.match(shown, /Professional/);
    assert.match(shown, /€49\.00 a month/);
    assert.match(shown, /<li>100,000 mappings per day<\/li>/);
  });

  it("credit purchase: the page takes only what Stripe's adjustable quantity would (digits, 5 to 10,000); else 400, checkout still open", async () => {
    const caller = await api.newOrganization();
    const { body } = await api.request('POST', '/api/v1/billing/credits/purchase', {
      as: caller,
      json: { priceId: PRICES.creditsPrice, ...URLS },
    });
    for (const millions of ['1e9', '99999999999999999999', '4', '0', '10001', '5.5', '-5', '+5', ' 5', '', '0x10', '١٢']) {
      const refused = await page('POST', `${body.checkoutUrl}/complete`, { millions });
      assert.equal(refused.status, 400, `millions=${JSON.stringify(millions)}`);
      assert.match(refused.text, /whole number of millions from 5 to 10,000/);
    }
    assert.deepEqual(await get(caller, 'credits/balance'), { creditsRemaining: 0, creditsUsed: 0, totalSpent: 0 });
    // The page's field says the same; the largest purchase goes through, the checkout was left open for it.
    assert.match((await page('GET', body.checkoutUrl)).text, /name="millions" min="5" max="10000" step="1"/);
    const paid = await page('POST', `${body.checkoutUrl}/complete`, { millions: '10000' });
    assert.equal(paid.status, 303);
    assert.deepEqual(await get(caller, 'credits/balance'), { creditsRemaining: 10_000_000_000, creditsUsed: 0, totalSpent: 10_000 });
  });

  it('cancelling a checkout returns to cancelUrl and changes nothing', async () => {
    const caller = await api.newOrganization();
    const { body } = await api.request('POST', '/api/v1/billing/credits/purchase', {
      as: caller,
      json: { priceId: PRICES.creditsPrice, ...URLS },
    });
    const cancelled = await page('POST', `${body.checkoutUrl}/cancel`);
    assert.equal(cancelled.status, 303);
    assert.equal(cancelled.location, URLS.cancelUrl);
    assert.equal((await page('POST', `${body.checkoutUrl}/complete`)).status, 409);
    assert.equal((await get(caller, 'credits/balance')).creditsRemaining, 0);
    assert.equal((await page('GET', `${api.baseUrl}/local-payments/checkout/cs_local_unknown`)).status, 404);
  });

  it('portal: cancel at period end, keep, then cancel now (back to FREE)', async () => {
    const caller = await api.newOrganization();
    const checkout = (await api.request('POST', '/api/v1/billing/checkout', { as: caller, json: { priceId: PRICES.ENTERPRISE, ...URLS } }))
      .body;
    await page('POST', `${checkout.checkoutUrl}/complete`);
    assert.equal((await get(caller, 'quota/status')).planType, 'ENTERPRISE');

    const { status, body } = await api.request('POST', '/api/v1/billing/portal', {
      as: caller,
      json: { returnUrl: 'https://partner.test/account' },
    });
    assert.equal(status, 200);
    assert.ok(body.portalUrl.startsWith(`${api.baseUrl}/local-payments/portal/`));
    assert.match((await page('GET', body.portalUrl)).text, /Cancel at period end/);

    api.clock.advance(1_000);
    assert.equal((await page('POST', `${body.portalUrl}/cancel_at_period_end`)).status, 303);
    assert.equal((await get(caller, 'subscription')).cancelAtPeriodEnd, true);
    api.clock.advance(1_000);
    await page('POST', `${body.portalUrl}/resume`);
    assert.equal((await get(caller, 'subscription')).cancelAtPeriodEnd, false);
    api.clock.advance(1_000);
    await page('POST', `${body.portalUrl}/cancel_now`);
    assert.equal((await get(caller, 'subscription')).status, 'canceled');
    assert.equal((await get(caller, 'quota/status')).planType, 'FREE');
  });

  it('a second subscription checkout while one is live answers 409 (change plans in the portal) and changes nothing', async () => {
    const caller = await api.newOrganization();
    const enterprise = (
      await api.request('POST', '/api/v1/billing/checkout', { as: caller, json: { priceId: PRICES.ENTERPRISE, ...URLS } })
    ).body;
    assert.equal((await page('POST', `${enterprise.checkoutUrl}/complete`)).status, 303);
    const first = await get(caller, 'subscription');

    for (const priceId of [PRICES.SUBSCRIPTION, PRICES.ENTERPRISE]) {
      const second = await api.request('POST', '/api/v1/billing/checkout', { as: caller, json: { priceId, ...URLS } });
      assert.equal(second.status, 409, priceId);
      assert.deepEqual(Object.keys(second.body).sort(), ['error', 'message']);
      assert.equal(second.body.error, 'Conflict');
      assert.match(second.body.message, /already has a live ENTERPRISE subscription/);
      assert.match(second.body.message, /POST \/api\/v1\/billing\/portal/);
    }
    assert.deepEqual(await get(caller, 'subscription'), first);
    assert.equal((await get(caller, 'quota/status')).planType, 'ENTERPRISE');

    // Once it has ended, subscribing again is allowed.
    const { body: portal } = await api.request('POST', '/api/v1/billing/portal', {
      as: caller,
      json: { returnUrl: 'https://partner.test/account' },
    });
    api.clock.advance(1_000);
    await page('POST', `${portal.portalUrl}/cancel_now`);
    assert.equal((await get(caller, 'quota/status')).planType, 'FREE');
    const again = await api.request('POST', '/api/v1/billing/checkout', { as: caller, json: { priceId: PRICES.SUBSCRIPTION, ...URLS } });
    assert.equal(again.status, 200);
  });

  it('a checkout page opened before the first subscription was paid refuses to pay for a second one', async () => {
    const caller = await api.newOrganization();
    const json = (priceId: string) => ({ priceId, ...URLS });
    const enterprise = (await api.request('POST', '/api/v1/billing/checkout', { as: caller, json: json(PRICES.ENTERPRISE) })).body;
    const professional = (await api.request('POST', '/api/v1/billing/checkout', { as: caller, json: json(PRICES.SUBSCRIPTION) })).body;
    assert.equal((await page('POST', `${enterprise.checkoutUrl}/complete`)).status, 303);

    const refused = await page('POST', `${professional.checkoutUrl}/complete`);
    assert.equal(refused.status, 409);
    assert.match(refused.text, /already has a live subscription/);
    assert.match(refused.text, /portal/);
    assert.equal((await get(caller, 'quota/status')).planType, 'ENTERPRISE');

    // The portal shows the one subscription; cancelling it leaves no other one billing.
    const { body: portal } = await api.request('POST', '/api/v1/billing/portal', {
      as: caller,
      json: { returnUrl: 'https://partner.test/account' },
    });
    assert.match((await page('GET', portal.portalUrl)).text, /ENTERPRISE, active/);
    api.clock.advance(1_000);
    await page('POST', `${portal.portalUrl}/cancel_now`);
    assert.equal((await get(caller, 'quota/status')).planType, 'FREE');
    assert.match((await page('GET', portal.portalUrl)).text, /No active subscription/);
  });

  it('keeps its customers, subscriptions and open checkouts in the table: a restarted runtime still knows them', async () => {
    const caller = await api.newOrganization();
    const subscription = (
      await api.request('POST', '/api/v1/billing/checkout', { as: caller, json: { priceId: PRICES.SUBSCRIPTION, ...URLS } })
    ).body;
    await page('POST', `${subscription.checkoutUrl}/complete`);
    const credits = (
      await api.request('POST', '/api/v1/billing/credits/purchase', { as: caller, json: { priceId: PRICES.creditsPrice, ...URLS } })
    ).body;
    const before = await get(caller, 'subscription');

    // A second runtime over the same table: what `npm start` is after a restart.
    const restarted = await restartedApi();
    const getAfter = async (path: string) => (await restarted.request('GET', `/api/v1/billing/${path}`, { as: caller })).body;
    assert.deepEqual(await getAfter('subscription'), before);
    const checkoutPath = new URL(credits.checkoutUrl).pathname;
    assert.equal((await page('POST', `${restarted.baseUrl}${checkoutPath}/complete`, { millions: '6' })).status, 303);
    assert.equal((await getAfter('credits/balance')).creditsRemaining, 6_000_000);

    const { body: portal } = await restarted.request('POST', '/api/v1/billing/portal', {
      as: caller,
      json: { returnUrl: 'https://partner.test/account' },
    });
    assert.match((await page('GET', portal.portalUrl)).text, new RegExp(`${before.id}</code>: SUBSCRIPTION, active`));
    api.clock.advance(1_000);
    assert.equal((await page('POST', `${portal.portalUrl}/cancel_now`)).status, 303);
    assert.equal((await getAfter('subscription')).status, 'canceled');
    assert.equal((await getAfter('quota/status')).planType, 'FREE');
    // The first runtime reads the provider's state from the same table: it sees the cancellation too.
    assert.equal((await get(caller, 'subscription')).status, 'canceled');
  });

  it("one organization's checkout never changes another's plan, credits or subscription", async () => {
    const buyer = await api.newOrganization();
    const bystander = await api.newOrganization();
    const subscription = (
      await api.request('POST', '/api/v1/billing/checkout', { as: buyer, json: { priceId: PRICES.SUBSCRIPTION, ...URLS } })
    ).body;
    await page('POST', `${subscription.checkoutUrl}/complete`);
    const credits = (
      await api.request('POST', '/api/v1/billing/credits/purchase', { as: buyer, json: { priceId: PRICES.creditsPrice, ...URLS } })
    ).body;
    await page('POST', `${credits.checkoutUrl}/complete`, { millions: '6' });

    assert.equal((await get(bystander, 'quota/status')).planType, 'FREE');
    assert.equal((await get(bystander, 'credits/balance')).creditsRemaining, 0);
    assert.equal((await api.request('GET', '/api/v1/billing/subscription', { as: bystander })).text, 'null');
    assert.notEqual(
      (await billingStoreOf(api.runtime).account(bystander.organization.id)).customerId,
      (await billingStoreOf(api.runtime).account(buyer.organization.id)).customerId,
    );
  });
});
