import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EVENT_RELAY } from '../../../shared/platform/events/relay';
import { queueList } from '../../../shared/queues';
import { referenceChangeMessages } from '../../../shared/reference';
import { EventRelay } from '../../../infra/constructs/event-relay';
import { ALARM_THRESHOLDS } from '../../../infra/constructs/alarms';
import { actionsOfRole, bareStack, idOf, resourceOf, statementsOfRole, watchesQueue } from './bare-stack';

describe('EventRelay', () => {
  // The queues the relay sends to must exist.
  const relayed = [referenceChangeMessages.name];
  const fixture = bareStack(queueList.filter((q) => [...EVENT_RELAY.access.sendsTo, ...relayed].includes(q.name)));
  const relay = new EventRelay(fixture.stack, {
    table: fixture.table,
    resources: fixture.resources,
    alarmTopic: fixture.alarmTopic,
    removalPolicy: RemovalPolicy.DESTROY,
    relayedQueues: relayed,
  });
  const template = Template.fromStack(fixture.stack);
  const [mapping] = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')) as any[];

  it("reads the table's stream from the start, in order, only new event items", () => {
    assert.deepEqual(mapping.Properties.FunctionName, { Ref: idOf(relay) });
    assert.deepEqual(mapping.Properties.EventSourceArn, { 'Fn::GetAtt': [idOf(fixture.table), 'StreamArn'] });
    assert.equal(mapping.Properties.StartingPosition, 'TRIM_HORIZON');
    assert.notEqual(mapping.Properties.BisectBatchOnError, true, 'a split batch could relay later events first');
    assert.equal(mapping.Properties.BatchSize, EVENT_RELAY.batchSize);
    assert.deepEqual(mapping.Properties.FunctionResponseTypes, ['ReportBatchItemFailures']);
    const patterns = mapping.Properties.FilterCriteria.Filters.map((filter: { Pattern: string }) => JSON.parse(filter.Pattern));
    assert.deepEqual(patterns, [
      { eventName: ['INSERT'], dynamodb: { Keys: { SK: { S: [{ prefix: EVENT_RELAY.filter.sortKeyPrefix }] } } } },
    ]);
  });

  it('sends a batch still failing after a day to its failure queue, which alarms the topic', () => {
    assert.equal(mapping.Properties.MaximumRecordAgeInSeconds, 86_400);
    assert.deepEqual(mapping.Properties.DestinationConfig.OnFailure.Destination, { 'Fn::GetAtt': [idOf(relay.failures), 'Arn'] });
    const roleId = resourceOf(template, relay).Properties.Role['Fn::GetAtt'][0];
    const sendsToFailures = statementsOfRole(template, roleId).some(
      (s) => [s.Action].flat().includes('sqs:SendMessage') && JSON.stringify(s.Resource).includes(idOf(relay.failures)),
    );
    assert.ok(sendsToFailures, 'may send to the failure queue');
    const alarm = Object.values(template.findResources('AWS::CloudWatch::Alarm')).find((a: any) =>
      watchesQueue(a, idOf(relay.failures)),
    ) as any;
    assert.ok(alarm, 'the failure queue is alarmed');
    assert.deepEqual(alarm.Properties.AlarmActions, [{ Ref: idOf(fixture.alarmTopic) }]);
  });

  it('alarms the topic within minutes when it falls behind the stream, long before a batch is given up after a day', () => {
    const { Properties } = resourceOf(template, relay.iteratorAgeAlarm);
    assert.match(idOf(relay.iteratorAgeAlarm), /^EventRelayIteratorAgeAlarm[0-9A-F]{8}$/);
    assert.equal(Properties.Namespace, 'AWS/Lambda');
    assert.equal(Properties.MetricName, 'IteratorAge');
    assert.equal(Properties.Statistic, 'Maximum');
    assert.deepEqual(Properties.Dimensions, [{ Name: 'FunctionName', Value: { Ref: idOf(relay) } }]);
    assert.equal(Properties.Threshold, ALARM_THRESHOLDS.eventRelayIteratorAgeSeconds * 1000, 'milliseconds');
    assert.equal(ALARM_THRESHOLDS.eventRelayIteratorAgeSeconds, 600);
    assert.equal(Properties.ComparisonOperator, 'GreaterThanThreshold');
    assert.deepEqual(Properties.AlarmActions, [{ Ref: idOf(fixture.alarmTopic) }]);
  });

  it('neither reads nor writes the table: the stream is read by the event source', () => {
    const roleId = resourceOf(template, relay).Properties.Role['Fn::GetAtt'][0];
    const actions = actionsOfRole(template, roleId);
    assert.ok(actions.includes('dynamodb:GetRecords'), 'reads the stream');
    assert.ok(!actions.some((a) => /^dynamodb:(GetItem|PutItem|Query|UpdateItem|DeleteItem|Scan)$/.test(a)), actions.join());
    assert.ok(!('TABLE_NAME' in resourceOf(template, relay).Properties.Environment.Variables));
  });

  it('may send to the domain-events queue and to each queue outbox messages name, with their addresses', () => {
    const variables = resourceOf(template, relay).Properties.Environment.Variables;
    assert.ok('QUEUE_URL_DOMAIN_EVENTS' in variables && 'QUEUE_URL_REFERENCE_CHANGES' in variables, Object.keys(variables).join());
    const roleId = resourceOf(template, relay).Properties.Role['Fn::GetAtt'][0];
    const sends = statementsOfRole(template, roleId).filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    assert.ok(sends.length >= 3, 'the two queues and the failure queue');
  });
});
