/** Error responses most routes document. */
import { ErrorResponse } from './schemas';

export const errors = {
  400: { description: 'Invalid request', schema: ErrorResponse },
  401: { description: 'Missing, invalid, expired or revoked credential', schema: ErrorResponse },
  403: { description: 'The credential may not do this', schema: ErrorResponse },
  404: { description: 'Not found', schema: ErrorResponse },
  413: { description: 'Body or file too large', schema: ErrorResponse },
  415: { description: 'Unsupported content type or file format', schema: ErrorResponse },
} as const;
