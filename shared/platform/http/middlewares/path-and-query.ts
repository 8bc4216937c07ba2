/** Validates the path parameters and the query string against the route's schemas. */
import { invalidInput } from '../../errors';
import { refusesUnknownQuery, type RouteDefinition } from '../route';
import { unknownFieldMessage, validate } from '../validation';
import type { HttpMiddleware } from './state';

export function pathAndQuery(route: RouteDefinition): HttpMiddleware {
  return {
    before: ({ event, context }) => {
      context.http.params = validate(route.params, event.pathParameters, 'path');
      const query = event.queryStringParameters ?? {};
      for (const [name, value] of Object.entries(query)) {
        // A percent-escape that is not UTF-8 reaches the function as U+FFFD (API Gateway and the local runtime alike).
        if (`${name}${value ?? ''}`.includes('\uFFFD'))
          throw invalidInput(`The query parameter ${name.replaceAll('\uFFFD', '?')} is not valid UTF-8 percent-encoding.`);
      }
      // A route without query parameters refuses them as a strict schema does: a misspelt one is never silently ignored.
      const unknown = route.query || !refusesUnknownQuery(route) ? undefined : Object.keys(query)[0];
      if (unknown !== undefined) throw invalidInput(unknownFieldMessage(unknown, 'query'));
      context.http.query = validate(route.query, event.queryStringParameters, 'query');
    },
  };
}
