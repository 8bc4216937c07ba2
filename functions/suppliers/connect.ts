import { httpHandler } from '../../shared/platform/http/handler';
import { connectSupplier, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.connectSupplier, connectSupplier);
