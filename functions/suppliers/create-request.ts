import { randomUUID } from 'node:crypto';
import { routes } from '../../shared/routes';
import { inspectSupplierFile } from '../../shared/suppliers/supplier-files';
import type { SupplierRequest } from '../../shared/suppliers/suppliers';
import { defineHandler } from '../../shared/platform/http/handler';
import { objectStoreOf } from '../../shared/platform/objects/services';
import { supplierRequestView } from '../../shared/suppliers/views';

const MEDIA_TYPES = {
  csv: 'text/csv',
  json: 'application/json',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export const handler = defineHandler(routes.requestSupplier, async ({ principal, body }, deps) => {
  const { file } = body;
  const summary = await inspectSupplierFile(file);
  const id = randomUUID();
  const key = `supplier-requests/${principal.organizationId}/${id}/sample.${summary.format}`;
  await objectStoreOf(deps).put(key, file.data, MEDIA_TYPES[summary.format]);
  const request: SupplierRequest = {
    id,
    supplierName: body.supplierName,
    description: body.description,
    contactEmail: body.contactEmail,
    status: 'pending',
    submittedAt: deps.clock.now().toISOString(),
    file: { name: file.fileName, format: summary.format, sizeBytes: file.data.length, rowCount: summary.rowCount, key },
  };
  await deps.suppliers.putRequest(principal.organizationId, request);
  return { status: 202, json: supplierRequestView(request) };
});
