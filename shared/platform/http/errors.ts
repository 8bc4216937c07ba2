/**
 * Every error answer is `{ "error": "<status name>", "message": "<readable text>" }`.
 */
import { STATUS_CODES } from 'node:http';
import { DomainError, type FailureKind } from '../errors';
import { isUnavailable } from '../unavailable';

export interface ErrorBody {
  error: string;
  message: string;
}

/** An HTTP-level failure (framing, content type, size) raised before the domain is reached. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Sent as Retry-After (a 429's). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

const STATUS_OF_FAILURE: Record<FailureKind, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  // The contract reports rate limits and the plan's supplier limit as 400 Bad Request.
  rate_limited: 400,
  limit_reached: 400,
  unsupported_format: 415,
};

export function statusName(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export function errorBody(status: number, message: string): ErrorBody {
  return { error: statusName(status), message };
}

/** How long a caller waits before retrying when a service the API depends on is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Status and body for a thrown value; undefined for an unexpected failure (a 500). */
export function describeFailure(error: unknown): { status: number; body: ErrorBody; retryAfterSeconds?: number } | undefined {
  if (error instanceof HttpError)
    return {
      status: error.status,
      body: errorBody(error.status, error.message),
      ...(error.retryAfterSeconds !== undefined && { retryAfterSeconds: error.retryAfterSeconds }),
    };
  if (isUnavailable(error)) {
    return {
      status: 503,
      body: errorBody(503, 'A service the API depends on is unavailable. Retry in a few seconds.'),
      retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
    };
  }
  if (error instanceof DomainError) {
    const status = STATUS_OF_FAILURE[error.kind];
    return { status, body: errorBody(status, error.message) };
  }
  return undefined;
}
