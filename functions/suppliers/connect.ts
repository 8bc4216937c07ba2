import { randomUUID } from 'node:crypto';
import { routes } from '../../shared/routes';
import { connectSupplier } from '../../shared/suppliers/suppliers';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.connectSupplier, async ({ principal, params }, deps) => {
  const { connection, created } = await connectSupplier(
    { catalogue: deps.suppliers, connections: deps.suppliers, rateLimiter: deps.rateLimits },
    {
      organization: await deps.organizations.require(principal.organizationId),
      supplierId: params.supplierId,
      connectionId: randomUUID(),
      now: deps.clock.now(),
    },
  );
  return {
    status: created ? 201 : 200,
    json: {
      id: connection.id,
      supplierId: connection.supplierId,
      supplierCode: connection.supplierCode,
      supplierName: connection.supplierName,
      description: connection.description,
      logoUrl: connection.logoUrl,
      connectedAt: connection.connectedAt,
    },
  };
});
