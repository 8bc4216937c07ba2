import { httpHandler } from '../../shared/platform/http/handler';
import { listPartnerInventories, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.listPartnerInventories, listPartnerInventories);
