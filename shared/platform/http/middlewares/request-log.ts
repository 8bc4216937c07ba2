/**
 * Starts the request state (request id, headers, base URL), writes one log line per request with
 * its status and duration, and answers the request's correlation id as X-Request-Id (the
 * partner's own, when sent: one that is not 1 to 128 visible ASCII characters is refused). Never
 * headers or bodies, so no credential reaches a log.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { currentCorrelationId, REQUEST_ID_FORMAT, REQUEST_ID_HEADER } from '../../correlation';
import { invalidInput } from '../../errors';
import { log } from '../../logging';
import type { RouteDefinition } from '../route';
import type { HttpMiddleware } from './state';

export function requestLog(route: RouteDefinition): HttpMiddleware {
  const write: NonNullable<HttpMiddleware['after']> = ({ context, response }) => {
    const correlationId = currentCorrelationId();
    if (response && correlationId) response.headers = { ...response.headers, 'x-request-id': correlationId };
    log('info', 'request', {
      requestId: context.http.requestId,
      method: route.method,
      route: route.path,
      status: response?.statusCode,
      durationMs: Date.now() - context.http.startedAt,
      organizationId: context.http.principal?.organizationId,
    });
  };
  return {
    before: ({ event, context }) => {
      const headers = event.headers as Record<string, string | undefined>;
      context.http = {
        startedAt: Date.now(),
        requestId: event.requestContext?.requestId ?? context.awsRequestId ?? 'local',
        headers,
        baseUrl: baseUrlOf(event, headers),
        principal: undefined,
        params: {},
        query: {},
        body: undefined,
      };
      const sent = headers[REQUEST_ID_HEADER];
      if (sent !== undefined && !REQUEST_ID_FORMAT.test(sent))
        throw invalidInput('X-Request-Id must be 1 to 128 visible ASCII characters (no spaces).');
    },
    after: write,
    onError: write,
  };
}

/**
 * `https://<domain>/<stage>`, from what API Gateway itself says: the domain it answered on and the
 * scheme it sets, never the caller's Host header. requestContext.path carries the stage prefix
 * that event.path lacks.
 */
function baseUrlOf(event: APIGatewayProxyEvent, headers: Record<string, string | undefined>): string {
  const proto = headers['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  const host = event.requestContext?.domainName ?? 'localhost';
  const fullPath = event.requestContext?.path ?? event.path;
  const stagePrefix = fullPath.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : '';
  return `${proto}://${host}${stagePrefix}`;
}
