/**
 * The handler of a queue's worker function: a middy handler that validates each record's message,
 * processes the records one after another, each under the correlation id its sender gave it (a
 * message attribute; else the message id), and reports the failed ones to SQS (partial batch
 * failure), so only those are delivered again and, after maxReceiveCount, dead-lettered. From a
 * FIFO queue, the records after a failed one of the same group are not processed but reported
 * failed too, so the group is worked again in its order. Log lines carry the Lambda context the
 * function was invoked with.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import sqsPartialBatchFailure from '@middy/sqs-partial-batch-failure';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { CORRELATION_ID_ATTRIBUTE, withCorrelationId } from '../correlation';
import { describeError, log, logger } from '../logging';
import { annotate, captureLambdaHandler, tracer } from '../tracing';
import { environmentRuntime, type Runtime } from '../runtime';
import type { QueueDefinition } from './queue';

export type MessageProcessor<M> = (message: M, runtime: Runtime, record: SQSRecord) => Promise<void>;

/**
 * One receive of a queue message. SQS hands a message out again (same id, higher count) only once
 * the earlier receive's visibility timeout has run out, well after its worker's own timeout; the
 * local runtime does so at once when that worker died with its process. Either way, a later
 * receive of the same message means the worker of an earlier one is gone.
 */
export interface MessageReceive {
  messageId: string;
  receiveCount: number;
}

export function receiveOf(record: SQSRecord): MessageReceive {
  return { messageId: record.messageId, receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 1) };
}

/** Whether `later` is the same message as `earlier`, handed out again after it. */
export function isLaterReceive(later: MessageReceive, earlier: MessageReceive | undefined): boolean {
  return earlier !== undefined && later.messageId === earlier.messageId && later.receiveCount > earlier.receiveCount;
}

/** Lambda passes its context; the local runtime and tests may give what they have, or none. */
export type SqsHandler = (event: SQSEvent, context?: Partial<Context>) => Promise<SQSBatchResponse>;

export interface WorkerFunction extends SqsHandler {
  queue: QueueDefinition;
  /** The same handler over another runtime (the local runtime, tests). */
  withRuntime(runtime: Runtime): SqsHandler;
}

/** The worker of the queue's messages. */
export function queueWorker<M>(queue: QueueDefinition<M>, process: MessageProcessor<M>): WorkerFunction {
  return composeWorker(queue, queue.name, process);
}

/** The worker of the messages the queue dead-lettered (same bodies). */
export function deadLetterWorker<M>(queue: QueueDefinition<M>, process: MessageProcessor<M>): WorkerFunction {
  return composeWorker(queue, `${queue.name} dead letters`, process);
}

function composeWorker<M>(queue: QueueDefinition<M>, label: string, process: MessageProcessor<M>): WorkerFunction {
  const build = (runtime: () => Runtime): SqsHandler => {
    const handler = middy<SQSEvent, SQSBatchResponse>();
    handler.use(injectLambdaContext(logger));
    handler.use(captureLambdaHandler(tracer, { captureResponse: false }));
    handler.use(
      sqsPartialBatchFailure({
        logger: (reason: unknown, record: SQSRecord) =>
          log('error', 'queue message failed', {
            queue: label,
            messageId: record.messageId,
            correlationId: correlationIdOf(record),
            ...describeError(reason),
          }),
      }),
    );
    handler.handler(async (event) => {
      const settled: PromiseSettledResult<void>[] = [];
      const failedGroups = new Set<string>();
      for (const record of event.Records) {
        const group = record.attributes?.MessageGroupId;
        if (group !== undefined && failedGroups.has(group)) {
          settled.push({ status: 'rejected', reason: new Error(`Not processed: an earlier message of its FIFO group (${group}) failed.`) });
          continue;
        }
        const processed = withCorrelationId(correlationIdOf(record), async () => {
          const message = parseMessage(queue, record);
          annotate({ ...organizationOf(message), ...queue.traceAnnotations?.(message) });
          return process(message, runtime(), record);
        });
        const outcome = await processed.then(
          (value) => ({ status: 'fulfilled' as const, value }),
          (reason: unknown) => ({ status: 'rejected' as const, reason }),
        );
        if (outcome.status === 'rejected' && group !== undefined) failedGroups.add(group);
        settled.push(outcome);
      }
      // The partial-batch middleware turns the settled results into batchItemFailures.
      return settled as unknown as SQSBatchResponse;
    });
    return (event, context = {}) => handler(event, context as Context);
  };
  const lambda = build(environmentRuntime) as WorkerFunction;
  lambda.queue = queue;
  lambda.withRuntime = (runtime) => build(() => runtime);
  return lambda;
}

/** The organization a message is for, where it says (most do): what its trace is found by. */
function organizationOf(message: unknown): Record<string, string | undefined> {
  const { organizationId } = (message ?? {}) as { organizationId?: unknown };
  return { organizationId: typeof organizationId === 'string' ? organizationId : undefined };
}

function correlationIdOf(record: SQSRecord): string {
  return record.messageAttributes?.[CORRELATION_ID_ATTRIBUTE]?.stringValue ?? record.messageId;
}

function parseMessage<M>(queue: QueueDefinition<M>, record: SQSRecord): M {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    throw new Error(`Message ${record.messageId} on ${queue.name} is not JSON.`);
  }
  const result = v.safeParse(queue.schema, body);
  if (!result.success) {
    throw new Error(`Message ${record.messageId} on ${queue.name} is malformed: ${result.issues[0].message}`);
  }
  return result.output;
}
