import { routes } from '../../shared/api/routes';
import { defineHandler } from '../../shared/http/handler';
import { supplierRequestView } from './request-view';

export const handler = defineHandler(routes.listSupplierRequests, async ({ principal }, { suppliers }) => {
  const requests = await suppliers.listRequests(principal.organizationId);
  return { status: 200, json: { requests: requests.map(supplierRequestView), total: requests.length } };
});
