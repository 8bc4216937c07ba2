import { httpHandler } from '../../shared/platform/http/handler';
import { createPartnerInventoryUpload, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.createPartnerInventoryUpload, createPartnerInventoryUpload);
