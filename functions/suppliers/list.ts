import { routes } from '../../shared/routes';
import { defineHandler } from '../../shared/platform/http/handler';

export const handler = defineHandler(routes.listSuppliers, async (_request, { suppliers }) => {
  const active = (await suppliers.listCatalogue())
    .filter((supplier) => supplier.isActive)
    .sort((a, b) => a.name.localeCompare(b.name));
  return { status: 200, json: { suppliers: active, total: active.length } };
});
