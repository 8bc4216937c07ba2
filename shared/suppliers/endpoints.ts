/** The supplier endpoints: the catalogue, the organization's connections, and requests for new suppliers. */
import { randomUUID } from 'node:crypto';
import { organizationStoreOf, PLAN_LIMITS } from '../organizations';
import type { Implementation } from '../platform/http/endpoint';
import { objectStoreOf } from '../platform/objects/services';
import { rateLimiterOf } from '../platform/rate-limits';
import { supplierRoutes } from './routes';
import { supplierStoreOf } from './store';
import { supplierRequestFileKey } from './request-files';
import { inspectSupplierFile } from './supplier-files';
import { connectSupplier as connect, disconnectSupplier as disconnect, remainingSupplierBudget, type SupplierRequest } from './suppliers';
import { supplierRequestView } from './views';

const MEDIA_TYPES = {
  csv: 'text/csv',
  json: 'application/json',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export const listSuppliers: Implementation<typeof supplierRoutes.listSuppliers> = async (_request, runtime) => {
  const active = (await supplierStoreOf(runtime).listCatalogue())
    .filter((supplier) => supplier.isActive)
    .sort((a, b) => a.name.localeCompare(b.name));
  return { status: 200, json: { suppliers: active, total: active.length } };
};

export const listMySuppliers: Implementation<typeof supplierRoutes.listMySuppliers> = async ({ principal }, runtime) => {
  const [organization, connections] = await Promise.all([
    organizationStoreOf(runtime).require(principal.organizationId),
    supplierStoreOf(runtime).listConnections(principal.organizationId),
  ]);
  const connected = connections
    .map((c) => ({ id: c.supplierId, code: c.supplierCode, name: c.supplierName, connectedAt: c.connectedAt }))
    .sort((a, b) => a.connectedAt.localeCompare(b.connectedAt));
  return {
    status: 200,
    json: {
      suppliers: connected,
      total: connected.length,
      remainingSupplierBudget: remainingSupplierBudget(organization),
      maxSuppliers: PLAN_LIMITS[organization.planType].maxSuppliers,
    },
  };
};

export const listSupplierRequests: Implementation<typeof supplierRoutes.listSupplierRequests> = async ({ principal }, runtime) => {
  const requests = await supplierStoreOf(runtime).listRequests(principal.organizationId);
  return { status: 200, json: { requests: requests.map(supplierRequestView), total: requests.length } };
};

export const connectSupplier: Implementation<typeof supplierRoutes.connectSupplier> = async ({ principal, params }, runtime) => {
  const suppliers = supplierStoreOf(runtime);
  const { connection, created } = await connect(
    { catalogue: suppliers, connections: suppliers, rateLimiter: rateLimiterOf(runtime) },
    {
      organization: await organizationStoreOf(runtime).require(principal.organizationId),
      supplierId: params.supplierId,
      connectionId: randomUUID(),
      now: runtime.clock.now(),
    },
  );
  return {
    status: created ? 201 : 200,
    json: {
      id: connection.id,
      supplierId: connection.supplierId,
      supplierCode: connection.supplierCode,
      supplierName: connection.supplierName,
      description: connection.description,
      logoUrl: connection.logoUrl,
      connectedAt: connection.connectedAt,
    },
  };
};

export const disconnectSupplier: Implementation<typeof supplierRoutes.disconnectSupplier> = async ({ principal, params }, runtime) => {
  await disconnect(
    { connections: supplierStoreOf(runtime), rateLimiter: rateLimiterOf(runtime) },
    { organizationId: principal.organizationId, supplierId: params.supplierId, now: runtime.clock.now() },
  );
  return { status: 204 };
};

export const requestSupplier: Implementation<typeof supplierRoutes.requestSupplier> = async ({ principal, body }, runtime) => {
  const { file } = body;
  const summary = await inspectSupplierFile(file);
  const id = randomUUID();
  const key = supplierRequestFileKey(principal.organizationId, id, summary.format);
  const request: SupplierRequest = {
    id,
    supplierName: body.supplierName,
    description: body.description,
    contactEmail: body.contactEmail,
    status: 'pending',
    submittedAt: runtime.clock.now().toISOString(),
    file: { name: file.fileName, format: summary.format, sizeBytes: file.data.length, rowCount: summary.rowCount, key },
  };
  // The record before its file: a request cut off between the two keeps no file that no record points to.
  await supplierStoreOf(runtime).putRequest(principal.organizationId, request);
  await objectStoreOf(runtime).put(key, file.data, MEDIA_TYPES[summary.format]);
  return { status: 202, json: supplierRequestView(request) };
};
