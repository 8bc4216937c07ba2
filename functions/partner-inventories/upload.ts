import { idempotentHttpHandler } from '../../shared/platform/http/idempotent-handler';
import { uploadPartnerInventory, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = idempotentHttpHandler(partnerInventoryRoutes.uploadPartnerInventory, uploadPartnerInventory);
