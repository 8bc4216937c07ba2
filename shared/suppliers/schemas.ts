import * as v from 'valibot';
import { Timestamp, Uuid } from '../platform/http/schemas';
import { SUPPLIER_REQUEST_STATUSES } from './suppliers';

export const SupplierIdParams = v.object({ supplierId: Uuid });

export const SupplierView = v.object({
  id: Uuid,
  code: v.string(),
  name: v.string(),
  description: v.string(),
  logoUrl: v.optional(v.string()),
  isActive: v.boolean(),
});

export const SupplierList = v.object({ suppliers: v.array(SupplierView), total: v.number() });

export const ConnectedSupplierList = v.object({
  suppliers: v.array(v.object({ id: Uuid, code: v.string(), name: v.string(), connectedAt: Timestamp })),
  total: v.number(),
  remainingSupplierBudget: v.pipe(
    v.number(),
    v.description('How many new distinct suppliers can still be connected: maxSuppliers minus the distinct suppliers ever connected'),
  ),
  maxSuppliers: v.pipe(v.number(), v.description("The plan's limit of distinct suppliers")),
});

export const SupplierConnectionView = v.object({
  id: v.pipe(Uuid, v.description('UUID of the connection')),
  supplierId: Uuid,
  supplierCode: v.string(),
  supplierName: v.string(),
  description: v.optional(v.string()),
  logoUrl: v.optional(v.string()),
  connectedAt: Timestamp,
});

export const SupplierRequestFields = v.object({
  supplierName: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters')),
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000, 'must be at most 2000 characters'))),
  contactEmail: v.optional(v.pipe(v.string(), v.trim(), v.email('must be an e-mail address'))),
});

export const SupplierRequestView = v.object({
  id: Uuid,
  supplierName: v.string(),
  description: v.optional(v.string()),
  contactEmail: v.optional(v.string()),
  status: v.picklist(SUPPLIER_REQUEST_STATUSES),
  submittedAt: Timestamp,
  fileName: v.optional(v.string()),
  rowCount: v.optional(v.pipe(v.number(), v.description('Data rows read from the uploaded file'))),
});

export const SupplierRequestList = v.object({ requests: v.array(SupplierRequestView), total: v.number() });
