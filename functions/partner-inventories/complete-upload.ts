import { httpHandler } from '../../shared/api-keys';
import { completePartnerInventoryUpload, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.completePartnerInventoryUpload, completePartnerInventoryUpload);
