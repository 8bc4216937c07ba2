import { defineRoute, type RouteDefinition } from '../platform/http/route';
import { ErrorResponse } from '../platform/http/schemas';
import * as s from './schemas';
import { errors } from '../platform/http/responses';

export const exportFormatRoutes = {
  putExportFormat: defineRoute({
    method: 'PUT',
    path: '/api/v1/export-format',
    handler: 'export-format/put',
    auth: 'required',
    tag: 'Export format',
    summary: "Create or fully replace the organization's export format",
    body: { kind: 'json', schema: s.ExportFormatRequest },
    responses: { 200: { description: 'The saved configuration', schema: s.ExportFormatView }, 400: errors[400], 401: errors[401], 413: errors[413], 415: errors[415] },
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
      404: { description: 'No export format has been set', schema: ErrorResponse },
    },
    access: { table: 'read' },
  }),
} satisfies Record<string, RouteDefinition>;
