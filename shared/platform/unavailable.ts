/**
 * Whether a failure means a service the API depends on (DynamoDB, S3, …) cannot answer for now: its
 * connection refused or cut (DynamoDB Local stopped), a throttling answer, or a fault on its side.
 * Worth a retry a few seconds later, so the API answers 503 with Retry-After, not 500. Read from the
 * traits the AWS SDK sets on its errors ($retryable, $fault) and Node's network error codes.
 */

/** Node's codes for a connection that could not be made or was cut (the SDK passes them through). */
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Throttling answers of AWS services (DynamoDB's among them). */
const THROTTLING = new Set([
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'SlowDown',
  'ServiceUnavailable',
]);

const SDK_WRAPPED_CONNECTION_FAILURE = new RegExp(`^AWS SDK error wrapper for .*\\b(?:${[...CONNECTION_FAILURES].join('|')})\\b`);

interface SdkFailure {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  $fault?: unknown;
  $retryable?: { throttling?: unknown };
  $metadata?: { httpStatusCode?: unknown };
  cause?: unknown;
  errors?: unknown;
}

export function isUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const failure = error as SdkFailure;
  if (typeof failure.code === 'string' && CONNECTION_FAILURES.has(failure.code)) return true;
  // The SDK's retry wraps a failure that is not an Error of its own realm (under jest's VM modules,
  // a socket's) in a plain Error that keeps only its text.
  if (typeof failure.message === 'string' && SDK_WRAPPED_CONNECTION_FAILURE.test(failure.message)) return true;
  if (typeof failure.name === 'string' && (THROTTLING.has(failure.name) || failure.name === 'TimeoutError')) return true;
  if (failure.$retryable?.throttling === true) return true;
  const status = failure.$metadata?.httpStatusCode;
  if (failure.$fault === 'server' && (status === undefined || (typeof status === 'number' && status >= 500))) return true;
  // A connection tried on several addresses fails with all of them (AggregateError).
  if (Array.isArray(failure.errors) && failure.errors.some((inner) => isUnavailable(inner, depth + 1))) return true;
  return isUnavailable(failure.cause, depth + 1);
}
