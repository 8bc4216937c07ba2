/**
 * What the platform team watches: one CloudWatch dashboard (the API by route group, the queues,
 * jobs and rows, webhook outcomes) and the alarms, every one of them to one SNS topic whose
 * address the deployer sets (`cdk deploy -c alarmEmail=ops@example.com`). The business metrics
 * are the ones the functions write as embedded metric format lines (shared/platform/metrics.ts).
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../shared/platform/http/route';
import { METRICS_NAMESPACE, SERVICE_NAME, type MetricName } from '../shared/platform/metrics';
import { JOB_METRICS } from '../shared/mapping-jobs';
import { WEBHOOK_METRICS } from '../shared/webhooks';

/** Each alarm's threshold: the figure it goes off at, over five-minute periods. */
export const ALARM_THRESHOLDS = {
  /** Share of API requests answered 5xx, in percent, in two of three periods. */
  api5xxPercent: 1,
  /** API Gateway's p99 latency, in milliseconds, in three periods running. */
  apiP99LatencyMs: 2_500,
  /** Age of the oldest waiting mapping-chunk message, in seconds: jobs are not being worked. */
  oldestChunkMessageSeconds: 15 * 60,
  /** Webhook deliveries dead-lettered in a period. */
  deadLetteredDeliveries: 1,
  /** Share of the account's Lambda concurrency claimed, in percent, in two one-minute periods of three. */
  claimedConcurrencyPercent: 80,
} as const;

/** The Lambda concurrency quota of a new account's region; a deploy names its own with `-c accountConcurrency=…`. */
export const DEFAULT_ACCOUNT_CONCURRENCY = 1_000;

export interface ObservedService {
  api: apigateway.RestApi;
  stage: string;
  routes: readonly RouteDefinition[];
  queues: ReadonlyMap<string, { queue: sqs.Queue; deadLetters: sqs.Queue }>;
  /** The queue whose oldest message says whether jobs are being worked. */
  chunkQueue: string;
  /** Where every alarm goes (alarmTopic). */
  alarmTopic: sns.ITopic;
  /** The account's Lambda concurrency quota in the region, which every function shares. */
  accountConcurrency: number;
}

/**
 * The one topic every alarm of the service publishes to, in the stack that holds the resources
 * alarmed on from several nested stacks. Encrypted with a key of its own that CloudWatch may use
 * to publish (an AWS-managed key would not let it). Who is told: `email`; none, no subscription yet.
 */
export function alarmTopic(scope: Construct, stage: string, email: string | undefined): sns.Topic {
  const key = new kms.Key(scope, 'AlarmTopicKey', { description: 'Encrypts the alarm topic', enableKeyRotation: true });
  key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
  const topic = new sns.Topic(scope, 'AlarmTopic', { displayName: `Hotel mapping ${stage} alarms`, masterKey: key, enforceSSL: true });
  if (email) topic.addSubscription(new subscriptions.EmailSubscription(email));
  return topic;
}

/** Sends an alarm to the topic. */
export function notify(alarm: cloudwatch.Alarm, topic: sns.ITopic): void {
  alarm.addAlarmAction(new actions.SnsAction(topic));
}

const PERIOD = Duration.minutes(5);

