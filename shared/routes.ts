/**
 * THE route table: every endpoint of the API, once, gathered from one module per capability
 * under route-groups/. The CDK stack builds API Gateway and one Lambda function per route from
 * it, the local runtime dispatches from it, and the OpenAPI document is generated from it. Adding
 * an endpoint means adding it to its group and writing its function file under functions/.
 */
import type { RouteDefinition } from './platform/http/route';
import { apiKeyRoutes } from './api-keys';
import { billingRoutes } from './billing';
import { docsRoutes } from './docs';
import { exportFormatRoutes } from './export-format';
import { mappingJobRoutes } from './mapping-jobs';
import { partnerInventoryRoutes } from './partner-inventories';
import { referenceRoutes } from './reference';
import { supplierRoutes } from './suppliers';
import { legacyWebhookRoutes, subscriptionRoutes } from './webhooks';


export const routes = {
  ...apiKeyRoutes,
  ...supplierRoutes,
  ...exportFormatRoutes,
  ...partnerInventoryRoutes,
  ...mappingJobRoutes,
  ...referenceRoutes,
  ...subscriptionRoutes,
  ...legacyWebhookRoutes,
  ...billingRoutes,
  ...docsRoutes,
} satisfies Record<string, RouteDefinition>;

export type RouteId = keyof typeof routes;
export const routeList: readonly RouteDefinition[] = Object.values(routes);
