/** An alarm, sent to the alarm topic, as soon as a queue of things that went wrong holds a message. */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { notify } from '../observability';

export interface AnyMessageAlarmProps {
  /** A dead-letter or failure queue. */
  queue: sqs.IQueue;
  /** What went wrong, for whoever is paged. */
  description: string;
  alarmTopic: sns.ITopic;
}

export class AnyMessageAlarm extends cloudwatch.Alarm {
  constructor(scope: Construct, id: string, { queue, description, alarmTopic }: AnyMessageAlarmProps) {
    super(scope, id, {
      alarmDescription: description,
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    notify(this, alarmTopic);
  }
}
