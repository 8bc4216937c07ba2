/**
 * The worker of a queue of the queue table: its function, with exactly the access the queue
 * declares, fed by the queue in batches and reporting the messages that failed (only those come
 * back), never more invocations at once than the queue's maximum concurrency (each group of a FIFO
 * queue one at a time within it); and, when the queue has one, its dead-letter handler, fed by the
 * dead-letter queue, two at a time, and alarmed at its first error (its dead letters would
 * otherwise wait unsettled). The handler is the worker's sibling, named after its own file
 * (ServiceFunction); its alarm is `<name>ErrorsAlarm`.
 */
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { functionName } from '../../shared/platform/http/route';
import { notify } from './alarms';
import { DEAD_LETTER_HANDLER_SIZING, type DeadLetteredQueue } from './dead-lettered-queue';
import { ServiceFunction } from './service-function';
import { acknowledgeTracing } from '../nag-acknowledgements';
import type { ServiceResources } from './service-resources';

export interface QueueWorkerProps {
  /** The queue it works, with its definition from the queue table. */
  queue: DeadLetteredQueue;
  resources: ServiceResources;
  /** What deleting the stack does to the functions' log groups. */
  removalPolicy: RemovalPolicy;
  /** Where the dead-letter handler's error alarm goes. */
  alarmTopic: sns.ITopic;
}

/** Dead letters are few and each is settled in milliseconds: two at a time drain any burst. */
const DEAD_LETTER_HANDLER_MAX_CONCURRENCY = 2;

export class QueueWorker extends ServiceFunction {
  /** Takes the dead letters, when the queue table names a function for them. */
  readonly deadLetterHandler?: ServiceFunction;
  /** Fires at the dead-letter handler's first error. */
  readonly deadLetterHandlerErrorsAlarm?: cloudwatch.Alarm;

  constructor(scope: Construct, { queue, resources, removalPolicy, alarmTopic }: QueueWorkerProps) {
    const { definition } = queue;
    super(scope, {
      handler: definition.handler,
      description: definition.description,
      sizing: definition.lambda,
      environment: resources.environmentFor({ access: definition.access }),
      removalPolicy,
    });
    resources.grant(this, { access: definition.access });
    acknowledgeTracing(this.role!);
    // No batching window: a FIFO queue takes none, and the others want their messages at once.
    this.addEventSource(
      new SqsEventSource(queue, {
        batchSize: definition.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: definition.concurrency.max,
      }),
    );
    if (definition.deadLetterHandler) {
      // Its own access, never the worker's by default: it settles what failed, it does not redo the work.
      const access = definition.deadLetterAccess;
      if (!access) throw new Error(`${definition.name}: a queue with a dead-letter handler declares its deadLetterAccess.`);
      const handler = new ServiceFunction(scope, {
        handler: definition.deadLetterHandler,
        description: `Dead letters of ${definition.name}`,
        sizing: DEAD_LETTER_HANDLER_SIZING,
        environment: resources.environmentFor({ access }),
        removalPolicy,
      });
      resources.grant(handler, { access });
      acknowledgeTracing(handler.role!);
      handler.addEventSource(
        new SqsEventSource(queue.deadLetters, {
          batchSize: 10,
          reportBatchItemFailures: true,
          maxConcurrency: DEAD_LETTER_HANDLER_MAX_CONCURRENCY,
        }),
      );
      this.deadLetterHandler = handler;
      this.deadLetterHandlerErrorsAlarm = new cloudwatch.Alarm(
        scope,
        `${functionName({ handler: definition.deadLetterHandler })}ErrorsAlarm`,
        {
          alarmDescription: `The dead-letter handler of ${definition.name} failed: what was dead-lettered is not settled`,
          metric: handler.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        },
      );
      notify(this.deadLetterHandlerErrorsAlarm, alarmTopic);
    }
  }
}
