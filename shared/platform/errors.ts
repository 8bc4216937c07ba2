/**
 * Failures the domain reports. The domain names what went wrong; the HTTP edge decides the status
 * (see http/errors.ts), so rules such as "a rate limit answers 400" live in one place.
 */
export type FailureKind =
  | 'invalid_input'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'rate_limited'
  | 'limit_reached'
  | 'unsupported_format';

export class DomainError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidInput = (message: string) => new DomainError('invalid_input', message);
export const unauthenticated = (message: string) => new DomainError('unauthenticated', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const gone = (message: string) => new DomainError('gone', message);
export const rateLimited = (message: string) => new DomainError('rate_limited', message);
export const limitReached = (message: string) => new DomainError('limit_reached', message);
export const unsupportedFormat = (message: string) => new DomainError('unsupported_format', message);
