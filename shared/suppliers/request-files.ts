/** Where the sample files of supplier requests live in the bucket. */
import type { SupplierFileSummary } from './supplier-files';

export const SUPPLIER_REQUEST_FILES_PREFIX = 'supplier-requests/';

/** The key of a request's sample file. */
export function supplierRequestFileKey(organizationId: string, requestId: string, format: SupplierFileSummary['format']): string {
  return `${SUPPLIER_REQUEST_FILES_PREFIX}${organizationId}/${requestId}/sample.${format}`;
}
