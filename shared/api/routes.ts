/**
 * THE route table: every endpoint of the API, once. The CDK stack builds API Gateway and one
 * Lambda function per route from it, the local runtime dispatches from it, and the OpenAPI
 * document is generated from it. Adding an endpoint means adding it here and writing its
 * function file under functions/.
 */
import { defineRoute, type RouteDefinition } from '../http/route';
import * as s from './schemas';

/** Upload limit for supplier-request files (API Gateway hands Lambda at most 6 MB, base64-encoded). */
export const SUPPLIER_REQUEST_MAX_FILE_BYTES = 4 * 1024 * 1024;

const errors = {
  400: { description: 'Invalid request', schema: s.ErrorResponse },
  401: { description: 'Missing, invalid, expired or revoked credential', schema: s.ErrorResponse },
  403: { description: 'The credential may not do this', schema: s.ErrorResponse },
  404: { description: 'Not found', schema: s.ErrorResponse },
  413: { description: 'Body or file too large', schema: s.ErrorResponse },
  415: { description: 'Unsupported content type or file format', schema: s.ErrorResponse },
} as const;

export const routes = {
  // --- authentication ------------------------------------------------------------------------
  issueToken: defineRoute({
    method: 'POST',
    path: '/api/v1/auth/token',
    handler: 'auth/token',
    auth: 'none',
    tag: 'Authentication',
    summary: 'Exchange an API key for a bearer token (OAuth 2.0 client credentials)',
    description:
      'Send `grant_type=client_credentials` form-encoded, with the API key as the client secret: either HTTP Basic ' +
      '(`client_id` = key prefix `hmk_<keyId>`, password = the full key) or `client_id`/`client_secret` form fields. ' +
      'The token is valid for one hour and stops working at once when its key is revoked.',
    body: { kind: 'form', schema: s.TokenRequest },
    responses: { 200: { description: 'A bearer token', schema: s.TokenResponse }, 400: errors[400], 401: errors[401], 415: errors[415] },
    access: { table: 'read', signingSecret: true },
  }),
  listApiKeys: defineRoute({
    method: 'GET',
    path: '/api/v1/api-keys',
    handler: 'api-keys/list',
    auth: 'required',
    tag: 'Authentication',
    summary: "List the organization's API keys (prefixes only)",
    responses: { 200: { description: 'API keys, oldest first', schema: s.ApiKeyList }, 401: errors[401] },
    access: { table: 'read' },
  }),
  createApiKey: defineRoute({
    method: 'POST',
    path: '/api/v1/api-keys',
    handler: 'api-keys/create',
    auth: 'required',
    tag: 'Authentication',
    summary: 'Create a partner API key; the full key is shown only in this response',
    body: { kind: 'json', schema: s.CreateApiKeyRequest },
    responses: { 201: { description: 'The new key', schema: s.CreatedApiKey }, 400: errors[400], 401: errors[401], 415: errors[415] },
    access: { table: 'readwrite' },
  }),
  revokeApiKey: defineRoute({
    method: 'DELETE',
    path: '/api/v1/api-keys/{keyId}',
    handler: 'api-keys/revoke',
    auth: 'required',
    tag: 'Authentication',
    summary: 'Revoke an API key; it and the bearer tokens issued for it stop working at once',
    params: s.KeyIdParams,
    responses: { 204: { description: 'Revoked' }, 400: errors[400], 401: errors[401], 404: errors[404] },
    access: { table: 'readwrite' },
  }),

  // --- suppliers -----------------------------------------------------------------------------
  listSuppliers: defineRoute({
    method: 'GET',
    path: '/api/v1/suppliers',
    handler: 'suppliers/list',
    auth: 'none',
    tag: 'Suppliers',
    summary: 'Active suppliers on the platform',
    responses: { 200: { description: 'Active suppliers, by name', schema: s.SupplierList } },
    access: { table: 'read' },
  }),
  listMySuppliers: defineRoute({
    method: 'GET',
    path: '/api/v1/suppliers/my-suppliers',
    handler: 'suppliers/my-suppliers',
    auth: 'required',
    tag: 'Suppliers',
    summary: 'Suppliers the organization is connected to, with its remaining supplier budget',
    responses: { 200: { description: 'Connected suppliers', schema: s.ConnectedSupplierList }, 401: errors[401] },
    access: { table: 'read' },
  }),
  listSupplierRequests: defineRoute({
    method: 'GET',
    path: '/api/v1/suppliers/requests',
    handler: 'suppliers/list-requests',
    auth: 'required',
    tag: 'Suppliers',
    summary: "The organization's requests for new suppliers, newest first",
    responses: { 200: { description: 'Supplier requests', schema: s.SupplierRequestList }, 401: errors[401] },
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
      'Counts against the plan\'s maxSuppliers distinct suppliers ever connected. Connecting an already-connected ' +
      'supplier changes nothing and answers 200 with the existing connection. Connects and disconnects share a ' +
      'rate limit of 10 per minute per organization (400 when exceeded).',
    params: s.SupplierIdParams,
    responses: {
      201: { description: 'Connected', schema: s.SupplierConnectionView },
      200: { description: 'Already connected; nothing changed', schema: s.SupplierConnectionView },
      400: { description: "Invalid id, plan's supplier limit reached, or rate limit hit", schema: s.ErrorResponse },
      401: errors[401],
      404: { description: 'No supplier has that id', schema: s.ErrorResponse },
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
    params: s.SupplierIdParams,
    responses: {
      204: { description: 'Disconnected' },
      400: { description: 'Invalid id or rate limit exceeded', schema: s.ErrorResponse },
      401: errors[401],
      404: { description: 'The organization is not connected to that supplier', schema: s.ErrorResponse },
    },
    access: { table: 'readwrite' },
  }),
  requestSupplier: defineRoute({
    method: 'POST',
    path: '/api/v1/suppliers/request',
    handler: 'suppliers/create-request',
    auth: 'required',
    tag: 'Suppliers',
    summary: 'Request a supplier that is not on the platform yet, with a sample of its hotel file',
    description: 'multipart/form-data with a `file` part: CSV, JSON (an array of objects) or Excel .xlsx, at most 4 MiB.',
    body: {
      kind: 'multipart',
      schema: s.SupplierRequestFields,
      file: { field: 'file', maxBytes: SUPPLIER_REQUEST_MAX_FILE_BYTES, description: 'CSV, JSON or XLSX hotel file' },
    },
    responses: {
      202: { description: 'Queued for review', schema: s.SupplierRequestView },
      400: { description: 'Missing field, or the file does not parse', schema: s.ErrorResponse },
      401: errors[401],
      413: errors[413],
      415: { description: 'The file is not CSV, JSON or XLSX', schema: s.ErrorResponse },
    },
    access: { table: 'readwrite', bucket: 'write' },
  }),

  // --- export format -------------------------------------------------------------------------
  putExportFormat: defineRoute({
    method: 'PUT',
    path: '/api/v1/export-format',
    handler: 'export-format/put',
    auth: 'required',
    tag: 'Export format',
    summary: "Create or fully replace the organization's export format",
    body: { kind: 'json', schema: s.ExportFormatRequest },
    responses: { 200: { description: 'The saved configuration', schema: s.ExportFormatView }, 400: errors[400], 401: errors[401], 415: errors[415] },
    access: { table: 'readwrite' },
  }),
  getExportFormat: defineRoute({
    method: 'GET',
    path: '/api/v1/export-format',
    handler: 'export-format/get',
    auth: 'required',
    tag: 'Export format',
    summary: "The organization's export format",
    responses: {
      200: { description: 'The configuration', schema: s.ExportFormatView },
      401: errors[401],
      404: { description: 'No export format has been set', schema: s.ErrorResponse },
    },
    access: { table: 'read' },
  }),

  // --- API description -----------------------------------------------------------------------
  openApiDocument: defineRoute({
    method: 'GET',
    path: '/api/v1/openapi.json',
    handler: 'docs/openapi',
    auth: 'none',
    tag: 'Documentation',
    summary: 'This OpenAPI 3.1 document',
    responses: { 200: { description: 'OpenAPI 3.1 document', contentType: 'application/json' } },
    access: { table: 'none' },
  }),
  docsPage: defineRoute({
    method: 'GET',
    path: '/docs',
    handler: 'docs/page',
    auth: 'none',
    tag: 'Documentation',
    summary: 'Human-readable API reference',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    access: { table: 'none' },
  }),
  docsAsset: defineRoute({
    method: 'GET',
    path: '/docs/{asset}',
    handler: 'docs/asset',
    auth: 'none',
    tag: 'Documentation',
    summary: "The docs page's script and style sheet",
    params: s.DocsAssetParams,
    responses: { 200: { description: 'Script or style sheet', contentType: 'text/javascript' }, 404: errors[404] },
    access: { table: 'none' },
  }),
} satisfies Record<string, RouteDefinition>;

export type RouteId = keyof typeof routes;
export const routeList: readonly RouteDefinition[] = Object.values(routes);
