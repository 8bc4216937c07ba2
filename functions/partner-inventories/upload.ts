import { httpHandler } from '../../shared/platform/http/handler';
import { uploadPartnerInventory, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.uploadPartnerInventory, uploadPartnerInventory);
