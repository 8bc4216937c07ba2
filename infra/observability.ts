/**
 * What the platform team watches: one CloudWatch dashboard (the API by route group, the queues,
 * jobs and rows, webhook outcomes), the alarms and the account's monthly budget, every one of them
 * (and the failed backup jobs, DataBackup) to one SNS topic whose address the deployer sets
 * (`cdk deploy -c alarmEmail=ops@example.com`). The business metrics are the ones the functions
 * write as embedded metric format lines (shared/platform/metrics.ts).
 */
import { Duration, NestedStack, Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as budgets from 'aws-cdk-lib/aws-budgets';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { functionName, type RouteDefinition } from '../shared/platform/http/route';
import { routes } from '../shared/routes';
import { METRICS_NAMESPACE, SERVICE_NAME, type MetricName } from '../shared/platform/metrics';
import { visibilityTimeoutSeconds, type QueueDefinition } from '../shared/platform/queue/queue';
import { TABLE_KEYS } from '../shared/platform/table';
import { JOB_METRICS } from '../shared/mapping-jobs';
import { WEBHOOK_METRICS } from '../shared/webhooks';
import { ALARM_THRESHOLDS, notify } from './constructs/alarms';
import type { DeadLetteredQueue } from './constructs/dead-lettered-queue';

/**
 * The routes alarmed at their first failed invocation, beside the account-wide error rate that a
 * quiet route's failures never move: each with what its failure stops.
 */
export const ROUTES_ALARMED_ON_ERRORS: readonly { route: RouteDefinition; stops: string }[] = [
  { route: routes.issueToken, stops: 'partners cannot exchange their API keys for bearer tokens' },
  {
    route: routes.stripeWebhook,
    stops: "Stripe's payments are not applied to plans and credits (Stripe retries each delivery for three days)",
  },
];

/**
 * The routes whose latency the dashboard draws one by one (the rest are in the API's totals): the
 * busiest and the slowest. Only their methods publish API Gateway's per-method metrics, which are
 * billed as about five custom metrics each (HotelMappingApi).
 */
export const ROUTES_DRAWN_ONE_BY_ONE: readonly RouteDefinition[] = [
  routes.issueToken,
  routes.searchReference,
  routes.advancedSearchReference,
  routes.createMappingJob,
  routes.getMappingJob,
  routes.listMappingResults,
  routes.exportMappingResults,
  routes.uploadPartnerInventory,
  routes.completePartnerInventoryUpload,
  routes.stripeWebhook,
];

/** The Lambda concurrency quota of a new account's region; a deploy names its own with `-c accountConcurrency=…`. */
export const DEFAULT_ACCOUNT_CONCURRENCY = 1_000;

/** The account's monthly cost budget, in US dollars; a deploy names its own with `-c monthlyBudgetUsd=…`. */
export const DEFAULT_MONTHLY_BUDGET_USD = 1_000;

/** When the budget tells the topic: actual costs past this share of it, forecast costs past all of it (percent). */
export const BUDGET_NOTIFICATIONS = { actualPercent: 80, forecastedPercent: 100 } as const;

/** The age of a queue's oldest message, in seconds, past which its alarm fires. */
export function oldestMessageAlarmSeconds(definition: Pick<QueueDefinition, 'lambda'>): number {
  return visibilityTimeoutSeconds(definition) + ALARM_THRESHOLDS.queueWaitSeconds;
}

export interface ObservedService {
  api: apigateway.RestApi;
  stage: string;
  /** Every queue of the queue table, with its definition. */
  queues: readonly DeadLetteredQueue[];
  table: dynamodb.ITable;
  /** Every function, by its file under functions/ (the routes of ROUTES_ALARMED_ON_ERRORS among them). */
  functions: ReadonlyMap<string, lambda.IFunction>;
  /** Where every alarm goes (alarmTopic). */
  alarmTopic: sns.ITopic;
  /** The account's Lambda concurrency quota in the region, which every function shares. */
  accountConcurrency: number;
  /** The account's monthly cost budget, in US dollars. */
  monthlyBudgetUsd: number;
}

/**
 * The one topic every alarm of the service and the budget publish to, in the stack that holds the
 * resources alarmed on from several nested stacks. Encrypted with a key of its own that CloudWatch
 * and AWS Budgets may use to publish (an AWS-managed key would not let them). Who is told: `email`;
 * none, no subscription yet.
 */
export function alarmTopic(scope: Construct, stage: string, email: string | undefined): sns.Topic {
  const publishers = ['cloudwatch.amazonaws.com', 'budgets.amazonaws.com'].map((service) => new iam.ServicePrincipal(service));
  const key = new kms.Key(scope, 'AlarmTopicKey', { description: 'Encrypts the alarm topic', enableKeyRotation: true });
  for (const publisher of publishers) key.grant(publisher, 'kms:Decrypt', 'kms:GenerateDataKey*');
  const topic = new sns.Topic(scope, 'AlarmTopic', { displayName: `Hotel mapping ${stage} alarms`, masterKey: key, enforceSSL: true });
  // CloudWatch alarms of the account may publish without a statement; AWS Budgets may not.
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('budgets.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
    }),
  );
  if (email) topic.addSubscription(new subscriptions.EmailSubscription(email));
  return topic;
}

