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

/** A route's documented responses, with the 400 every API operation may answer (refusesUnknownQuery). */
export function documentedResponses(route: RouteDefinition): RouteDefinition['responses'] {
  if (route.responses[400] || !refusesUnknownQuery(route)) return route.responses;
  return { ...route.responses, 400: { description: 'A query parameter the operation does not take', schema: ErrorResponse } };
}
