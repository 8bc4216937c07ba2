import { httpHandler } from '../../shared/api-keys';
import { requestSupplier, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.requestSupplier, requestSupplier);
