import { httpHandler } from '../../shared/platform/http/handler';
import { deletePartnerInventory, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.deletePartnerInventory, deletePartnerInventory);
