import { httpHandler } from '../../shared/platform/http/handler';
import { listMySuppliers, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.listMySuppliers, listMySuppliers);
