/**
 * Which payment provider the service uses, from configuration:
 * - STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET set: Stripe, with those keys;
 * - STRIPE_API_KEY_SECRET_ARN and/or STRIPE_WEBHOOK_SECRET_ARN set (AWS): Stripe, with keys read
 *   from Secrets Manager once per container. The two are apart so that the public webhook function
 *   never holds the secret API key, which can charge and refund: it verifies deliveries with the
 *   signing secret and reads back sessions and subscriptions with a read-only restricted key;
 * - none: the local provider, whose pages the local runtime serves.
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

/** The payment settings' environment variables (the stack sets the two secret ARNs; tests give the keys directly). */
export const PAYMENT_SETTINGS = defineSettings({
  /** Stripe keys given directly; without both (and without a secret ARN) the local payment provider is used. */
  stripeSecretKey: 'STRIPE_SECRET_KEY',
  stripeWebhookSecret: 'STRIPE_WEBHOOK_SECRET',
  /** Secrets Manager ARN holding {"secretKey": "sk_…"}: the functions that charge (AWS). */
  stripeApiKeySecretArn: 'STRIPE_API_KEY_SECRET_ARN',
  /** Secrets Manager ARN holding {"signingSecret": "whsec_…", "readKey": "rk_…"}: the webhook function (AWS). */
  stripeWebhookSecretArn: 'STRIPE_WEBHOOK_SECRET_ARN',
  /** Another Stripe API address (tests, stripe-mock); unset = api.stripe.com. */
  stripeApiUrl: 'STRIPE_API_URL',
});

/** What a secret the stack creates holds until the platform team stores the real keys. */
export const UNSET_STRIPE_KEY = 'not-set';

/** The shapes of the two secrets, with the prefix each Stripe key starts with. */
export const STRIPE_SECRET_SHAPES = {
  apiKey: { secretKey: 'sk_' },
  webhook: { signingSecret: 'whsec_', readKey: 'rk_' },
} as const;

type PaymentConfig = ReturnType<typeof PAYMENT_SETTINGS.read> & {
  region: string;
  priceIds: ProviderPriceIds;
};

interface StripeKeySources {
  /** The secret API key: checkouts, the portal, subscriptions. */
  apiKey: () => Promise<string>;
  /** What verifies an event delivery. */
  signingSecret: () => Promise<string>;
  /** A key that reads back what a delivery names (its session, its subscription). */
  readKey: () => Promise<string>;
}

/** `localStore` opens the local provider's records; only the local provider uses it. */
export function createPayments(config: PaymentConfig, clock: Clock, localStore: () => LocalPaymentStore): Payments {
  const keys = stripeKeySources(config);
  if (!keys) {
    const local = new LocalPaymentProvider(clock, localStore);
    return { provider: local, events: new StripeEventReader(async () => local.webhookSecret, config.priceIds, local), local };
  }
  const clientWith = (key: () => Promise<string>) => {
    let client: Promise<Stripe> | undefined;
    return () => (client ??= key().then((value) => createStripeClient(value, apiAddress(config.stripeApiUrl))));
  };
  return {
    provider: new StripePaymentProvider(clientWith(keys.apiKey), config.priceIds),
    events: new StripeEventReader(
      keys.signingSecret,
      config.priceIds,
      new StripePaymentProvider(clientWith(keys.readKey), config.priceIds),
    ),
  };
}

function stripeKeySources(config: PaymentConfig): StripeKeySources | undefined {
  const { stripeSecretKey, stripeWebhookSecret, stripeApiKeySecretArn, stripeWebhookSecretArn, region } = config;
  if (stripeSecretKey && stripeWebhookSecret) {
    return { apiKey: async () => stripeSecretKey, signingSecret: async () => stripeWebhookSecret, readKey: async () => stripeSecretKey };
  }
  if (!stripeApiKeySecretArn && !stripeWebhookSecretArn) return undefined;
  const apiKey = secretReader(stripeApiKeySecretArn, 'apiKey', region);
  const webhook = secretReader(stripeWebhookSecretArn, 'webhook', region);
  return {
    apiKey: async () => (await apiKey()).secretKey,
    signingSecret: async () => (await webhook()).signingSecret,
    readKey: async () => (await webhook()).readKey,
  };
}

type SecretShape = keyof typeof STRIPE_SECRET_SHAPES;
type SecretOf<S extends SecretShape> = Record<keyof (typeof STRIPE_SECRET_SHAPES)[S], string>;

/** Reads one of the secrets once per container (again after a failure), checked against its shape. */
function secretReader<S extends SecretShape>(secretArn: string | undefined, shape: S, region: string): () => Promise<SecretOf<S>> {
  let cached: Promise<SecretOf<S>> | undefined;
  return () => {
    if (!secretArn)
      return Promise.reject(new Error(`This function holds no Stripe ${shape} secret: its route declares other payment keys.`));
    return (cached ??= readStripeSecret(secretArn, shape, region).catch((error: unknown) => {
      cached = undefined;
      throw error;
    }));
  };
}

async function readStripeSecret<S extends SecretShape>(secretArn: string, shape: S, region: string): Promise<SecretOf<S>> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const { SecretString } = await traced(new SecretsManagerClient({ region })).send(new GetSecretValueCommand({ SecretId: secretArn }));
  return parseStripeSecret(SecretString, shape, secretArn);
}

/**
 * The secret's keys, each starting as Stripe's keys of that kind do; a secret still holding the
 * stack's placeholder, or of another shape, is refused with what to store, never echoing its content.
 */
export function parseStripeSecret<S extends SecretShape>(text: string | undefined, shape: S, secretArn: string): SecretOf<S> {
  const prefixes: Record<string, string> = STRIPE_SECRET_SHAPES[shape];
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text ?? '{}') as Record<string, unknown>;
  } catch {
    // reported below
  }
  const keys = Object.entries(prefixes).map(([name, prefix]) => [name, parsed[name], prefix] as const);
  if (keys.some(([, value, prefix]) => typeof value !== 'string' || !value.startsWith(prefix))) {
    const expected = JSON.stringify(Object.fromEntries(keys.map(([name, , prefix]) => [name, `${prefix}…`])));
    const unset = keys.every(([, value]) => value === UNSET_STRIPE_KEY);
    throw new PaymentsNotConfigured(
      `${unset ? 'Stripe is not set up yet' : 'The Stripe secret has another shape'}: store ${expected} in ${secretArn} (operator's guide, The payment provider).`,
    );
  }
  return Object.fromEntries(keys.map(([name, value]) => [name, value])) as SecretOf<S>;
}

/** The stage's Stripe keys are not stored yet (or not as the code reads them): an operator's task, told in the log. */
export class PaymentsNotConfigured extends Error {
  override readonly name = 'PaymentsNotConfigured';
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
