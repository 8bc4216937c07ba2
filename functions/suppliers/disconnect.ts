import { httpHandler } from '../../shared/api-keys';
import { disconnectSupplier, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.disconnectSupplier, disconnectSupplier);
