import { idempotentHttpHandler } from '../../shared/api-keys';
import { createPartnerInventoryUpload, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = idempotentHttpHandler(partnerInventoryRoutes.createPartnerInventoryUpload, createPartnerInventoryUpload);
