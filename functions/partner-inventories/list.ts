import { httpHandler } from '../../shared/api-keys';
import { listPartnerInventories, partnerInventoryRoutes } from '../../shared/partner-inventories';

export const handler = httpHandler(partnerInventoryRoutes.listPartnerInventories, listPartnerInventories);
