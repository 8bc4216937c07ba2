/**
 * Which payment provider the service uses, from configuration:
 * - STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET set: Stripe, with those keys;
 * - PAYMENT_SECRET_ARN set (AWS): Stripe, with the keys read from Secrets Manager once per container;
 * - neither: the local provider, whose pages the local runtime serves.
 */
import type Stripe from 'stripe';
import type { ProviderPriceIds } from '../catalogue';
import type { PaymentEventReader, PaymentProvider } from '../model';
import { defineSettings } from '../../platform/config';
import type { Clock } from '../../platform/clock';
import { LocalPaymentProvider } from './local-provider';
import type { LocalPaymentStore } from './local-store';
import { StripeEventReader } from './stripe-events';
import { createStripeClient, StripePaymentProvider, type StripeApiAddress } from './stripe-provider';
import { traced } from '../../platform/tracing';

export interface Payments {
  provider: PaymentProvider;
  events: PaymentEventReader;
  /** Set when the local provider is in use (the local runtime serves its pages). */
  local?: LocalPaymentProvider;
}

export interface StripeKeys {
  secretKey: string;
  webhookSecret: string;
}

/** The payment settings' environment variables (the stack sets PAYMENT_SECRET_ARN; tests give the keys directly). */
export const PAYMENT_SETTINGS = defineSettings({
  /** Stripe keys given directly; without both (and without paymentSecretArn) the local payment provider is used. */
  stripeSecretKey: 'STRIPE_SECRET_KEY',
  stripeWebhookSecret: 'STRIPE_WEBHOOK_SECRET',
  /** Secrets Manager ARN holding the Stripe keys as JSON {secretKey, webhookSecret} (AWS). */
  paymentSecretArn: 'PAYMENT_SECRET_ARN',
  /** Another Stripe API address (tests, stripe-mock); unset = api.stripe.com. */
  stripeApiUrl: 'STRIPE_API_URL',
});

type PaymentConfig = ReturnType<typeof PAYMENT_SETTINGS.read> & {
  region: string;
  priceIds: ProviderPriceIds;
};

/** `localStore` opens the local provider's records; only the local provider uses it. */
export function createPayments(config: PaymentConfig, clock: Clock, localStore: () => LocalPaymentStore): Payments {
  const keys = stripeKeysSource(config);
  if (!keys) {
    const local = new LocalPaymentProvider(clock, localStore);
    return { provider: local, events: new StripeEventReader(async () => local.webhookSecret, config.priceIds, local), local };
  }
  let client: Promise<Stripe> | undefined;
  const stripe = () => (client ??= keys().then(({ secretKey }) => createStripeClient(secretKey, apiAddress(config.stripeApiUrl))));
  const provider = new StripePaymentProvider(stripe, config.priceIds);
  return {
    provider,
    events: new StripeEventReader(async () => (await keys()).webhookSecret, config.priceIds, provider),
  };
}

function stripeKeysSource(config: PaymentConfig): (() => Promise<StripeKeys>) | undefined {
  const { stripeSecretKey, stripeWebhookSecret, paymentSecretArn, region } = config;
  if (stripeSecretKey && stripeWebhookSecret) {
    return async () => ({ secretKey: stripeSecretKey, webhookSecret: stripeWebhookSecret });
  }
  if (!paymentSecretArn) return undefined;
  let cached: Promise<StripeKeys> | undefined;
  return () =>
    (cached ??= readStripeKeys(paymentSecretArn, region).catch((error: unknown) => {
      cached = undefined; // retry on the next request rather than failing the container forever
      throw error;
    }));
}

/** The secret holds JSON: {"secretKey": "sk_…", "webhookSecret": "whsec_…"} (README, Billing). */
async function readStripeKeys(secretArn: string, region: string): Promise<StripeKeys> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const { SecretString } = await traced(new SecretsManagerClient({ region })).send(new GetSecretValueCommand({ SecretId: secretArn }));
  let parsed: Partial<StripeKeys> = {};
  try {
    parsed = JSON.parse(SecretString ?? '{}') as Partial<StripeKeys>;
  } catch {
    // reported below without echoing the secret's content
  }
  if (!parsed.secretKey || !parsed.webhookSecret) {
    throw new Error('The payment secret must be JSON with "secretKey" and "webhookSecret" (see README, Billing).');
  }
  return { secretKey: parsed.secretKey, webhookSecret: parsed.webhookSecret };
}

function apiAddress(url: string | undefined): StripeApiAddress | undefined {
  if (!url) return undefined;
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { host: parsed.hostname, port: Number(parsed.port || (protocol === 'http' ? 80 : 443)), protocol };
}

/** Stripe's pages are absolute URLs; the local provider's are paths on the API's own host. */
export function hostedPageUrl(url: string, apiBaseUrl: string): string {
  return new URL(url, apiBaseUrl).href;
}
