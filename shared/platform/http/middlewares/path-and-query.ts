/** Validates the path parameters and the query string against the route's schemas. */
import type { RouteDefinition } from '../route';
import { validate } from '../validation';
import type { HttpMiddleware } from './state';

export function pathAndQuery(route: RouteDefinition): HttpMiddleware {
  return {
    before: ({ event, context }) => {
      context.http.params = validate(route.params, event.pathParameters, 'path');
      context.http.query = validate(route.query, event.queryStringParameters, 'query');
    },
  };
}
