/**
 * Where each function's Stripe keys come from in AWS: two secrets, read once per container, so that
 * the public webhook function verifies deliveries without ever holding the secret API key; and a
 * secret still holding the stack's placeholders says what to store, never what it holds.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from '@jest/globals';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import Stripe from 'stripe';
import { LOCAL_PRICE_IDS } from '../../../shared/billing';
import { createPayments, parseStripeSecret, PaymentsNotConfigured, UNSET_STRIPE_KEY } from '../../../shared/billing/payments/payments';
import { ManualClock } from '../../../shared/platform/clock';

const secrets = mockClient(SecretsManagerClient);
beforeEach(() => {
  secrets.reset();
});

const API_KEY_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:stripe-api-key';
const WEBHOOK_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:stripe-webhook';
const SIGNING_SECRET = 'whsec_test_signing';
const noLocalStore = () => {
  throw new Error('Stripe is configured: the local store is never opened');
};

describe('the two Stripe secrets', () => {
  it('gives the webhook function what verifies deliveries, and no API key: it reads only its own secret', async () => {
    secrets
      .on(GetSecretValueCommand, { SecretId: WEBHOOK_ARN })
      .resolves({ SecretString: JSON.stringify({ signingSecret: SIGNING_SECRET, readKey: 'rk_test_read' }) });
    const clock = new ManualClock(new Date('2026-11-27T10:00:00Z'));
    const payments = createPayments(
      { stripeWebhookSecretArn: WEBHOOK_ARN, region: 'eu-west-1', priceIds: LOCAL_PRICE_IDS },
      clock,
      noLocalStore,
    );

    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'customer.created',
      created: 1_795_000_000,
      data: { object: {} },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: SIGNING_SECRET,
      timestamp: Math.floor(clock.now().getTime() / 1000),
    });
    assert.deepEqual(await payments.events.read(payload, signature, clock.now()), { ignored: 'customer.created' });
    await assert.rejects(payments.events.read(payload, 'v1=forged', clock.now()), /does not verify/);

    await assert.rejects(
      payments.provider.createPortal({ customerId: 'cus_1', returnUrl: 'https://example.com' }),
      /holds no Stripe apiKey secret/,
    );
    assert.deepEqual(
      secrets.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input.SecretId),
      [WEBHOOK_ARN],
      'read once, and never the API key',
    );
  });

  it('reads each secret once per container, and again after a failure', async () => {
    secrets
      .on(GetSecretValueCommand)
      .rejectsOnce(new Error('throttled'))
      .resolves({ SecretString: JSON.stringify({ signingSecret: SIGNING_SECRET, readKey: 'rk_test_read' }) });
    const clock = new ManualClock(new Date('2026-11-27T10:00:00Z'));
    const payments = createPayments(
      { stripeWebhookSecretArn: WEBHOOK_ARN, region: 'eu-west-1', priceIds: LOCAL_PRICE_IDS },
      clock,
      noLocalStore,
    );
    const payload = JSON.stringify({
      id: 'evt_2',
      object: 'event',
      type: 'customer.created',
      created: 1_795_000_000,
      data: { object: {} },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: SIGNING_SECRET,
      timestamp: Math.floor(clock.now().getTime() / 1000),
    });
    await assert.rejects(payments.events.read(payload, signature, clock.now()), /throttled/);
    for (let delivery = 0; delivery < 3; delivery++)
      assert.deepEqual(await payments.events.read(payload, signature, clock.now()), { ignored: 'customer.created' });
    assert.equal(secrets.commandCalls(GetSecretValueCommand).length, 2);
  });
});

describe('a Stripe secret as the stack creates it, or of another shape', () => {
  it('still holding the placeholders: says Stripe is not set up and what to store where', () => {
    const placeholder = JSON.stringify({ secretKey: UNSET_STRIPE_KEY });
    assert.throws(
      () => parseStripeSecret(placeholder, 'apiKey', API_KEY_ARN),
      (error: unknown) =>
        error instanceof PaymentsNotConfigured &&
        error.message ===
          `Stripe is not set up yet: store {"secretKey":"sk_…"} in ${API_KEY_ARN} (operator's guide, The payment provider).`,
    );
    assert.throws(
      () => parseStripeSecret(JSON.stringify({ signingSecret: UNSET_STRIPE_KEY, readKey: UNSET_STRIPE_KEY }), 'webhook', WEBHOOK_ARN),
      /Stripe is not set up yet: store \{"signingSecret":"whsec_…","readKey":"rk_…"\}/,
    );
  });

  it('of another shape (a publishable key, a key missing, not JSON): says what to store, never what it holds', () => {
    for (const text of [
      JSON.stringify({ secretKey: 'pk_live_visible' }),
      JSON.stringify({ signingSecret: 'whsec_live_visible' }),
      'sk_live_visible',
      undefined,
    ]) {
      assert.throws(
        () => parseStripeSecret(text, text?.includes('whsec') ? 'webhook' : 'apiKey', API_KEY_ARN),
        (error: unknown) =>
          error instanceof PaymentsNotConfigured &&
          /^The Stripe secret has another shape: store/.test(error.message) &&
          !error.message.includes('visible'),
      );
    }
  });

  it('filled in: its keys', () => {
    assert.deepEqual(parseStripeSecret(JSON.stringify({ secretKey: 'sk_live_1' }), 'apiKey', API_KEY_ARN), { secretKey: 'sk_live_1' });
    assert.deepEqual(
      parseStripeSecret(JSON.stringify({ signingSecret: 'whsec_1', readKey: 'rk_live_1', note: 'ignored' }), 'webhook', WEBHOOK_ARN),
      {
        signingSecret: 'whsec_1',
        readKey: 'rk_live_1',
      },
    );
  });
});
