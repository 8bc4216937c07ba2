/**
 * Everything a handler needs, built once per Lambda container from the configuration. The local
 * runtime and the tests build the same thing over the stand-ins, with their own clock.
 */
import { randomUUID } from 'node:crypto';
import { Authenticator } from '../auth/authenticate';
import { BearerTokens } from '../auth/bearer-tokens';
import { signingSecretSource } from '../auth/signing-secret';
import type { AppConfig } from '../config';
import { systemClock, type Clock } from '../domain/clock';
import type { ObjectStore } from '../objects/object-store';
import { createS3Client, S3ObjectStore } from '../objects/s3-object-store';
import { ApiKeyStore } from '../storage/api-keys';
import { ExportFormatStore } from '../storage/export-formats';
import { OrganizationStore } from '../storage/organizations';
import { RateLimitStore } from '../storage/rate-limits';
import { ReferenceStore } from '../storage/reference';
import { EventOutbox } from '../storage/events';
import { PublishedReference } from '../reference/published-reference';
import { SupplierStore } from '../storage/suppliers';
import { createTable, type Table } from '../storage/table';
import { LOCAL_PRICE_IDS } from '../billing/catalogue';
import { Metering } from '../billing/metering';
import { BillingStore } from '../storage/billing';
import { createPayments, type Payments } from '../payments/payments';

export interface Dependencies {
  config: AppConfig;
  clock: Clock;
  table: Table;
  objects: ObjectStore;
  organizations: OrganizationStore;
  apiKeys: ApiKeyStore;
  tokens: BearerTokens;
  authenticator: Authenticator;
  suppliers: SupplierStore;
  rateLimits: RateLimitStore;
  exportFormats: ExportFormatStore;
  reference: ReferenceStore;
  /** The current publication's index and statistics, kept warm per container. */
  publishedReference: PublishedReference;
  events: EventOutbox;
  /** Credits, subscription state and usage counters. */
  billing: BillingStore;
  /** The payment provider (Stripe, or the local one) and its webhook event reader. */
  payments: Payments;
  /** Reserves and settles mapping jobs' usage against allowance and credits. */
  metering: Metering;
}

export function createDependencies(config: AppConfig, options: { clock?: Clock } = {}): Dependencies {
  const table = createTable(config);
  const apiKeys = new ApiKeyStore(table);
  const tokens = new BearerTokens(signingSecretSource(config));
  const objects = new S3ObjectStore(createS3Client(config), config.bucketName);
  const reference = new ReferenceStore(table);
  const clock = options.clock ?? systemClock;
  const organizations = new OrganizationStore(table);
  const billing = new BillingStore(table, clock);
  return {
    config,
    clock,
    table,
    objects,
    organizations,
    apiKeys,
    tokens,
    authenticator: new Authenticator(apiKeys, tokens),
    suppliers: new SupplierStore(table),
    rateLimits: new RateLimitStore(table),
    exportFormats: new ExportFormatStore(table),
    reference,
    publishedReference: new PublishedReference(reference, objects),
    events: new EventOutbox(table),
    billing,
    payments: createPayments({ ...config, priceIds: config.priceIds ?? LOCAL_PRICE_IDS }, clock),
    metering: new Metering(billing, { planOf: async (id) => (await organizations.require(id)).planType }, clock),
  };
}

/** The ports the reference publication and duplicate rules work through. */
export function referencePorts(deps: Dependencies) {
  return { store: deps.reference, objects: deps.objects, clock: deps.clock, events: deps.events, newId: randomUUID };
}

/** The ports the billing use cases work through. */
export function billingPorts(deps: Dependencies) {
  return { ledger: deps.billing, provider: deps.payments.provider, priceIds: deps.config.priceIds ?? LOCAL_PRICE_IDS };
}
