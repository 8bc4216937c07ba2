/** File deliveries: completed jobs' export files written to partners' S3 buckets and SFTP servers. */
export { fileDeliveryRoutes } from './routes';
export {
  createDeliveryDestination,
  deleteDeliveryDestination,
  getDeliveryDestination,
  listDeliveryDestinations,
  listFileDeliveries,
  testDeliveryDestination,
  updateDeliveryDestination,
} from './endpoints';
export { fileDeliveryQueue } from './queues';
export { abandonFileAttempt, deliverFile } from './workers';
export { startFileDeliveries, FILE_DELIVERY_METRICS, type CompletedExport, type DeliveryPlaced } from './dispatch';
export { deliversFiles, startPorts as fileDeliveryStartPorts } from './services';
export { hostKeyFingerprint } from './sftp-transfer';
export { deliveredFileName } from './file-delivery';
export { FAILURE_REASONS } from './transfer';
