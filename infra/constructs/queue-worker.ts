/**
 * The worker of a queue of the queue table: its function, with exactly the access the queue
 * declares, fed by the queue in batches and reporting the messages that failed (only those come
 * back), never more invocations at once than the queue's concurrency allows; and, when the queue
 * has one, its dead-letter handler, fed by the dead-letter queue, two at a time. The
 * handler is the worker's sibling, named after its own file (ServiceFunction).
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import type { DeadLetteredQueue } from './dead-lettered-queue';
import { ServiceFunction } from './service-function';
import type { ServiceResources } from './service-resources';

export interface QueueWorkerProps {
  /** The queue it works, with its definition from the queue table. */
  queue: DeadLetteredQueue;
  resources: ServiceResources;
  /** What deleting the stack does to the functions' log groups. */
  removalPolicy: RemovalPolicy;
}

/** A dead-letter handler's sizing: it settles what failed (a job, a delivery), it does not redo the work. */
const DEAD_LETTER_HANDLER_SIZING = { memoryMb: 256, timeoutSeconds: 30 };
/** Dead letters are few and each is settled in milliseconds: two at a time drain any burst. */
const DEAD_LETTER_HANDLER_MAX_CONCURRENCY = 2;

export class QueueWorker extends ServiceFunction {
  /** Takes the dead letters, when the queue table names a function for them. */
  readonly deadLetterHandler?: ServiceFunction;

  constructor(scope: Construct, { queue, resources, removalPolicy }: QueueWorkerProps) {
    const { definition } = queue;
    super(scope, {
      handler: definition.handler,
      description: definition.description,
      sizing: { ...definition.lambda, reservedConcurrency: 'reserved' in definition.concurrency ? definition.concurrency.reserved : undefined },
      environment: resources.environmentFor({ access: definition.access }),
      removalPolicy,
    });
    resources.grant(this, { access: definition.access });
    this.addEventSource(
      new SqsEventSource(queue, {
        batchSize: definition.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: 'max' in definition.concurrency ? definition.concurrency.max : undefined,
      }),
    );
    if (definition.deadLetterHandler) {
      const access = definition.deadLetterAccess ?? definition.access;
      const handler = new ServiceFunction(scope, {
        handler: definition.deadLetterHandler,
        description: `Dead letters of ${definition.name}`,
        sizing: DEAD_LETTER_HANDLER_SIZING,
        environment: resources.environmentFor({ access }),
        removalPolicy,
      });
      resources.grant(handler, { access });
      handler.addEventSource(
        new SqsEventSource(queue.deadLetters, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: DEAD_LETTER_HANDLER_MAX_CONCURRENCY }),
      );
      this.deadLetterHandler = handler;
    }
  }
}
