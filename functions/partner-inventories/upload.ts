import { idempotentHttpHandler } from '../../shared/api-keys';
import { uploadPartnerInventory, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = idempotentHttpHandler(partnerInventoryRoutes.uploadPartnerInventory, uploadPartnerInventory);
