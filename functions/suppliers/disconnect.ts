import { httpHandler } from '../../shared/platform/http/handler';
import { disconnectSupplier } from '../../shared/suppliers';

export const handler = httpHandler(disconnectSupplier);
