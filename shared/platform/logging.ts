/**
 * Structured JSON logs, one object per line, through Powertools for AWS Lambda's Logger: the
 * service, the level, the Lambda context where there is one, and the correlation id of the work
 * in progress (correlation.ts). Callers pass fields, never headers or bodies, so no credential can
 * reach a log line. The level is LOG_LEVEL's (debug, info, warn, error, silent), read as each line
 * is written, so a test or an operator can change it without a restart.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@aws-lambda-powertools/logger';
import { currentCorrelationId } from './correlation';
import { SERVICE_NAME } from './metrics';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Filters nothing itself: `log` applies LOG_LEVEL. */
export const logger = new Logger({ serviceName: SERVICE_NAME, logLevel: 'DEBUG' });

function threshold(): number {
  const configured = (process.env.LOG_LEVEL ?? 'info').toLowerCase();
  return ORDER[configured as Level] ?? ORDER.info;
}

/** The function an invocation runs and its request id, as the Lambda context names them in a log line. */
export interface Invocation {
  functionName: string;
  requestId: string;
}

const invocations = new AsyncLocalStorage<Invocation>();

/**
 * Runs one invocation with its function's name and request id on every log line it writes. In
 * Lambda, a container runs one invocation at a time and the logger's Lambda context says them; the
 * local runtime runs many functions at once in one process, where that shared context would name
 * whichever was invoked last.
 */
export function withInvocation<T>(invocation: Invocation, work: () => T): T {
  return invocations.run(invocation, work);
}

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (ORDER[level] < threshold()) return;
  const correlationId = currentCorrelationId();
  const invocation = invocations.getStore();
  logger[level](message, {
    ...(invocation && { function_name: invocation.functionName, function_request_id: invocation.requestId }),
    ...(correlationId !== undefined && { correlationId }),
    ...fields,
  });
}

export function describeError(error: unknown): Record<string, unknown> {
  return error instanceof Error ? { errorName: error.name, errorMessage: error.message, stack: error.stack } : { error };
}