/** The dashboard and the alarms on the API, the chunk queue and the webhook deliveries. */
export class Observability extends NestedStack {
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, private readonly service: ObservedService) {
    super(scope, id, { description: 'The dashboard and the alarms on the API, the queues and the webhook deliveries' });
    this.addAlarms();
    this.dashboard = this.addDashboard();
  }

  private notify(alarm: cloudwatch.Alarm): void {
    notify(alarm, this.service.alarmTopic);
  }

  private apiMetric(metricName: string, statistic: string, dimensions: Record<string, string> = {}): cloudwatch.Metric {
    return new cloudwatch.Metric({
      namespace: 'AWS/ApiGateway',
      metricName,
      statistic,
      period: PERIOD,
      dimensionsMap: { ApiName: this.service.api.restApiName, Stage: this.service.stage, ...dimensions },
    });
  }

  private businessMetric(name: MetricName, statistic = 'Sum', dimensions: Record<string, string> = {}): cloudwatch.Metric {
    return new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName: name, statistic, period: PERIOD, dimensionsMap: { service: SERVICE_NAME, ...dimensions } });
  }

  /** Every series of a metric whatever its other dimensions (rows by status and method, jobs by mode). */
  private businessSearch(name: MetricName, dimensions: readonly string[], label: string): cloudwatch.MathExpression {
    const schema = [METRICS_NAMESPACE, 'service', ...dimensions].join(',');
    return new cloudwatch.MathExpression({ expression: `SEARCH('{${schema}} MetricName="${name}"', 'Sum', 300)`, label, period: PERIOD });
  }

  private addAlarms(): void {
    const requests = this.apiMetric('Count', 'Sum');
    const serverErrors = this.apiMetric('5XXError', 'Sum');
    this.notify(
      new cloudwatch.Alarm(this, 'Api5xxRateAlarm', {
        alarmDescription: `More than ${ALARM_THRESHOLDS.api5xxPercent} % of API requests answered 5xx`,
        metric: new cloudwatch.MathExpression({ expression: 'IF(requests > 0, 100 * errors / requests, 0)', usingMetrics: { requests, errors: serverErrors }, period: PERIOD, label: '5xx %' }),
        threshold: ALARM_THRESHOLDS.api5xxPercent,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    this.notify(
      new cloudwatch.Alarm(this, 'ApiP99LatencyAlarm', {
        alarmDescription: `API p99 latency above ${ALARM_THRESHOLDS.apiP99LatencyMs} ms for 15 minutes`,
        metric: this.apiMetric('Latency', 'p99'),
        threshold: ALARM_THRESHOLDS.apiP99LatencyMs,
        evaluationPeriods: 3,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    const chunks = this.service.queues.get(this.service.chunkQueue);
    if (!chunks) throw new Error(`No queue named ${this.service.chunkQueue}.`);
    this.notify(
      new cloudwatch.Alarm(this, 'OldestChunkMessageAlarm', {
        alarmDescription: `A mapping chunk has waited more than ${ALARM_THRESHOLDS.oldestChunkMessageSeconds / 60} minutes: jobs are not being worked`,
        metric: chunks.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
        threshold: ALARM_THRESHOLDS.oldestChunkMessageSeconds,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    // Claimed: what runs plus what is reserved. Near the quota, every function (the API's too) is throttled.
    const claimedLimit = Math.floor((this.service.accountConcurrency * ALARM_THRESHOLDS.claimedConcurrencyPercent) / 100);
    this.notify(
      new cloudwatch.Alarm(this, 'ClaimedConcurrencyAlarm', {
        alarmDescription:
          `The account's Lambda functions claim more than ${ALARM_THRESHOLDS.claimedConcurrencyPercent} % of its ` +
          `${this.service.accountConcurrency.toLocaleString('en-US')} concurrent executions: the API is about to be throttled`,
        metric: new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName: 'ClaimedAccountConcurrency', statistic: 'Maximum', period: Duration.minutes(1) }),
        threshold: claimedLimit,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    this.notify(
      new cloudwatch.Alarm(this, 'DeadLetteredDeliveriesAlarm', {
        alarmDescription: 'Webhook deliveries were dead-lettered: every attempt failed (partners can redeliver them)',
        metric: this.businessMetric(WEBHOOK_METRICS.deliveriesDeadLettered),
        threshold: ALARM_THRESHOLDS.deadLetteredDeliveries,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  private addDashboard(): cloudwatch.Dashboard {
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName: `hotel-mapping-${this.service.stage}` });
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) => new cloudwatch.GraphWidget({ title, left, width, height: 6 });
    dashboard.addWidgets(
      graph('API requests', [this.apiMetric('Count', 'Sum')]),
      graph('API errors', [this.apiMetric('4XXError', 'Sum'), this.apiMetric('5XXError', 'Sum')]),
      graph('API latency', [this.apiMetric('Latency', 'p50'), this.apiMetric('Latency', 'p99')]),
    );
    // Latency per route group (the reference's tags): p50 and p99 of each of its routes.
    const groups = new Map<string, RouteDefinition[]>();
    for (const route of this.service.routes) groups.set(route.tag, [...(groups.get(route.tag) ?? []), route]);
    dashboard.addWidgets(
      ...[...groups].map(([tag, routes]) =>
        graph(
          `Latency: ${tag}`,
          routes.flatMap((route) =>
            ['p50', 'p99'].map((statistic) =>
              this.apiMetric('Latency', statistic, { Resource: route.path, Method: route.method }).with({ label: `${route.method} ${route.path} ${statistic}` }),
            ),
          ),
          6,
        ),
      ),
    );
    const queues = [...this.service.queues];
    dashboard.addWidgets(
      graph('Queue depth', queues.map(([name, { queue }]) => queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, label: name })), 12),
      graph('Age of the oldest message (s)', queues.map(([name, { queue }]) => queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum', label: name })), 12),
    );
    dashboard.addWidgets(
      graph('Jobs', [
        this.businessSearch(JOB_METRICS.jobsCreated, ['mode'], 'created'),
        this.businessSearch(JOB_METRICS.jobsCompleted, ['mode'], 'completed'),
        this.businessMetric(JOB_METRICS.jobsFailed).with({ label: 'failed' }),
        this.businessMetric(JOB_METRICS.jobsCancelled).with({ label: 'cancelled' }),
      ]),
      graph('Rows mapped by status and method', [this.businessSearch(JOB_METRICS.rowsMapped, ['status', 'method'], 'rows')]),
      graph('Webhook attempts and dead letters', [
        this.businessMetric(WEBHOOK_METRICS.webhookAttempts, 'Sum', { outcome: 'succeeded' }).with({ label: 'succeeded' }),
        this.businessMetric(WEBHOOK_METRICS.webhookAttempts, 'Sum', { outcome: 'failed' }).with({ label: 'failed' }),
        this.businessMetric(WEBHOOK_METRICS.deliveriesDeadLettered).with({ label: 'dead-lettered' }),
      ]),
    );
    return dashboard;
  }
}
