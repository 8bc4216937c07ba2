/**
 * What the platform team watches, as the stack builds it: every function traced and logging JSON,
 * one dashboard, the alarms with their thresholds, all sent to one encrypted topic whose address
 * the deployer sets.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ALARM_THRESHOLDS } from '../../infra/constructs/alarms';
import {
  BUDGET_NOTIFICATIONS,
  DEFAULT_MONTHLY_BUDGET_USD,
  oldestMessageAlarmSeconds,
  ROUTES_ALARMED_ON_ERRORS,
  ROUTES_DRAWN_ONE_BY_ONE,
} from '../../infra/observability';
import { HotelMappingStack } from '../../infra/stack';
import { functionName } from '../../shared/platform/http/route';
import { visibilityTimeoutSeconds } from '../../shared/platform/queue/queue';
import { queueList } from '../../shared/queues';
import { routeList } from '../../shared/routes';
import { expressionOf, metricsOf } from './constructs/bare-stack';
import { logicalIdOf, ofType, resources, stack } from './stack-fixture';

const topicId = logicalIdOf(stack.alarmTopic);
const alarms = ofType('AWS::CloudWatch::Alarm');
const alarmResource = (id: string) => {
  const found = alarms.find(([logicalId]) => logicalId.startsWith(id));
  assert.ok(found, `alarm ${id}`);
  return found[1];
};
const alarmNamed = (id: string) => alarmResource(id).Properties;
/** A fresh stack of the test stage with this context. */
const stackWith = (context: Record<string, unknown>, id = 'Other', stage = 'test') =>
  new HotelMappingStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), id, { stage });

