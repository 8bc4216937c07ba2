import { httpHandler } from '../../shared/api-keys';
import { fileDeliveryRoutes, testDeliveryDestination } from '../../shared/file-deliveries';

export const handler = httpHandler(fileDeliveryRoutes.testDeliveryDestination, testDeliveryDestination);
