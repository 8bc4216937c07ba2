import * as v from 'valibot';
import { Text, Timestamp, Uuid } from '../platform/http/schemas';
import { SUPPLIER_REQUEST_STATUSES } from './suppliers';

export const SupplierIdParams = v.object({
  supplierId: v.pipe(
    Uuid,
    v.description("A supplier's id, from GET /api/v1/suppliers"),
    v.examples(['0b6f1c1e-5d0a-4a57-9a43-2f5b8c1d0001']),
  ),
});

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

export const SupplierRequestFields = v.strictObject({
  supplierName: Text({ maxLength: 200 }),
  description: v.optional(Text({ maxLength: 2000, minLength: 0 })),
  contactEmail: v.optional(v.pipe(Text({ maxLength: 254, minLength: 0 }), v.email('must be an e-mail address'))),
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
