import { httpHandler } from '../../shared/platform/http/handler';
import { completePartnerInventoryUpload, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.completePartnerInventoryUpload, completePartnerInventoryUpload);
