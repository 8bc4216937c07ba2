import * as v from 'valibot';
import { errors } from '../platform/http/responses';
import { defineRoute, type RouteDefinition } from '../platform/http/route';

export const consoleRoutes = {
  consolePage: defineRoute({
    method: 'GET',
    path: '/console',
    handler: 'console/page',
    internal: true,
    auth: 'none',
    tag: 'Documentation',
    summary: 'The review console: jobs, their review queues and the mapping book, for a person signed in with an API key',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    access: { table: 'none' },
  }),
  consoleAsset: defineRoute({
    method: 'GET',
    path: '/console/{asset}',
    handler: 'console/asset',
    internal: true,
    auth: 'none',
    tag: 'Documentation',
    summary: "The review console's scripts and style sheet",
    params: v.object({ asset: v.string() }),
    responses: { 200: { description: 'Script or style sheet', contentType: 'text/javascript' }, 404: errors[404] },
    access: { table: 'none' },
  }),
} satisfies Record<string, RouteDefinition>;
