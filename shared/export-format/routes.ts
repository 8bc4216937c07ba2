import { defineRoute, type RouteDefinition } from '../platform/http/route';
import { ErrorResponse } from '../platform/http/schemas';
import * as schemas from './schemas';
import { errors } from '../platform/http/responses';

export const exportFormatRoutes = {
  putExportFormat: defineRoute({
    method: 'PUT',
    path: '/api/v1/export-format',
    handler: 'export-format/put',
    auth: 'required',
    tag: 'Export format',
    summary: "Create or fully replace the organization's export format",
    description:
      'Every field sent replaces the stored configuration, which keeps its id; left-out optional fields take their defaults. POST /api/v1/mapping/{jobId}/export writes files in this format.',
    body: {
      kind: 'json',
      schema: schemas.ExportFormatRequest,
      example: {
        format: 'csv',
        includeFields: ['partnerHotelId', 'referenceHotelId', 'status', 'score'],
        delimiter: ';',
        includeHeader: true,
        compression: 'gzip',
      },
    },
    responses: {
      200: { description: 'The saved configuration', schema: schemas.ExportFormatView },
      400: errors[400],
      401: errors[401],
      413: errors[413],
      415: errors[415],
    },
    access: { table: 'readwrite' },
  }),
  getExportFormat: defineRoute({
    method: 'GET',
    path: '/api/v1/export-format',
    handler: 'export-format/get',
    auth: 'required',
    tag: 'Export format',
    summary: "The organization's export format",
    description: '404 until one has been set with PUT; exports then use CSV with every field, a header row, comma, uncompressed.',
    responses: {
      200: { description: 'The configuration', schema: schemas.ExportFormatView },
      401: errors[401],
      404: { description: 'No export format has been set', schema: ErrorResponse },
    },
    access: { table: 'read' },
  }),
} satisfies Record<string, RouteDefinition>;
