/**
 * Every failure becomes `{error, message}` with its status; an unavailable dependency answers 503
 * with Retry-After (logged as a warning); an unexpected one is logged with the request id and
 * answered 500 without internals.
 */
import { describeError, log } from '../../logging';
import { describeFailure, errorBody } from '../errors';
import type { RouteDefinition } from '../route';
import type { HttpMiddleware } from './state';

const JSON_CONTENT = 'application/json; charset=utf-8';

export function errorModel(route: RouteDefinition): HttpMiddleware {
  return {
    onError: (request) => {
      const requestId = request.context.http?.requestId ?? 'local';
      const known = describeFailure(request.error);
      if (known) {
        const headers: Record<string, string> = { 'content-type': JSON_CONTENT };
        if (known.status === 401) headers['www-authenticate'] = 'Bearer';
        if (known.retryAfterSeconds !== undefined) headers['retry-after'] = String(known.retryAfterSeconds);
        if (known.status === 503)
          log('warn', 'a service the API depends on is unavailable', { requestId, route: route.path, ...describeError(request.error) });
        request.response = { statusCode: known.status, headers, body: JSON.stringify(known.body) };
        return;
      }
      log('error', 'unexpected failure', { requestId, route: route.path, ...describeError(request.error) });
      request.response = {
        statusCode: 500,
        headers: { 'content-type': JSON_CONTENT },
        body: JSON.stringify(errorBody(500, `An unexpected error occurred. Reference: ${requestId}.`)),
      };
    },
  };
}
