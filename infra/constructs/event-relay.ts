/**
 * The outbox relay (shared/platform/events/relay.ts): fed by the table's stream, filtered to new
 * event items, in order (no bisecting), retried until the queue takes each event; a batch still
 * failing after a day (the stream's retention) goes to a failure queue, alarmed. That alarm comes
 * when the records are gone; the age of the oldest record the relay has yet to take (IteratorAge)
 * tells within minutes that it is stuck. The failure queue and the alarms are the function's
 * siblings, EventRelayFailures, EventRelayFailuresAlarm and EventRelayIteratorAgeAlarm.
 */
import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { EVENT_RELAY } from '../../shared/platform/events/relay';
import { ALARM_THRESHOLDS, notify } from './alarms';
import { AnyMessageAlarm } from './any-message-alarm';
import { ServiceFunction } from './service-function';
import type { ServiceResources } from './service-resources';

export interface EventRelayProps {
  /** The table whose stream feeds the relay. */
  table: dynamodb.ITable;
  resources: ServiceResources;
  /** Where the failure alarm goes. */
  alarmTopic: sns.ITopic;
  /** What deleting the stack does to the function's log group. */
  removalPolicy: RemovalPolicy;
  /** The queues besides the domain events' that outbox items name (as the relay's function file gives them). */
  relayedQueues: readonly string[];
}

export class EventRelay extends ServiceFunction {
  /** The batches the stream gave up on. */
  readonly failures: sqs.Queue;
  /** Fires when the relay falls behind the stream. */
  readonly iteratorAgeAlarm: cloudwatch.Alarm;

  constructor(scope: Construct, { table, resources, alarmTopic, removalPolicy, relayedQueues }: EventRelayProps) {
    const access = { ...EVENT_RELAY.access, sendsTo: [...EVENT_RELAY.access.sendsTo, ...relayedQueues] };
    super(scope, {
      handler: EVENT_RELAY.handler,
      description: EVENT_RELAY.description,
      sizing: EVENT_RELAY.lambda,
      environment: resources.environmentFor({ access }),
      removalPolicy,
    });
    resources.grant(this, { access });
    this.failures = new sqs.Queue(scope, 'EventRelayFailures', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: EVENT_RELAY.batchSize,
        reportBatchItemFailures: true,
        bisectBatchOnError: false,
        retryAttempts: 10_000,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(this.failures),
        filters: [
          lambda.FilterCriteria.filter({
            // The CDK types its filter rules as any.
            eventName: lambda.FilterRule.isEqual(EVENT_RELAY.filter.eventName) as unknown,
            dynamodb: { Keys: { SK: { S: lambda.FilterRule.beginsWith(EVENT_RELAY.filter.sortKeyPrefix) } } },
          }),
        ],
      }),
    );
    Validations.of(this.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "X-Ray's PutTraceSegments and PutTelemetryRecords (active tracing) and dynamodb:ListStreams (the stream event source) take no resource.",
    });
    Validations.of(this.failures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "It is the stream event source's failure destination, a dead-letter queue of its own; nothing consumes it but an operator.",
    });
    new AnyMessageAlarm(scope, 'EventRelayFailuresAlarm', {
      queue: this.failures,
      description: 'Events recorded in the table could not be relayed to the domain-events queue for a day',
      alarmTopic,
    });
    this.iteratorAgeAlarm = new cloudwatch.Alarm(scope, 'EventRelayIteratorAgeAlarm', {
      alarmDescription:
        `The outbox relay is more than ${ALARM_THRESHOLDS.eventRelayIteratorAgeSeconds / 60} minutes behind the table's stream: ` +
        'events are not reaching webhooks, and records older than a day are lost',
      metric: this.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(5) }),
      threshold: ALARM_THRESHOLDS.eventRelayIteratorAgeSeconds * 1000,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    notify(this.iteratorAgeAlarm, alarmTopic);
  }
}
