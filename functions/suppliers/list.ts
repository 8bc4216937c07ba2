import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { listSuppliers, supplierRoutes } from '../../shared/suppliers';

export const handler = publicHttpHandler(supplierRoutes.listSuppliers, listSuppliers);
