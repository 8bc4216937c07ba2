/**
 * What the platform team watches, as the stack builds it: every function traced and logging JSON,
 * one dashboard, the alarms with their thresholds, all sent to one encrypted topic whose address
 * the deployer sets.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ALARM_THRESHOLDS } from '../../infra/observability';
import { HotelMappingStack } from '../../infra/stack';
import { routeList } from '../../shared/routes';
import { logicalIdOf, ofType, stack } from './stack-fixture';

const topicId = logicalIdOf(stack.alarmTopic);
const alarms = ofType('AWS::CloudWatch::Alarm');
const alarmNamed = (id: string) => {
  const found = alarms.find(([logicalId]) => logicalId.startsWith(id));
  assert.ok(found, `alarm ${id}`);
  return found[1].Properties;
};

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

  it('alarms on the API 5xx rate, p99 latency, the oldest chunk message and dead-lettered deliveries, with their thresholds', () => {
    const rate = alarmNamed('Api5xxRateAlarm');
    assert.equal(rate.Threshold, ALARM_THRESHOLDS.api5xxPercent);
    assert.match(JSON.stringify(rate.Metrics), /100 \* errors \/ requests/);
    assert.match(JSON.stringify(rate.Metrics), /5XXError/);
    const latency = alarmNamed('ApiP99LatencyAlarm');
    assert.equal(latency.Threshold, ALARM_THRESHOLDS.apiP99LatencyMs);
    assert.equal(latency.ExtendedStatistic, 'p99');
    assert.equal(latency.MetricName, 'Latency');
    const oldest = alarmNamed('OldestChunkMessageAlarm');
    assert.equal(oldest.Threshold, ALARM_THRESHOLDS.oldestChunkMessageSeconds);
    assert.equal(oldest.MetricName, 'ApproximateAgeOfOldestMessage');
    assert.match(JSON.stringify(oldest.Dimensions), /MappingChunksQueue/);
    const deadLettered = alarmNamed('DeadLetteredDeliveriesAlarm');
    assert.equal(deadLettered.Threshold, ALARM_THRESHOLDS.deadLetteredDeliveries);
    assert.equal(deadLettered.Namespace, 'HotelMapping');
    assert.equal(deadLettered.MetricName, 'DeliveriesDeadLettered');
    assert.deepEqual(deadLettered.Dimensions, [{ Name: 'service', Value: 'hotel-mapping' }]);
  });

  it("alarms when the account's claimed Lambda concurrency nears its quota, which a deploy may name", () => {
    const claimed = alarmNamed('ClaimedConcurrencyAlarm');
    assert.equal(claimed.Namespace, 'AWS/Lambda');
    assert.equal(claimed.MetricName, 'ClaimedAccountConcurrency');
    assert.equal(claimed.Dimensions, undefined, 'account-wide');
    assert.equal(claimed.Threshold, 800, '80 % of the default 1,000');
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], accountConcurrency: 3000 } });
    const larger = new HotelMappingStack(app, 'Larger', { stage: 'test' });
    const thresholds = Object.values(Template.fromStack(larger.observability).findResources('AWS::CloudWatch::Alarm'))
      .filter((alarm: any) => alarm.Properties.MetricName === 'ClaimedAccountConcurrency')
      .map((alarm: any) => alarm.Properties.Threshold);
    assert.deepEqual(thresholds, [2400]);
  });

  it('sends every alarm, the dead-letter queues\' too, to one encrypted topic', () => {
    assert.ok(alarms.length >= 8);
    for (const [id, alarm] of alarms) assert.deepEqual(alarm.Properties.AlarmActions, [{ Ref: topicId }], id);
    const [, topic] = ofType('AWS::SNS::Topic').find(([id]) => id === topicId)!;
    assert.ok(topic.Properties.KmsMasterKeyId, 'encrypted');
    assert.equal(ofType('AWS::SNS::Subscription').length, 0, 'no address given: no subscription');
  });

  it('subscribes the address the deployer gives', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'ops@example.com' } });
    const withEmail = new HotelMappingStack(app, 'WithEmail', { stage: 'test' });
    Template.fromStack(withEmail).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  it('has one dashboard: the API by route group, the queues, jobs and rows, webhook outcomes', () => {
    const dashboards = ofType('AWS::CloudWatch::Dashboard');
    assert.equal(dashboards.length, 1);
    const body = JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
    for (const title of ['API requests', 'API errors', 'API latency', 'Queue depth', 'Age of the oldest message', 'Jobs', 'Rows mapped by status and method', 'Webhook attempts and dead letters']) {
      assert.ok(body.includes(title), title);
    }
    for (const tag of new Set(routeList.map((route) => route.tag))) assert.ok(body.includes(`Latency: ${tag}`), tag);
    assert.ok(body.includes('RowsMapped') && body.includes('JobsCreated') && body.includes('WebhookAttempts'));
  });
});
