/** Error responses most routes document. */
import {
  ORGANIZATION_REQUESTS_PER_SECOND,
  ORGANIZATION_SHARE_OF_A_ROUTE,
  refusesUnknownQuery,
  type ResponseDescription,
  type RouteDefinition,
} from './route';
import { ErrorResponse } from './schemas';

export const errors = {
  400: { description: 'Invalid request', schema: ErrorResponse },
  401: { description: 'Missing, invalid, expired or revoked credential', schema: ErrorResponse },
  403: { description: 'The credential may not do this', schema: ErrorResponse },
  404: { description: 'Not found', schema: ErrorResponse },
  413: { description: 'Body or file too large', schema: ErrorResponse },
  415: { description: 'Unsupported content type or file format', schema: ErrorResponse },
} as const;

/** What every API operation may answer beyond its own responses: the gateway's throttling, an unexpected failure and an unavailable dependency. */
const COMMON_ERRORS = {
  429: {
    description:
      `Too many requests: past the organization's share of the API a second (${ORGANIZATION_REQUESTS_PER_SECOND}, over all its credentials) or of a throttled ` +
      `operation (${ORGANIZATION_SHARE_OF_A_ROUTE * 100} % of its limit), or the gateway's limits per client IP, per credential, per operation and per stage: ` +
      'retry after the Retry-After seconds',
    schema: ErrorResponse,
    headers: { 'Retry-After': 'Seconds to wait before retrying' },
  },
  500: {
    description: 'An unexpected failure; the message names a reference to quote to support. Nothing half-done is left',
    schema: ErrorResponse,
  },
  503: {
    description: 'A service the API depends on is unavailable or throttling for now: retry after the Retry-After seconds',
    schema: ErrorResponse,
    headers: { 'Retry-After': 'Seconds to wait before retrying' },
  },
} as const;

/**
 * A route's documented responses, with what the pipeline adds: the 400 every API operation may
 * answer (refusesUnknownQuery), the gateway's 429, an unexpected 500 and an unavailable dependency's 503, an idempotent route's
 * 409 and 422 (idempotency.ts), and the headers answers carry (WWW-Authenticate on a 401,
 * Idempotent-Replayed on a replayed answer, Deprecation and Link on a deprecated route's).
 */
export function documentedResponses(route: RouteDefinition): RouteDefinition['responses'] {
  const responses: Record<number, ResponseDescription> = { ...route.responses };
  if (refusesUnknownQuery(route)) Object.assign(responses, COMMON_ERRORS, route.responses);
  if (!responses[400] && refusesUnknownQuery(route))
    responses[400] = {
      description: 'A query parameter the operation does not take, or a query parameter or header sent more than once',
      schema: ErrorResponse,
    };
  if (route.idempotent) {
    const stillRunning = 'a request with the same Idempotency-Key is still being processed';
    responses[409] = {
      description: responses[409]
        ? `${responses[409].description}; or ${stillRunning}`
        : `${stillRunning[0]!.toUpperCase()}${stillRunning.slice(1)}`,
      schema: ErrorResponse,
    };
    responses[422] = { description: 'The Idempotency-Key was used with another request', schema: ErrorResponse };
  }
  for (const [status, response] of Object.entries(responses)) {
    const headers: Record<string, string> = { ...response.headers };
    if (refusesUnknownQuery(route))
      headers['X-Request-Id'] =
        "The X-Request-Id sent, or the API's own request id: every log line of the work this request causes names it";
    if (status === '401') headers['WWW-Authenticate'] = 'Bearer: send an X-API-Key header or a bearer token';
    if (route.idempotent && status.startsWith('2'))
      headers['Idempotent-Replayed'] = 'true when this is the kept answer to an earlier request with the same Idempotency-Key';
    if (route.deprecated) {
      // In code spans: the reference renders descriptions as Markdown, where <…> would be an HTML tag.
      headers.Deprecation = `\`@<Unix seconds>\`: the operation is deprecated since ${route.deprecated.since} (RFC 9745)`;
      headers.Link = `\`<${route.deprecated.successor}>; rel="successor-version"\``;
    }
    if (Object.keys(headers).length) responses[Number(status)] = { ...response, headers };
  }
  return responses;
}
