import * as v from 'valibot';
import { NextCursor, pageQuery, Text, Timestamp, Uuid } from '../platform/http/schemas';
import { TABULAR_FORMATS } from '../platform/files/formats';
import { INVENTORY_STATUSES } from './inventory';

const Name = Text({ maxLength: 200 });
const SupplierCode = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.regex(/^[A-Z0-9_-]{1,50}$/, 'must be a supplier code (letters, digits, _ or -), e.g. HOTELBEDS'),
  v.description('The supplier whose hotel ids the rows carry; needed for ID_TO_ID and HYBRID mapping'),
);
const FileName = v.pipe(
  Text({ maxLength: 255 }),
  v.description('Its extension sets the format: .csv/.txt, .jsonl/.ndjson, .json, .xlsx or .parquet'),
);

export const InventoryFields = v.strictObject({ name: Name, supplierCode: v.optional(SupplierCode) });

export const CreateUploadRequest = v.strictObject({
  name: Name,
  fileName: FileName,
  sizeBytes: v.pipe(
    v.number(),
    v.safeInteger(),
    v.minValue(1),
    v.description("The file's size in bytes, at most 200 MB (209,715,200): the PUT must carry exactly this many"),
  ),
  supplierCode: v.optional(SupplierCode),
});

export const InventoryIdParams = v.object({
  partnerInventoryId: v.pipe(
    Uuid,
    v.description("The inventory's partnerInventoryId"),
    v.examples(['9a3c5e7f-2b4d-4f6a-8c1e-3d5f7a9b1c2e']),
  ),
});

export const InventoryListQuery = v.strictObject(pageQuery(20, 100));

const RejectedRow = v.object({ line: v.number(), reason: v.string() });

export const InventoryView = v.object({
  partnerInventoryId: Uuid,
  name: v.string(),
  supplierCode: v.optional(v.string()),
  status: v.pipe(
    v.picklist(INVENTORY_STATUSES),
    v.description('UPLOADING -> VALIDATING -> READY or FAILED; direct uploads are READY at once'),
  ),
  fileName: v.string(),
  format: v.picklist(TABULAR_FORMATS),
  sizeBytes: v.optional(v.number()),
  hotelCount: v.pipe(v.number(), v.description('Valid hotel rows: what a mapping job maps and meters')),
  rejectedCount: v.number(),
  rejectedSample: v.pipe(v.array(RejectedRow), v.description('The first 20 rejected rows with line and reason')),
  rejectedRowsUrl: v.optional(v.pipe(v.string(), v.description('Every rejected row as CSV (line,reason); a presigned URL valid 1 hour'))),
  error: v.optional(v.pipe(v.string(), v.description('Why validation failed (FAILED only)'))),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const UploadInstructions = v.object({
  url: v.pipe(v.string(), v.description('PUT the file here, with exactly the headers below: a body of any other length is refused (403)')),
  method: v.literal('PUT'),
  headers: v.record(v.string(), v.string()),
  expiresAt: Timestamp,
});

export const CreatedUpload = v.object({ ...InventoryView.entries, upload: UploadInstructions });

export const InventoryList = v.object({ inventories: v.array(InventoryView), nextCursor: NextCursor });

/** The shapes the OpenAPI document names (components.schemas), each written once and referenced. */
export const partnerInventoryComponentSchemas = {
  PartnerInventory: InventoryView,
  PartnerInventoryPage: InventoryList,
  RejectedRow,
  UploadInstructions,
} as const;
