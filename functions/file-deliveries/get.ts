import { httpHandler } from '../../shared/api-keys';
import { fileDeliveryRoutes, getDeliveryDestination } from '../../shared/file-deliveries';

export const handler = httpHandler(fileDeliveryRoutes.getDeliveryDestination, getDeliveryDestination);
