import { errors } from '../platform/http/responses';
import { defineRoute, type RouteDefinition } from '../platform/http/route';
import { ErrorResponse } from '../platform/http/schemas';
import { DIRECT_UPLOAD_MAX_BYTES, INVENTORY_FILES_PREFIX, INVENTORY_UPLOADS_PREFIX } from './inventory';
import * as schemas from './schemas';

const TAG = 'Partner inventories';

export const partnerInventoryRoutes = {
  uploadPartnerInventory: defineRoute({
    method: 'POST',
    path: '/api/v1/partner-inventories',
    handler: 'partner-inventories/upload',
    // A 4 MiB multipart file parsed on 512 MB (a workbook or a Parquet file inflates up to 64 MB).
    throttle: { ratePerSecond: 8, burst: 16 },
    idempotent: true,
    auth: 'required',
    tag: TAG,
    summary: 'Upload a small inventory file in one call (at most 4 MiB); validated at once',
    description:
      "multipart/form-data with a `file` part (CSV, JSON Lines, JSON, XLSX or Parquet in the mapping engine's column format), " +
      '`name`, and optionally `supplierCode`. Bad rows are reported with line and reason and skipped; a file that cannot ' +
      'be read or has no usable row answers 400 and stores nothing. Larger files: POST /api/v1/partner-inventories/uploads. ' +
      "The format comes from the part's file name (.csv, .txt, .jsonl, .ndjson, .json, .xlsx, .parquet) or, when the name has no extension, from the part's Content-Type (text/csv, application/x-ndjson, application/json, the .xlsx media type, application/vnd.apache.parquet). " +
      'A Parquet file is read by column name, as JSON is: whole-number columns as their exact digits, text as text, a map column as supplierCodes; its rows are numbered from 1.',
    body: {
      kind: 'multipart',
      schema: schemas.InventoryFields,
      example: { name: 'Lisbon hotels, November' },
      file: { field: 'file', maxBytes: DIRECT_UPLOAD_MAX_BYTES, description: 'CSV, JSONL, JSON, XLSX or Parquet hotel file' },
    },
    responses: {
      201: { description: 'Validated and READY', schema: schemas.InventoryView },
      400: { description: 'A missing field, or a file that cannot be read or has no usable row', schema: ErrorResponse },
      401: errors[401],
      413: errors[413],
      415: {
        description: "Neither the file name nor the part's Content-Type names CSV, JSONL, JSON, XLSX or Parquet",
        schema: ErrorResponse,
      },
    },
    // Sends the validation queue a delayed message that finishes the inventory should the request be cut off.
    access: { table: 'readwrite', objects: { write: [INVENTORY_FILES_PREFIX] }, sendsTo: ['inventory-validation'] },
    // A 4 MiB workbook may expand to 64 MB of XML (MAX_XLSX_EXPANDED_BYTES), a Parquet file to as much: about 220 MB read, with the body's copies beside it.
    lambda: { memoryMb: 512 },
  }),
  createPartnerInventoryUpload: defineRoute({
    method: 'POST',
    path: '/api/v1/partner-inventories/uploads',
    // Each one records an inventory and signs a URL for up to 200 MB of storage.
    throttle: { ratePerSecond: 8, burst: 16 },
    handler: 'partner-inventories/create-upload',
    idempotent: true,
    auth: 'required',
    tag: TAG,
    summary: 'Start an upload of any size (up to 200 MB): answers a presigned PUT URL',
    description:
      "Declare the file's `sizeBytes` (at most 200 MB); PUT the file to `upload.url` with the `upload.headers`, then call " +
      'POST /api/v1/partner-inventories/{id}/complete. The URL works for one hour and takes a body of exactly the declared ' +
      'size (the length is signed; any other is refused with 403). A file never completed is removed within two days of its PUT.',
    body: {
      kind: 'json',
      schema: schemas.CreateUploadRequest,
      example: { name: 'All hotels, November', fileName: 'hotels-2026-11.csv', sizeBytes: 48213377 },
    },
    responses: {
      201: { description: 'The inventory (UPLOADING) and where to PUT the file', schema: schemas.CreatedUpload },
      400: errors[400],
      401: errors[401],
      413: { description: 'The declared size is over 200 MB; nothing was created', schema: ErrorResponse },
      415: { description: 'The file name does not end in .csv, .txt, .jsonl, .ndjson, .json, .xlsx or .parquet', schema: ErrorResponse },
    },
    // The presigned PUT lands in the uploads' staging prefix, outside the backups.
    access: { table: 'readwrite', resultObjects: { write: [INVENTORY_UPLOADS_PREFIX] } },
  }),
  completePartnerInventoryUpload: defineRoute({
    method: 'POST',
    path: '/api/v1/partner-inventories/{partnerInventoryId}/complete',
    // Starts a validation of up to 200 MB.
    throttle: { ratePerSecond: 8, burst: 16 },
    handler: 'partner-inventories/complete-upload',
    auth: 'required',
    tag: TAG,
    summary: 'Tell the service the file is uploaded: validation starts (VALIDATING, then READY or FAILED)',
    description:
      'Call it once after the PUT to `upload.url` succeeded, within a day. Answers 202 with the inventory VALIDATING; poll ' +
      'GET /api/v1/partner-inventories/{partnerInventoryId} until it is READY (or FAILED with `error`). A stored file of ' +
      'another size than the declared one (possible only on a store that does not check signed lengths) is removed and answered 400.',
    params: schemas.InventoryIdParams,
    responses: {
      202: { description: 'Validation started', schema: schemas.InventoryView },
      400: { description: 'Malformed id, nothing has been uploaded yet, or the file is not of the declared size', schema: ErrorResponse },
      401: errors[401],
      404: { description: 'No such inventory in your organization', schema: ErrorResponse },
      409: { description: 'The upload was already completed', schema: ErrorResponse },
    },
    // Sizes the upload, copies it to the inventory's source, and removes it.
    access: {
      table: 'readwrite',
      objects: { write: [INVENTORY_FILES_PREFIX] },
      resultObjects: { read: [INVENTORY_UPLOADS_PREFIX], delete: [INVENTORY_UPLOADS_PREFIX] },
      sendsTo: ['inventory-validation'],
    },
  }),
  listPartnerInventories: defineRoute({
    method: 'GET',
    path: '/api/v1/partner-inventories',
    handler: 'partner-inventories/list',
    auth: 'required',
    tag: TAG,
    summary: "The organization's inventories, newest first",
    description: 'Paginated with `limit` and `cursor` (pass back `nextCursor`; null on the last page).',
    query: schemas.InventoryListQuery,
    responses: { 200: { description: 'A page of inventories', schema: schemas.InventoryList }, 400: errors[400], 401: errors[401] },
    access: { table: 'read' },
  }),
  getPartnerInventory: defineRoute({
    method: 'GET',
    path: '/api/v1/partner-inventories/{partnerInventoryId}',
    handler: 'partner-inventories/get',
    auth: 'required',
    tag: TAG,
    summary: 'One inventory: status, counts, a sample of rejected rows and a link to all of them',
    description:
      '`rejectedSample` holds the first 20 rejected rows with line and reason; `rejectedRowsUrl`, when there are any, is a presigned URL (valid one hour) to all of them as CSV `line,reason`.',
    params: schemas.InventoryIdParams,
    responses: {
      200: { description: 'The inventory', schema: schemas.InventoryView },
      400: errors[400],
      401: errors[401],
      404: { description: 'No such inventory in your organization', schema: ErrorResponse },
    },
    access: { table: 'read', objects: { read: [INVENTORY_FILES_PREFIX] } },
  }),
  deletePartnerInventory: defineRoute({
    method: 'DELETE',
    path: '/api/v1/partner-inventories/{partnerInventoryId}',
    handler: 'partner-inventories/delete',
    auth: 'required',
    tag: TAG,
    summary: 'Delete an inventory and its files; results of finished mapping jobs are kept',
    description:
      'The source file, chunk files and rejected rows go. A mapping job still running on the inventory fails (its reservation is released); results of finished jobs stay.',
    params: schemas.InventoryIdParams,
    responses: {
      204: { description: 'Deleted' },
      400: errors[400],
      401: errors[401],
      404: { description: 'No such inventory in your organization', schema: ErrorResponse },
    },
    access: { table: 'readwrite', objects: { delete: [INVENTORY_FILES_PREFIX] }, resultObjects: { delete: [INVENTORY_UPLOADS_PREFIX] } },
  }),
} satisfies Record<string, RouteDefinition>;
