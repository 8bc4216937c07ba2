/** Suppliers: the platform's catalogue, each organization's connections, and requests for new suppliers. */
export { SUPPLIER_REQUEST_MAX_FILE_BYTES, supplierRoutes } from './routes';
export { connectSupplier, disconnectSupplier, listMySuppliers, listSupplierRequests, listSuppliers, requestSupplier } from './endpoints';
export { connectedSupplierCodes, supplierStoreOf, SupplierStore } from './store';
export type { Supplier, SupplierConnection } from './suppliers';
