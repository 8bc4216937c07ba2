import { httpHandler } from '../../shared/platform/http/handler';
import { listSupplierRequests, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.listSupplierRequests, listSupplierRequests);
