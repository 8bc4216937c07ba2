import { httpHandler } from '../../shared/platform/http/handler';
import { requestSupplier } from '../../shared/suppliers';

export const handler = httpHandler(requestSupplier);
