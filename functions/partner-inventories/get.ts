import { httpHandler } from '../../shared/api-keys';
import { getPartnerInventory, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.getPartnerInventory, getPartnerInventory);
