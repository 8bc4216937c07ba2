import { idempotentHttpHandler } from '../../shared/platform/http/idempotent-handler';
import { createPartnerInventoryUpload, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = idempotentHttpHandler(partnerInventoryRoutes.createPartnerInventoryUpload, createPartnerInventoryUpload);
