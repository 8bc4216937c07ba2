/**
 * THE route table: every endpoint of the API, once, gathered from each capability's routes.ts.
 * The CDK stack builds API Gateway and one Lambda function per route from it, the local runtime
 * dispatches from it, and the OpenAPI document is generated from it. Adding an endpoint means
 * adding it to its capability's routes and writing its function file under functions/.
 */
import type { AnySchema, RouteDefinition } from './platform/http/route';
import { ErrorResponse } from './platform/http/schemas';
import { apiKeyRoutes } from './api-keys';
import { billingComponentSchemas, billingRoutes } from './billing';
import { consoleRoutes } from './console';
import { docsRoutes } from './docs';
import { exportFormatRoutes } from './export-format';
import { fileDeliveryRoutes } from './file-deliveries';
import { mappingBookComponentSchemas, mappingBookRoutes } from './mapping-book';
import { mappingJobComponentSchemas, mappingJobRoutes } from './mapping-jobs';
import { partnerInventoryComponentSchemas, partnerInventoryRoutes } from './partner-inventories';
import { referenceComponentSchemas, referenceRoutes } from './reference';
import { supplierRoutes } from './suppliers';
import { legacyWebhookRoutes, subscriptionRoutes, WEBHOOK_VERIFICATION, webhookComponentSchemas } from './webhooks';

export const routes = {
  ...apiKeyRoutes,
  ...supplierRoutes,
  ...exportFormatRoutes,
  ...partnerInventoryRoutes,
  ...mappingJobRoutes,
  ...mappingBookRoutes,
  ...referenceRoutes,
  ...subscriptionRoutes,
  ...legacyWebhookRoutes,
  ...fileDeliveryRoutes,
  ...billingRoutes,
  ...docsRoutes,
  ...consoleRoutes,
} satisfies Record<string, RouteDefinition>;

/**
 * The shapes the document names once and references everywhere (components.schemas): the error
 * body and each capability's own.
 */
export const componentSchemas: Readonly<Record<string, AnySchema>> = {
  Error: ErrorResponse,
  ...partnerInventoryComponentSchemas,
  ...mappingJobComponentSchemas,
  ...mappingBookComponentSchemas,
  ...referenceComponentSchemas,
  ...webhookComponentSchemas,
  ...billingComponentSchemas,
};

/** What each group of operations is for, as the reference shows it (every route's tag is here). */
export const tagDescriptions: Readonly<Record<string, string>> = {
  Authentication: 'API keys (`X-API-Key`) and the bearer tokens issued for them; keys are managed per organization.',
  Suppliers: 'The supplier catalogue, the suppliers an organization connects (its plan sets how many), and requests for new ones.',
  'Export format': "The organization's one configuration for mapping result files: format, fields, delimiter, header, compression.",
  'Partner inventories':
    'Hotel files a partner uploads, validated row by row: directly (up to 4 MiB) or through a presigned upload (up to 200 MB).',
  Mapping:
    'Mapping jobs: an inventory mapped to the reference in chunks; results with evidence and candidates, reviews, exports, cancelling.',
  'Mapping book':
    "The organization's living mapping: one entry per partner hotel of each source, written by every completed job, kept by people's decisions, " +
    'with a change feed of NEW, UPDATED and DELETED entries to follow from a position.',
  'Reference inventory': 'The canonical hotel inventory every partner hotel is mapped to: search, statistics, download.',
  'Duplicate reports': 'Reports of two reference hotels that are one; the back office merges or rejects them.',
  'Webhook subscriptions': 'Signed, retried event deliveries (Standard Webhooks) with a delivery history, test events and redelivery.',
  'Export webhooks (deprecated)':
    'The earlier unsigned `mapping.completed` call, one attempt, no history; use webhook subscriptions instead.',
  'Delivery destinations':
    "Partners' own S3 buckets, S3-compatible stores and SFTP servers, where every completed job's export file is written, with a connection test and a delivery history.",
  Billing: 'Plans, hosted checkout and portal pages, prepaid credits, quota, usage and monthly metrics.',
  Documentation: 'This document and the reference page over it.',
  'Webhook events': WEBHOOK_VERIFICATION,
};

export type RouteId = keyof typeof routes;
export const routeList: readonly RouteDefinition[] = Object.values(routes);
