import { routes } from '../../shared/routes';
import { disconnectSupplier } from '../../shared/suppliers/suppliers';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.disconnectSupplier, async ({ principal, params }, deps) => {
  await disconnectSupplier(
    { connections: deps.suppliers, rateLimiter: deps.rateLimits },
    { organizationId: principal.organizationId, supplierId: params.supplierId, now: deps.clock.now() },
  );
  return { status: 204 };
});
