import { httpHandler } from '../../shared/api-keys';
import { listSupplierRequests, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.listSupplierRequests, listSupplierRequests);
