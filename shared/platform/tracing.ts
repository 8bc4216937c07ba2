/**
 * X-Ray traces through Powertools for AWS Lambda's Tracer: each function's handler is a segment
 * (captureLambdaHandler in the HTTP pipeline and the queue workers), each AWS SDK call a
 * subsegment (`traced`), and the organization and the job a piece of work is for are annotations,
 * so a trace is found by them. Outside Lambda the tracer does nothing.
 */
// First: it keeps the X-Ray SDK from hooking every promise outside Lambda (tracing-mode.ts).
import { IN_LAMBDA } from './tracing-mode';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './metrics';

export { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';

export const tracer = new Tracer({ serviceName: SERVICE_NAME, ...(!IN_LAMBDA && { enabled: false }) });

/** The client, its calls traced where tracing is on. */
export function traced<Client>(client: Client): Client {
  return tracer.captureAWSv3Client(client);
}

/** Annotations a trace is searched by: `organizationId`, `jobId`. */
export function annotate(annotations: Readonly<Record<string, string | undefined>>): void {
  if (!tracer.isTracingEnabled()) return;
  for (const [key, value] of Object.entries(annotations)) if (value !== undefined) tracer.putAnnotation(key, value);
}
