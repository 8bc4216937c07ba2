import { httpHandler } from '../../shared/platform/http/handler';
import { listMySuppliers } from '../../shared/suppliers';

export const handler = httpHandler(listMySuppliers);
