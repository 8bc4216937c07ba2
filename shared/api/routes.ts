/**
 * THE route table: every endpoint of the API, once, gathered from one module per capability
 * under route-groups/. The CDK stack builds API Gateway and one Lambda function per route from
 * it, the local runtime dispatches from it, and the OpenAPI document is generated from it. Adding
 * an endpoint means adding it to its group and writing its function file under functions/.
 */
import type { RouteDefinition } from '../http/route';
import { authRoutes } from './route-groups/auth';
import { billingRoutes } from './route-groups/billing';
import { docsRoutes } from './route-groups/docs';
import { exportFormatRoutes } from './route-groups/export-format';
import { referenceRoutes } from './route-groups/reference';
import { supplierRoutes } from './route-groups/suppliers';

export { SUPPLIER_REQUEST_MAX_FILE_BYTES } from './route-groups/suppliers';

export const routes = {
  ...authRoutes,
  ...supplierRoutes,
  ...exportFormatRoutes,
  ...referenceRoutes,
  ...billingRoutes,
  ...docsRoutes,
} satisfies Record<string, RouteDefinition>;

export type RouteId = keyof typeof routes;
export const routeList: readonly RouteDefinition[] = Object.values(routes);