describe('observability in the stack', () => {
  it('traces every function actively and has it log JSON', () => {
    // Ours: every route's and queue's function and the relay (not the CDK's own custom-resource handlers).
    const functions = ofType('AWS::Lambda::Function').filter(([, fn]) => fn.Properties.Environment?.Variables?.STAGE === 'test');
    assert.ok(functions.length >= routeList.length);
    for (const [id, fn] of functions) {
      assert.deepEqual(fn.Properties.TracingConfig, { Mode: 'Active' }, id);
      assert.equal(fn.Properties.LoggingConfig?.LogFormat, 'JSON', id);
      assert.equal(fn.Properties.Environment.Variables.POWERTOOLS_SERVICE_NAME, 'hotel-mapping', id);
    }
  });

  it('alarms on the API 5xx rate, p99 latency and dead-lettered deliveries, with their thresholds', () => {
    const rate = alarmNamed('Api5xxRateAlarm');
    assert.equal(rate.Threshold, ALARM_THRESHOLDS.api5xxPercent);
    assert.match(JSON.stringify(rate.Metrics), /100 \* errors \/ requests/);
    assert.match(JSON.stringify(rate.Metrics), /5XXError/);
    const latency = alarmNamed('ApiP99LatencyAlarm');
    assert.equal(latency.Threshold, ALARM_THRESHOLDS.apiP99LatencyMs);
    assert.equal(latency.ExtendedStatistic, 'p99');
    assert.equal(latency.MetricName, 'Latency');
    const deadLettered = alarmNamed('DeadLetteredDeliveriesAlarm');
    assert.equal(deadLettered.Threshold, ALARM_THRESHOLDS.deadLetteredDeliveries);
    assert.equal(deadLettered.Namespace, 'HotelMapping');
    assert.equal(deadLettered.MetricName, 'DeliveriesDeadLettered');
    assert.deepEqual(deadLettered.Dimensions, [{ Name: 'service', Value: 'hotel-mapping' }]);
  });

  it('alarms on a spike of API 4xx answers (429s among them), in periods busy enough to tell', () => {
    const alarm = alarmResource('Api4xxRateAlarm');
    assert.equal(expressionOf(alarm), 'IF(requests >= 100, 100 * errors / requests, 0)');
    const metrics = metricsOf(alarm);
    assert.equal(metrics.errors!.name, '4XXError');
    assert.equal(metrics.requests!.name, 'Count');
    assert.deepEqual(metrics.errors!.dimensions, metrics.requests!.dimensions);
    assert.deepEqual((metrics.errors!.dimensions as { Name: string }[]).map((d) => d.Name).sort(), ['ApiName', 'Stage']);
    assert.equal(alarm.Properties.Threshold, ALARM_THRESHOLDS.api4xxPercent);
    assert.deepEqual([ALARM_THRESHOLDS.api4xxPercent, ALARM_THRESHOLDS.api4xxMinimumRequests], [25, 100]);
    assert.deepEqual([alarm.Properties.EvaluationPeriods, alarm.Properties.DatapointsToAlarm], [3, 2]);
    assert.equal(alarm.Properties.ComparisonOperator, 'GreaterThanThreshold');
  });

  it("alarms on every queue's oldest message: one visibility timeout (a retry) plus 15 minutes", () => {
    assert.equal(ALARM_THRESHOLDS.queueWaitSeconds, 15 * 60);
    for (const definition of queueList) {
      const alarm = alarmNamed(`${functionName({ handler: definition.name })}OldestMessageAlarm`);
      assert.equal(alarm.MetricName, 'ApproximateAgeOfOldestMessage', definition.name);
      assert.equal(alarm.Statistic, 'Maximum');
      assert.equal(alarm.Threshold, oldestMessageAlarmSeconds(definition));
      assert.equal(alarm.Threshold, visibilityTimeoutSeconds(definition) + 15 * 60);
      assert.deepEqual(alarm.Dimensions, [
        { Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalIdOf(stack.queues.get(definition.name)!.queue), 'QueueName'] } },
      ]);
    }
    assert.equal(alarmNamed('MappingChunksOldestMessageAlarm').Threshold, 6 * 180 + 900, 'a chunk retried once, then 15 minutes');
  });

  it("alarms on the account's Lambda error rate and on any throttle (no worker is throttled by design)", () => {
    const errors = alarmResource('LambdaErrorRateAlarm');
    assert.equal(expressionOf(errors), 'IF(invocations > 0, 100 * errors / invocations, 0)');
    assert.deepEqual(metricsOf(errors), {
      invocations: { name: 'Invocations', stat: 'Sum', dimensions: undefined },
      errors: { name: 'Errors', stat: 'Sum', dimensions: undefined },
    });
    assert.equal(errors.Properties.Threshold, ALARM_THRESHOLDS.lambdaErrorPercent);
    assert.deepEqual([errors.Properties.EvaluationPeriods, errors.Properties.DatapointsToAlarm], [3, 2]);
    const throttles = alarmResource('LambdaThrottlesAlarm');
    assert.deepEqual(
      [throttles.Properties.Namespace, throttles.Properties.MetricName, throttles.Properties.Statistic, throttles.Properties.Dimensions],
      ['AWS/Lambda', 'Throttles', 'Sum', undefined],
    );
    assert.equal(throttles.Properties.Threshold, ALARM_THRESHOLDS.lambdaThrottles);
    assert.equal(throttles.Properties.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
  });

  it('alarms when reads or writes of the table or its index are throttled', () => {
    const alarm = alarmResource('TableThrottlesAlarm');
    assert.equal(expressionOf(alarm), 'FILL(reads, 0) + FILL(writes, 0) + FILL(indexReads, 0) + FILL(indexWrites, 0)');
    const table = { Name: 'TableName', Value: { Ref: logicalIdOf(stack.table) } };
    const index = { Name: 'GlobalSecondaryIndexName', Value: 'GSI1' };
    assert.deepEqual(metricsOf(alarm), {
      reads: { name: 'ReadThrottleEvents', stat: 'Sum', dimensions: [table] },
      writes: { name: 'WriteThrottleEvents', stat: 'Sum', dimensions: [table] },
      indexReads: { name: 'ReadThrottleEvents', stat: 'Sum', dimensions: [index, table] },
      indexWrites: { name: 'WriteThrottleEvents', stat: 'Sum', dimensions: [index, table] },
    });
    assert.equal(alarm.Properties.Threshold, ALARM_THRESHOLDS.tableThrottleEvents);
    assert.deepEqual([alarm.Properties.EvaluationPeriods, alarm.Properties.DatapointsToAlarm], [3, 2]);
  });

  it("alarms on the scheduler's target errors and dropped invocations", () => {
    for (const [id, metricName] of [
      ['SchedulerTargetErrorsAlarm', 'TargetErrorCount'],
      ['SchedulerDroppedInvocationsAlarm', 'InvocationDroppedCount'],
    ]) {
      const alarm = alarmNamed(id!);
      assert.equal(alarm.Namespace, 'AWS/Scheduler');
      assert.equal(alarm.MetricName, metricName);
      assert.equal(alarm.Statistic, 'Sum');
      assert.equal(alarm.Dimensions, undefined, 'account-wide');
      assert.equal(alarm.Threshold, ALARM_THRESHOLDS.schedulerFailures);
      assert.equal(alarm.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
    }
  });

  it("alarms on every dead-letter handler's errors", () => {
    for (const definition of queueList.filter((queue) => queue.deadLetterHandler)) {
      const alarm = alarmNamed(`${functionName({ handler: definition.deadLetterHandler! })}ErrorsAlarm`);
      assert.equal(alarm.MetricName, 'Errors');
      assert.deepEqual(alarm.Dimensions, [
        { Name: 'FunctionName', Value: { Ref: logicalIdOf(stack.functions.get(definition.deadLetterHandler!)!) } },
      ]);
      assert.equal(alarm.Threshold, 1);
    }
  });

  it('alarms at the first failure of the token exchange and of the Stripe webhook, which the account-wide error rate would not notice', () => {
    assert.deepEqual(
      ROUTES_ALARMED_ON_ERRORS.map(({ route }) => route.handler),
      ['api-keys/token', 'billing/stripe-webhook'],
    );
    for (const { route, stops } of ROUTES_ALARMED_ON_ERRORS) {
      const alarm = alarmNamed(`${functionName(route)}ErrorsAlarm`);
      assert.deepEqual(
        [alarm.Namespace, alarm.MetricName, alarm.Statistic, alarm.Period],
        ['AWS/Lambda', 'Errors', 'Sum', 300],
        route.handler,
      );
      assert.deepEqual(alarm.Dimensions, [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(stack.functions.get(route.handler)!) } }]);
      assert.equal(alarm.Threshold, ALARM_THRESHOLDS.routeErrors);
      assert.equal(ALARM_THRESHOLDS.routeErrors, 1);
      assert.equal(alarm.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
      assert.equal(alarm.TreatMissingData, 'notBreaching');
      assert.equal(alarm.AlarmDescription, `${route.method} ${route.path} failed (crashed or timed out): ${stops}`);
      assert.deepEqual(alarm.AlarmActions, [{ Ref: topicId }]);
    }
  });

  it("tells the topic when the month's costs pass 80 % of the budget, or are forecast to pass it; a deploy names the budget", () => {
    const [[, budget], ...more] = ofType('AWS::Budgets::Budget') as [[string, any]];
    assert.equal(more.length, 0);
    assert.deepEqual(budget.Properties.Budget, {
      BudgetName: 'hotel-mapping-test',
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      BudgetLimit: { Amount: DEFAULT_MONTHLY_BUDGET_USD, Unit: 'USD' },
    });
    const notifications = budget.Properties.NotificationsWithSubscribers.map((n: any) => [
      n.Notification.NotificationType,
      n.Notification.Threshold,
      n.Subscribers,
    ]);
    const topic = [{ SubscriptionType: 'SNS', Address: { Ref: topicId } }];
    assert.deepEqual(notifications, [
      ['ACTUAL', BUDGET_NOTIFICATIONS.actualPercent, topic],
      ['FORECASTED', BUDGET_NOTIFICATIONS.forecastedPercent, topic],
    ]);
    const larger = stackWith({ monthlyBudgetUsd: 2500 }, 'Budgeted');
    Template.fromStack(larger.observability).hasResourceProperties('AWS::Budgets::Budget', {
      Budget: { BudgetLimit: { Amount: 2500, Unit: 'USD' } },
    });
  });

  it('lets AWS Budgets publish to the topic and use its key', () => {
    const [, policy] = ofType('AWS::SNS::TopicPolicy').find(([, p]) => p.Properties.Topics[0].Ref === topicId)!;
    const budgets = policy.Properties.PolicyDocument.Statement.find((s: any) => s.Principal?.Service === 'budgets.amazonaws.com');
    assert.ok(budgets, 'a statement for AWS Budgets');
    assert.equal(budgets.Action, 'sns:Publish');
    assert.deepEqual(budgets.Condition, { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } });
    const keyId = logicalIdOf(stack.node.findChild('AlarmTopicKey'));
    const keyStatements = resources[keyId]!.Properties.KeyPolicy.Statement as any[];
    for (const service of ['cloudwatch.amazonaws.com', 'budgets.amazonaws.com']) {
      assert.ok(
        keyStatements.some((s) => s.Principal?.Service === service && [s.Action].flat().includes('kms:GenerateDataKey*')),
        service,
      );
    }
  });

  it("alarms when the account's claimed Lambda concurrency nears its quota, which a deploy may name", () => {
    const claimed = alarmNamed('ClaimedConcurrencyAlarm');
    assert.equal(claimed.Namespace, 'AWS/Lambda');
    assert.equal(claimed.MetricName, 'ClaimedAccountConcurrency');
    assert.equal(claimed.Dimensions, undefined, 'account-wide');
    assert.equal(claimed.Threshold, 800, '80 % of the default 1,000');
    const larger = stackWith({ accountConcurrency: 3000 }, 'Larger');
    const thresholds = Object.values(Template.fromStack(larger.observability).findResources('AWS::CloudWatch::Alarm'))
      .filter((alarm: any) => alarm.Properties.MetricName === 'ClaimedAccountConcurrency')
      .map((alarm: any) => alarm.Properties.Threshold);
    assert.deepEqual(thresholds, [2400]);
  });

  it("sends every alarm, the dead-letter queues' too, to one encrypted topic", () => {
    assert.ok(alarms.length >= 25);
    for (const [id, alarm] of alarms) assert.deepEqual(alarm.Properties.AlarmActions, [{ Ref: topicId }], id);
    const [, topic] = ofType('AWS::SNS::Topic').find(([id]) => id === topicId)!;
    assert.ok(topic.Properties.KmsMasterKeyId, 'encrypted');
    assert.equal(ofType('AWS::SNS::Subscription').length, 0, 'no address given: no subscription');
  });

  it('subscribes the address the deployer gives', () => {
    const withEmail = stackWith({ alarmEmail: 'ops@example.com' }, 'WithEmail');
    Template.fromStack(withEmail).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('refuses to synthesize a production stage with nobody to receive its alarms', () => {
    const production = {
      production: 'true',
      retainData: 'true',
      stripePriceIds: { prod: { SUBSCRIPTION: 'price_s', ENTERPRISE: 'price_e', creditsProduct: 'prod_c', creditsPrice: 'price_c' } },
    };
    assert.throws(
      () => stackWith(production, 'Unwatched', 'prod'),
      /The production stage "prod" needs someone to receive its alarms: deploy it with -c alarmEmail=/,
    );
    const watched = stackWith(
      {
        ...production,
        alarmEmail: 'ops@example.com',
        webAcl: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/platform/a1b2c3d4-5678-90ab-cdef-111122223333',
      },
      'Watched',
      'prod',
    );
    Template.fromStack(watched).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('has one dashboard: the API by route group, the queues, jobs and rows, webhook outcomes', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    assert.equal(dashboards.length, 1);
    const body = JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
    for (const title of [
      'API requests',
      'API errors',
      'API latency',
      'Queue depth',
      'Age of the oldest message',
      'Jobs',
      'Rows mapped by status and method',
      'Webhook attempts and dead letters',
    ]) {
      assert.ok(body.includes(title), title);
    }
    for (const tag of new Set(ROUTES_DRAWN_ONE_BY_ONE.map((route) => route.tag))) assert.ok(body.includes(`Latency: ${tag}`), tag);
    assert.ok(body.includes('RowsMapped') && body.includes('JobsCreated') && body.includes('WebhookAttempts'));
  });
});
