import { httpHandler } from '../../shared/platform/http/handler';
import { requestSupplier, supplierRoutes } from '../../shared/suppliers';

export const handler = httpHandler(supplierRoutes.requestSupplier, requestSupplier);
