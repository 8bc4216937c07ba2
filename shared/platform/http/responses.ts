/** Error responses most routes document. */
import { refusesUnknownQuery, type RouteDefinition } from './route';
import { ErrorResponse } from './schemas';

export const errors = {
  400: { description: 'Invalid request', schema: ErrorResponse },
  401: { description: 'Missing, invalid, expired or revoked credential', schema: ErrorResponse },
  403: { description: 'The credential may not do this', schema: ErrorResponse },
  404: { description: 'Not found', schema: ErrorResponse },
  413: { description: 'Body or file too large', schema: ErrorResponse },
  415: { description: 'Unsupported content type or file format', schema: ErrorResponse },
} as const;

/**
 * A route's documented responses, with those the pipeline adds: the 400 every API operation may
 * answer (refusesUnknownQuery), and an idempotent route's 409 and 422 (idempotency.ts).
 */
export function documentedResponses(route: RouteDefinition): RouteDefinition['responses'] {
  const responses = { ...route.responses };
  if (!responses[400] && refusesUnknownQuery(route)) responses[400] = { description: 'A query parameter the operation does not take', schema: ErrorResponse };
  if (route.idempotent) {
    const stillRunning = 'a request with the same Idempotency-Key is still being processed';
    responses[409] = {
      description: responses[409] ? `${responses[409].description}; or ${stillRunning}` : `${stillRunning[0]!.toUpperCase()}${stillRunning.slice(1)}`,
      schema: ErrorResponse,
    };
    responses[422] = { description: 'The Idempotency-Key was used with another request', schema: ErrorResponse };
  }
  return responses;
}
