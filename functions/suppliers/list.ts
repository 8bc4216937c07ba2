import { publicHttpHandler } from '../../shared/platform/http/public-handler';
import { listSuppliers } from '../../shared/suppliers';

export const handler = publicHttpHandler(listSuppliers);
