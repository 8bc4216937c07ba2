/**
 * One correlation id per piece of work a partner started: the API request's (the partner's own
 * `X-Request-Id`, or the gateway's request id), carried in every queue message it causes (a
 * message attribute), in the events it records and in the webhook deliveries they make, so that
 * every log line of that work names it. Kept per asynchronous flow (AsyncLocalStorage): the local
 * runtime serves many requests and messages in one process at once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string>();

/** Runs `work` with this correlation id: the log lines it writes and the messages it sends carry it. */
export function withCorrelationId<T>(correlationId: string, work: () => T): T {
  return current.run(correlationId, work);
}

export function currentCorrelationId(): string | undefined {
  return current.getStore();
}

/** The SQS message attribute that carries it. */
export const CORRELATION_ID_ATTRIBUTE = 'correlationId';

/** The request header a partner may set (echoed on every answer), and its form. */
export const REQUEST_ID_HEADER = 'x-request-id';
export const REQUEST_ID_FORMAT = /^[\x21-\x7e]{1,128}$/;