const PERIOD = Duration.minutes(5);

/** The dashboard, the alarms on the API, the queues, Lambda, the table, the scheduler and the webhook deliveries, and the budget. */
export class Observability extends NestedStack {
  readonly dashboard: cloudwatch.Dashboard;
  readonly budget: budgets.CfnBudget;

  constructor(
    scope: Construct,
    id: string,
    private readonly service: ObservedService,
  ) {
    super(scope, id, { description: 'The dashboard, the alarms and the monthly budget' });
    this.addAlarms();
    this.budget = this.addBudget();
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
    return new cloudwatch.Metric({
      namespace: METRICS_NAMESPACE,
      metricName: name,
      statistic,
      period: PERIOD,
      dimensionsMap: { service: SERVICE_NAME, ...dimensions },
    });
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
        metric: new cloudwatch.MathExpression({
          expression: 'IF(requests > 0, 100 * errors / requests, 0)',
          usingMetrics: { requests, errors: serverErrors },
          period: PERIOD,
          label: '5xx %',
        }),
        threshold: ALARM_THRESHOLDS.api5xxPercent,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    const { api4xxMinimumRequests, api4xxPercent } = ALARM_THRESHOLDS;
    this.notify(
      new cloudwatch.Alarm(this, 'Api4xxRateAlarm', {
        alarmDescription:
          `More than ${api4xxPercent} % of at least ${api4xxMinimumRequests} API requests answered 4xx: ` +
          'a partner sending bad requests or credentials, or callers throttled (429)',
        metric: new cloudwatch.MathExpression({
          expression: `IF(requests >= ${api4xxMinimumRequests}, 100 * errors / requests, 0)`,
          usingMetrics: { requests, errors: this.apiMetric('4XXError', 'Sum') },
          period: PERIOD,
          label: '4xx %',
        }),
        threshold: api4xxPercent,
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
    for (const queue of this.service.queues) {
      const { definition } = queue;
      const seconds = oldestMessageAlarmSeconds(definition);
      this.notify(
        new cloudwatch.Alarm(this, `${functionName({ handler: definition.name })}OldestMessageAlarm`, {
          alarmDescription: `A message of ${definition.name} has waited more than ${Math.round(seconds / 60)} minutes: its worker is not keeping up (${definition.description})`,
          metric: queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
          threshold: seconds,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
    // Claimed: what runs plus what is reserved. Near the quota, every function (the API's too) is throttled.
    const claimedLimit = Math.floor((this.service.accountConcurrency * ALARM_THRESHOLDS.claimedConcurrencyPercent) / 100);
    this.notify(
      new cloudwatch.Alarm(this, 'ClaimedConcurrencyAlarm', {
        alarmDescription:
          `The account's Lambda functions claim more than ${ALARM_THRESHOLDS.claimedConcurrencyPercent} % of its ` +
          `${this.service.accountConcurrency.toLocaleString('en-US')} concurrent executions: the API is about to be throttled`,
        metric: new cloudwatch.Metric({
          namespace: 'AWS/Lambda',
          metricName: 'ClaimedAccountConcurrency',
          statistic: 'Maximum',
          period: Duration.minutes(1),
        }),
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
    this.addLambdaAlarms();
    this.addRouteErrorAlarms();
    this.addTableAlarm();
    this.addSchedulerAlarms();
  }

  /** Account-wide, so that a few alarms cover every function (and SEARCH cannot be alarmed on). */
  private addLambdaAlarms(): void {
    const lambdaMetric = (metricName: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName, statistic: 'Sum', period: PERIOD });
    this.notify(
      new cloudwatch.Alarm(this, 'LambdaErrorRateAlarm', {
        alarmDescription:
          `More than ${ALARM_THRESHOLDS.lambdaErrorPercent} % of the account's Lambda invocations failed (crashed or timed out): ` +
          'failed messages are retried and then dead-lettered, failed requests answered 5xx',
        metric: new cloudwatch.MathExpression({
          expression: 'IF(invocations > 0, 100 * errors / invocations, 0)',
          usingMetrics: { invocations: lambdaMetric('Invocations'), errors: lambdaMetric('Errors') },
          period: PERIOD,
          label: 'Lambda errors %',
        }),
        threshold: ALARM_THRESHOLDS.lambdaErrorPercent,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    this.notify(
      new cloudwatch.Alarm(this, 'LambdaThrottlesAlarm', {
        alarmDescription: "Lambda invocations were throttled: the account's concurrency ran out (the API answers 500, queues wait)",
        metric: lambdaMetric('Throttles'),
        threshold: ALARM_THRESHOLDS.lambdaThrottles,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  private addRouteErrorAlarms(): void {
    for (const { route, stops } of ROUTES_ALARMED_ON_ERRORS) {
      const fn = this.service.functions.get(route.handler);
      if (!fn) throw new Error(`No function for ${route.handler}, whose errors are alarmed on.`);
      this.notify(
        new cloudwatch.Alarm(this, `${functionName(route)}ErrorsAlarm`, {
          alarmDescription: `${route.method} ${route.path} failed (crashed or timed out): ${stops}`,
          metric: fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
          threshold: ALARM_THRESHOLDS.routeErrors,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
  }

  /** On demand, a table is throttled by a hot partition or the account's table quota; the SDK's retries hide a few. */
  private addTableAlarm(): void {
    const table = (metricName: string, index?: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        statistic: 'Sum',
        period: PERIOD,
        dimensionsMap: { TableName: this.service.table.tableName, ...(index && { GlobalSecondaryIndexName: index }) },
      });
    this.notify(
      new cloudwatch.Alarm(this, 'TableThrottlesAlarm', {
        alarmDescription: 'Reads or writes of the table or its index were throttled in two periods of three',
        metric: new cloudwatch.MathExpression({
          expression: 'FILL(reads, 0) + FILL(writes, 0) + FILL(indexReads, 0) + FILL(indexWrites, 0)',
          usingMetrics: {
            reads: table('ReadThrottleEvents'),
            writes: table('WriteThrottleEvents'),
            indexReads: table('ReadThrottleEvents', TABLE_KEYS.gsi1.name),
            indexWrites: table('WriteThrottleEvents', TABLE_KEYS.gsi1.name),
          },
          period: PERIOD,
          label: 'throttle events',
        }),
        threshold: ALARM_THRESHOLDS.tableThrottleEvents,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  /** The account's EventBridge Scheduler metrics: every schedule of the service sends to one of its queues. */
  private addSchedulerAlarms(): void {
    const alarms = {
      SchedulerTargetErrorsAlarm: ['TargetErrorCount', 'Scheduled deliveries failed to reach their queue (the scheduler retries them)'],
      SchedulerDroppedInvocationsAlarm: [
        'InvocationDroppedCount',
        'Scheduled deliveries were dropped after their last retry: a job deadline or a webhook retry is lost',
      ],
    } as const;
    for (const [id, [metricName, description]] of Object.entries(alarms)) {
      this.notify(
        new cloudwatch.Alarm(this, id, {
          alarmDescription: description,
          metric: new cloudwatch.Metric({ namespace: 'AWS/Scheduler', metricName, statistic: 'Sum', period: PERIOD }),
          threshold: ALARM_THRESHOLDS.schedulerFailures,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
  }

  /** The whole account's costs (it is the service's own): the topic hears of them past the notifications' shares. */
  private addBudget(): budgets.CfnBudget {
    const subscribers = [{ subscriptionType: 'SNS', address: this.service.alarmTopic.topicArn }];
    const notification = (notificationType: 'ACTUAL' | 'FORECASTED', threshold: number) => ({
      notification: { notificationType, comparisonOperator: 'GREATER_THAN', threshold, thresholdType: 'PERCENTAGE' },
      subscribers,
    });
    return new budgets.CfnBudget(this, 'MonthlyBudget', {
      budget: {
        budgetName: `hotel-mapping-${this.service.stage}`,
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: this.service.monthlyBudgetUsd, unit: 'USD' },
      },
      notificationsWithSubscribers: [
        notification('ACTUAL', BUDGET_NOTIFICATIONS.actualPercent),
        notification('FORECASTED', BUDGET_NOTIFICATIONS.forecastedPercent),
      ],
    });
  }

  private addDashboard(): cloudwatch.Dashboard {
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { dashboardName: `hotel-mapping-${this.service.stage}` });
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) => new cloudwatch.GraphWidget({ title, left, width, height: 6 });
    dashboard.addWidgets(
      graph('API requests', [this.apiMetric('Count', 'Sum')]),
      graph('API errors', [this.apiMetric('4XXError', 'Sum'), this.apiMetric('5XXError', 'Sum')]),
      graph('API latency', [this.apiMetric('Latency', 'p50'), this.apiMetric('Latency', 'p99')]),
    );
    // Latency of each route drawn one by one, by route group (the reference's tags): p50 and p99.
    const groups = new Map<string, RouteDefinition[]>();
    for (const route of ROUTES_DRAWN_ONE_BY_ONE) groups.set(route.tag, [...(groups.get(route.tag) ?? []), route]);
    dashboard.addWidgets(
      ...[...groups].map(([tag, routes]) =>
        graph(
          `Latency: ${tag}`,
          routes.flatMap((route) =>
            ['p50', 'p99'].map((statistic) =>
              this.apiMetric('Latency', statistic, { Resource: route.path, Method: route.method }).with({
                label: `${route.method} ${route.path} ${statistic}`,
              }),
            ),
          ),
          6,
        ),
      ),
    );
    const queues = this.service.queues;
    dashboard.addWidgets(
      graph(
        'Queue depth',
        queues.map((queue) => queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, label: queue.definition.name })),
        12,
      ),
      graph(
        'Age of the oldest message (s)',
        queues.map((queue) =>
          queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum', label: queue.definition.name }),
        ),
        12,
      ),
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
