/**
 * A deprecated route says so on every answer, errors included: `Deprecation` (RFC 9745, the date
 * it was deprecated) and a `Link` to its successor, so clients and gateways can warn.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { RouteDefinition } from '../route';
import type { HttpMiddleware } from './state';

export function deprecation(notice: NonNullable<RouteDefinition['deprecated']>): HttpMiddleware {
  const headers = {
    deprecation: `@${Math.floor(Date.parse(notice.since) / 1000)}`,
    link: `<${notice.successor}>; rel="successor-version"`,
  };
  const mark = ({ response }: { response: APIGatewayProxyResult | null | undefined }) => {
    if (response) response.headers = { ...response.headers, ...headers };
  };
  return { after: mark, onError: mark };
}
