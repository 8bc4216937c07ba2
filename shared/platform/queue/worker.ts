/**
 * The handler of a queue's worker function: a middy handler that validates each record's message,
 * processes the records one after another, and reports the failed ones to SQS (partial batch
 * failure), so only those are delivered again and, after maxReceiveCount, dead-lettered.
 */
import middy from '@middy/core';
import sqsPartialBatchFailure from '@middy/sqs-partial-batch-failure';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { describeError, log } from '../logging';
import { environmentRuntime, type Runtime } from '../runtime';
import type { QueueDefinition } from './queue';

export type MessageProcessor<M> = (message: M, runtime: Runtime, record: SQSRecord) => Promise<void>;

export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

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
    handler.use(
      sqsPartialBatchFailure({
        logger: (reason: unknown, record: SQSRecord) =>
          log('error', 'queue message failed', { queue: label, messageId: record.messageId, ...describeError(reason) }),
      }),
    );
    handler.handler(async (event) => {
      const settled: PromiseSettledResult<void>[] = [];
      for (const record of event.Records) {
        settled.push(
          await Promise.resolve()
            .then(() => process(parseMessage(queue, record), runtime(), record))
            .then(
              (value) => ({ status: 'fulfilled' as const, value }),
              (reason: unknown) => ({ status: 'rejected' as const, reason }),
            ),
        );
      }
      // The partial-batch middleware turns the settled results into batchItemFailures.
      return settled as unknown as SQSBatchResponse;
    });
    return (event) => handler(event, {} as never);
  };
  const lambda = build(environmentRuntime) as WorkerFunction;
  lambda.queue = queue;
  lambda.withRuntime = (runtime) => build(() => runtime);
  return lambda;
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
