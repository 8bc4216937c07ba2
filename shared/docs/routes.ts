import { defineRoute, type RouteDefinition } from '../platform/http/route';
import * as v from 'valibot';
import { errors } from '../platform/http/responses';

export const docsRoutes = {
  openApiDocument: defineRoute({
    method: 'GET',
    path: '/api/v1/openapi.json',
    handler: 'docs/openapi',
    auth: 'none',
    tag: 'Documentation',
    summary: 'This OpenAPI 3.1 document',
    description:
      'Generated from the route table whose schemas validate every request, so what it documents is what is enforced. Generate clients from it.',
    responses: {
      200: {
        description: 'OpenAPI 3.1 document',
        schema: v.pipe(v.record(v.string(), v.unknown()), v.description('An OpenAPI 3.1 document: https://spec.openapis.org/oas/v3.1.0')),
      },
    },
    access: { table: 'none' },
  }),
  docsPage: defineRoute({
    method: 'GET',
    path: '/docs',
    handler: 'docs/page',
    internal: true,
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
    internal: true,
    auth: 'none',
    tag: 'Documentation',
    summary: "The docs pages' scripts and style sheets",
    params: v.object({ asset: v.string() }),
    responses: { 200: { description: 'Script or style sheet', contentType: 'text/javascript' }, 404: errors[404] },
    access: { table: 'none' },
  }),
  guidesIndex: defineRoute({
    method: 'GET',
    path: '/docs/guides',
    handler: 'docs/guides',
    internal: true,
    auth: 'none',
    tag: 'Documentation',
    summary: 'The guides (for partners, operators and contributors) and their sections',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    access: { table: 'none' },
  }),
  guidePage: defineRoute({
    method: 'GET',
    path: '/docs/guides/{guide}',
    handler: 'docs/guide',
    internal: true,
    auth: 'none',
    tag: 'Documentation',
    summary: 'One guide (partner, operator or contributor), from its Markdown in docs/guides/',
    params: v.object({ guide: v.string() }),
    responses: { 200: { description: 'HTML page', contentType: 'text/html' }, 404: errors[404] },
    access: { table: 'none' },
  }),
} satisfies Record<string, RouteDefinition>;
