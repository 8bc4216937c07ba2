import { httpHandler } from '../../shared/api-keys';
import { fileDeliveryRoutes, listFileDeliveries } from '../../shared/file-deliveries';

export const handler = httpHandler(fileDeliveryRoutes.listFileDeliveries, listFileDeliveries);
