import { httpHandler } from '../../shared/api-keys';
import { fileDeliveryRoutes, deleteDeliveryDestination } from '../../shared/file-deliveries';

export const handler = httpHandler(fileDeliveryRoutes.deleteDeliveryDestination, deleteDeliveryDestination);
