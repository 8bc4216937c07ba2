/**
 * An alarm, sent to the alarm topic, as soon as a queue of things that went wrong takes a message.
 * A queue nobody drains shows it as a visible message; one a handler drains within seconds never
 * does, but shows it as a message received. The alarm takes the larger of the two, so it fires
 * whether or not the queue has a handler.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { notify } from './alarms';

export interface AnyMessageAlarmProps {
  /** A dead-letter or failure queue. */
  queue: sqs.IQueue;
  /** What went wrong, for whoever is paged. */
  description: string;
  alarmTopic: sns.ITopic;
}

const PERIOD = Duration.minutes(5);

export class AnyMessageAlarm extends cloudwatch.Alarm {
  constructor(scope: Construct, id: string, { queue, description, alarmTopic }: AnyMessageAlarmProps) {
    super(scope, id, {
      alarmDescription: description,
      // Messages moved in by a redrive policy are not counted as sent, hence received.
      metric: new cloudwatch.MathExpression({
        expression: 'MAX([FILL(visible, 0), FILL(received, 0)])',
        usingMetrics: {
          visible: queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
          received: queue.metricNumberOfMessagesReceived({ period: PERIOD, statistic: 'Sum' }),
        },
        period: PERIOD,
        label: 'messages visible or received',
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    notify(this, alarmTopic);
  }
}
