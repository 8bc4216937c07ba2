import { httpHandler } from '../../shared/api-keys';
import { fileDeliveryRoutes, updateDeliveryDestination } from '../../shared/file-deliveries';

export const handler = httpHandler(fileDeliveryRoutes.updateDeliveryDestination, updateDeliveryDestination);
