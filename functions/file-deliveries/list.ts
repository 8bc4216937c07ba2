import { httpHandler } from '../../shared/api-keys';
import { fileDeliveryRoutes, listDeliveryDestinations } from '../../shared/file-deliveries';

export const handler = httpHandler(fileDeliveryRoutes.listDeliveryDestinations, listDeliveryDestinations);
