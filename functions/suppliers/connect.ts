import { httpHandler } from '../../shared/api-keys';
import { connectSupplier, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.connectSupplier, connectSupplier);
