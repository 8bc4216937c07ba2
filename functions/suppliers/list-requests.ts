import { httpHandler } from '../../shared/platform/http/handler';
import { listSupplierRequests } from '../../shared/suppliers';

export const handler = httpHandler(listSupplierRequests);
