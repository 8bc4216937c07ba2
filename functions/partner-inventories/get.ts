import { httpHandler } from '../../shared/platform/http/handler';
import { getPartnerInventory, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.getPartnerInventory, getPartnerInventory);
