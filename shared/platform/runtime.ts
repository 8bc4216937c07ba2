/**
 * What every handler needs, built once per Lambda container from the configuration: the clock,
 * the table and its stores, authentication. The local runtime and the tests build the same thing
 * over the stand-ins, with their own clock.
 *
 * Heavier parts only some functions use (the S3 client, the reference index, the Stripe SDK)
 * are extensions (shared/runtime/objects.ts, reference.ts, payments.ts): only the handlers that
 * import them bundle them, which keeps the other functions' bundles and cold starts small.
 */
import { Authenticator } from './auth/authenticate';
import { BearerTokens } from './auth/bearer-tokens';
import { signingSecretSource } from './auth/signing-secret';
import { Metering } from '../billing/metering';
import type { AppConfig } from './config';
import { systemClock, type Clock } from './clock';
import { ApiKeyStore } from './auth/api-key-store';
import { BillingStore } from '../billing/store';
import { EventOutbox } from './events/outbox';
import { ExportFormatStore } from '../export-format/store';
import { OrganizationStore } from '../organizations/store';
import { RateLimitStore } from '../suppliers/rate-limits';
import { SupplierStore } from '../suppliers/store';
import { createTable, type Table } from './table';

export interface Dependencies {
  config: AppConfig;
  clock: Clock;
  table: Table;
  organizations: OrganizationStore;
  apiKeys: ApiKeyStore;
  tokens: BearerTokens;
  authenticator: Authenticator;
  suppliers: SupplierStore;
  rateLimits: RateLimitStore;
  exportFormats: ExportFormatStore;
  /** Events for webhook subscriptions, kept in an outbox until delivered. */
  events: EventOutbox;
  /** Credits, subscription state and usage counters. */
  billing: BillingStore;
  /** Reserves and settles mapping jobs' usage against allowance and credits. */
  metering: Metering;
}

export function createDependencies(config: AppConfig, options: { clock?: Clock } = {}): Dependencies {
  const table = createTable(config);
  const clock = options.clock ?? systemClock;
  const apiKeys = new ApiKeyStore(table);
  const tokens = new BearerTokens(signingSecretSource(config));
  const organizations = new OrganizationStore(table);
  const billing = new BillingStore(table);
  return {
    config,
    clock,
    table,
    organizations,
    apiKeys,
    tokens,
    authenticator: new Authenticator(apiKeys, tokens),
    suppliers: new SupplierStore(table),
    rateLimits: new RateLimitStore(table),
    exportFormats: new ExportFormatStore(table),
    events: new EventOutbox(table),
    billing,
    metering: new Metering(billing, { planOf: async (id) => (await organizations.require(id)).planType }, clock),
  };
}

/**
 * An extension of the dependencies, built on first use and then kept with them (so once per
 * Lambda container, and once per local API or test).
 */
export function extension<T>(build: (deps: Dependencies) => T): (deps: Dependencies) => T {
  const built = new WeakMap<Dependencies, T>();
  return (deps) => {
    if (!built.has(deps)) built.set(deps, build(deps));
    return built.get(deps)!;
  };
}
