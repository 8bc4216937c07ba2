import { routes } from '../../shared/routes';
import { PLAN_LIMITS } from '../../shared/organizations/plans';
import { remainingSupplierBudget } from '../../shared/suppliers/suppliers';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.listMySuppliers, async ({ principal }, { organizations, suppliers }) => {
  const [organization, connections] = await Promise.all([
    organizations.require(principal.organizationId),
    suppliers.listConnections(principal.organizationId),
  ]);
  const connected = connections
    .map((c) => ({ id: c.supplierId, code: c.supplierCode, name: c.supplierName, connectedAt: c.connectedAt }))
    .sort((a, b) => a.connectedAt.localeCompare(b.connectedAt));
  return {
    status: 200,
    json: {
      suppliers: connected,
      total: connected.length,
      remainingSupplierBudget: remainingSupplierBudget(organization),
      maxSuppliers: PLAN_LIMITS[organization.planType].maxSuppliers,
    },
  };
});
