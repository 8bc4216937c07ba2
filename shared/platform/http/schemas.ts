/**
 * Request and response schemas (valibot). Requests are validated with them; the OpenAPI document
 * is generated from them, so what is documented is what is enforced.
 */
import * as v from 'valibot';
import { KEY_ROLES } from '../auth/credentials';
import { EXPORT_COMPRESSIONS, EXPORT_FORMATS, MAPPING_RESULT_FIELDS } from '../../export-format/export-format';
import { SUPPLIER_REQUEST_STATUSES } from '../../suppliers/suppliers';

// --- shared pieces ---------------------------------------------------------------------------

export const Uuid = v.pipe(v.string(), v.uuid('must be a UUID'));
export const Timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601 timestamp'));

export const ErrorResponse = v.object({
  error: v.pipe(v.string(), v.description('HTTP status name, e.g. "Bad Request"')),
  message: v.pipe(v.string(), v.description('What went wrong, readable by a person')),
});

// --- authentication and API keys -------------------------------------------------------------

export const TokenRequest = v.object({
  grant_type: v.pipe(
    v.literal('client_credentials', 'grant_type must be "client_credentials"'),
    v.description('OAuth 2.0 grant type; only client_credentials is supported'),
  ),
  client_id: v.optional(v.pipe(v.string(), v.description('The API key prefix (hmk_<keyId>); or use HTTP Basic'))),
  client_secret: v.optional(v.pipe(v.string(), v.description('The full API key; or use HTTP Basic'))),
});

export const TokenResponse = v.object({
  access_token: v.pipe(v.string(), v.description('Send as Authorization: Bearer <access_token>')),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(v.number(), v.description('Seconds until the token expires')),
});

export const CreateApiKeyRequest = v.strictObject({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters')),
});

export const ApiKeyView = v.object({
  id: v.string(),
  name: v.string(),
  prefix: v.pipe(v.string(), v.description('Public part of the key (also the OAuth client id)')),
  role: v.picklist(KEY_ROLES),
  createdAt: Timestamp,
  revokedAt: v.optional(Timestamp),
});

export const CreatedApiKey = v.object({
  ...ApiKeyView.entries,
  apiKey: v.pipe(v.string(), v.description('The full key. Shown only in this response; store it safely.')),
});

export const ApiKeyList = v.object({ apiKeys: v.array(ApiKeyView), total: v.number() });

export const KeyIdParams = v.object({
  keyId: v.pipe(v.string(), v.regex(/^[0-9a-f]{12}$/, 'must be a key id (12 hexadecimal characters)')),
});

// --- suppliers -------------------------------------------------------------------------------

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

// --- export format ---------------------------------------------------------------------------

export const ExportFormatRequest = v.strictObject({
  format: v.picklist(EXPORT_FORMATS, 'must be one of json, csv, jsonl'),
  includeFields: v.optional(
    v.pipe(
      v.array(v.picklist(MAPPING_RESULT_FIELDS, `must be mapping result fields: ${MAPPING_RESULT_FIELDS.join(', ')}`)),
      v.minLength(1, 'must name at least one field; omit it for all fields'),
      v.check((fields) => new Set(fields).size === fields.length, 'must not repeat a field'),
    ),
  ),
  delimiter: v.optional(
    v.pipe(
      v.string(),
      v.length(1, 'must be exactly one character'),
      v.check((d) => !['"', '\n', '\r'].includes(d), 'must not be a quote or a line break'),
    ),
  ),
  includeHeader: v.optional(v.boolean('must be true or false')),
  compression: v.optional(v.picklist(EXPORT_COMPRESSIONS, 'must be gzip or none')),
});

export const ExportFormatView = v.object({
  id: Uuid,
  format: v.picklist(EXPORT_FORMATS),
  includeFields: v.optional(
    v.pipe(v.array(v.picklist(MAPPING_RESULT_FIELDS)), v.description('Absent when every field is included')),
  ),
  delimiter: v.string(),
  includeHeader: v.boolean(),
  compression: v.picklist(EXPORT_COMPRESSIONS),
  updatedAt: Timestamp,
});

// --- docs ------------------------------------------------------------------------------------

export const DocsAssetParams = v.object({ asset: v.string() });
