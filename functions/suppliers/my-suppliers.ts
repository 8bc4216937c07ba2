import { httpHandler } from '../../shared/api-keys';
import { listMySuppliers, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.listMySuppliers, listMySuppliers);
