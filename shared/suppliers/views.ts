import type { SupplierRequest } from './suppliers';

/** What partners see of a request: not where its file is stored. */
export function supplierRequestView(request: SupplierRequest) {
  return {
    id: request.id,
    supplierName: request.supplierName,
    description: request.description,
    contactEmail: request.contactEmail,
    status: request.status,
    submittedAt: request.submittedAt,
    fileName: request.file.name,
    rowCount: request.file.rowCount,
  };
}
