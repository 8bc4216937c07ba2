import { httpHandler } from '../../shared/platform/http/handler';
import { connectSupplier } from '../../shared/suppliers';

export const handler = httpHandler(connectSupplier);
