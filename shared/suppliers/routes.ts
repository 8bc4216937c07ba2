import { defineRoute, type RouteDefinition } from '../platform/http/route';
import { ErrorResponse } from '../platform/http/schemas';
import * as schemas from './schemas';
import { errors } from '../platform/http/responses';
import { SUPPLIER_REQUEST_FILES_PREFIX } from './request-files';

/** Upload limit for supplier-request files (API Gateway hands Lambda at most 6 MB, base64-encoded). */
export const SUPPLIER_REQUEST_MAX_FILE_BYTES = 4 * 1024 * 1024;

export const supplierRoutes = {
  listSuppliers: defineRoute({
    method: 'GET',
    path: '/api/v1/suppliers',
    handler: 'suppliers/list',
    auth: 'none',
    tag: 'Suppliers',
    summary: 'Active suppliers on the platform',
    description: 'The catalogue every organization connects from; no credential needed. Inactive suppliers are not listed.',
    responses: { 200: { description: 'Active suppliers, by name', schema: schemas.SupplierList } },
    // The catalogue's one partition.
    access: { table: 'read', partitions: ['SUPPLIERS'] },
  }),
  listMySuppliers: defineRoute({
    method: 'GET',
    path: '/api/v1/suppliers/my-suppliers',
    handler: 'suppliers/my-suppliers',
    auth: 'required',
    tag: 'Suppliers',
    summary: 'Suppliers the organization is connected to, with its remaining supplier budget',
    description:
      "Each connected supplier with when it was connected, and the plan's `maxSuppliers` with how many new suppliers can still be connected (every supplier ever connected counts, disconnected ones included).",
    responses: { 200: { description: 'Connected suppliers', schema: schemas.ConnectedSupplierList }, 401: errors[401] },
    access: { table: 'read' },
  }),
  listSupplierRequests: defineRoute({
    method: 'GET',
    path: '/api/v1/suppliers/requests',
    handler: 'suppliers/list-requests',
    auth: 'required',
    tag: 'Suppliers',
    summary: "The organization's requests for new suppliers, newest first",
    description: 'Requests made with POST /api/v1/suppliers/request, with the state the back office gave them.',
    responses: { 200: { description: 'Supplier requests', schema: schemas.SupplierRequestList }, 401: errors[401] },
    access: { table: 'read' },
  }),
  connectSupplier: defineRoute({
    method: 'POST',
    path: '/api/v1/suppliers/{supplierId}/connect',
    handler: 'suppliers/connect',
    auth: 'required',
    tag: 'Suppliers',
    summary: 'Connect a supplier',
    description:
      "Counts against the plan's maxSuppliers distinct suppliers ever connected. Connecting an already-connected " +
      'supplier changes nothing and answers 200 with the existing connection. Connects and disconnects share a ' +
      'rate limit of 10 per minute per organization (400 when exceeded).',
    params: schemas.SupplierIdParams,
    responses: {
      201: { description: 'Connected', schema: schemas.SupplierConnectionView },
      200: { description: 'Already connected; nothing changed', schema: schemas.SupplierConnectionView },
      400: { description: "Invalid id, plan's supplier limit reached, or rate limit hit", schema: ErrorResponse },
      401: errors[401],
      404: { description: 'No supplier has that id', schema: ErrorResponse },
    },
    access: { table: 'readwrite' },
  }),
  disconnectSupplier: defineRoute({
    method: 'DELETE',
    path: '/api/v1/suppliers/{supplierId}/disconnect',
    handler: 'suppliers/disconnect',
    auth: 'required',
    tag: 'Suppliers',
    summary: 'Disconnect a supplier; historical mapping results are kept',
    description:
      "Mapping results made with the supplier stay; ID_TO_ID and HYBRID jobs cannot use it until it is connected again. The slot it took in the plan's supplier budget is not given back. Shares a rate limit with connect.",
    params: schemas.SupplierIdParams,
    responses: {
      204: { description: 'Disconnected' },
      400: { description: 'Invalid id or rate limit exceeded', schema: ErrorResponse },
      401: errors[401],
      404: { description: 'The organization is not connected to that supplier', schema: ErrorResponse },
    },
    access: { table: 'readwrite' },
  }),
  requestSupplier: defineRoute({
    method: 'POST',
    path: '/api/v1/suppliers/request',
    // A 4 MiB multipart file parsed on 512 MB, for a request a partner makes a few times a year.
    throttle: { ratePerSecond: 4, burst: 8 },
    handler: 'suppliers/create-request',
    auth: 'required',
    tag: 'Suppliers',
    summary: 'Request a supplier that is not on the platform yet, with a sample of its hotel file',
    description:
      'multipart/form-data with a `file` part: CSV, JSON (an array of objects) or Excel .xlsx, at most 4 MiB. ' +
      "The format comes from the part's file name (.csv, .txt, .json, .xlsx) or, when the name has no extension, from the part's Content-Type (text/csv, application/json, the .xlsx media type).",
    body: {
      kind: 'multipart',
      schema: schemas.SupplierRequestFields,
      example: {
        supplierName: 'Iberia Beds',
        description: 'Spanish and Portuguese wholesaler',
        contactEmail: 'connectivity@iberiabeds.example',
      },
      file: { field: 'file', maxBytes: SUPPLIER_REQUEST_MAX_FILE_BYTES, description: 'CSV, JSON or XLSX hotel file' },
    },
    responses: {
      202: { description: 'Queued for review', schema: schemas.SupplierRequestView },
      400: { description: 'Missing field, or the file does not parse', schema: ErrorResponse },
      401: errors[401],
      413: errors[413],
      415: { description: "Neither the file name nor the part's Content-Type names CSV, JSON or XLSX", schema: ErrorResponse },
    },
    access: { table: 'readwrite', objects: { write: [SUPPLIER_REQUEST_FILES_PREFIX] } },
    // A 4 MiB workbook may expand to 64 MB of XML (MAX_XLSX_EXPANDED_BYTES): about 220 MB read, with the body's copies beside it.
    lambda: { memoryMb: 512 },
  }),
} satisfies Record<string, RouteDefinition>;
