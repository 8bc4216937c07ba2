import { idempotentHttpHandler } from '../../shared/api-keys';
import { fileDeliveryRoutes, createDeliveryDestination } from '../../shared/file-deliveries';

export const handler = idempotentHttpHandler(fileDeliveryRoutes.createDeliveryDestination, createDeliveryDestination);
