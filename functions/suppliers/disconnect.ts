import { routes } from '../../shared/api/routes';
import { disconnectSupplier } from '../../shared/domain/suppliers';
import { defineHandler } from '../../shared/http/handler';

export const handler = defineHandler(routes.disconnectSupplier, async ({ principal, params }, deps) => {
  await disconnectSupplier(
    { connections: deps.suppliers, rateLimiter: deps.rateLimits },
    { organizationId: principal.organizationId, supplierId: params.supplierId, now: deps.clock.now() },
  );
  return { status: 204 };
});
