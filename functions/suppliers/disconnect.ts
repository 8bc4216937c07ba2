import { httpHandler } from '../../shared/platform/http/handler';
import { disconnectSupplier, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.disconnectSupplier, disconnectSupplier);
