import { httpHandler } from '../../shared/api-keys';
import { deletePartnerInventory, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.deletePartnerInventory, deletePartnerInventory);
