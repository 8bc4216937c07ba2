import { routes } from '../../shared/routes';
import { defineHandler } from '../../shared/platform/http/handler';
import { supplierRequestView } from '../../shared/suppliers/views';

export const handler = defineHandler(routes.listSupplierRequests, async ({ principal }, { suppliers }) => {
  const requests = await suppliers.listRequests(principal.organizationId);
  return { status: 200, json: { requests: requests.map(supplierRequestView), total: requests.length } };
});
