/** The transactional outbox in the stack: the table's stream feeds the relay, filtered to new event items. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { EVENT_RELAY } from '../../shared/platform/events/relay';
import { watchesQueue } from './constructs/bare-stack';
import { logicalIdOf, ofType, resources, stack } from './stack-fixture';

const relayId = logicalIdOf(stack.functions.get(EVENT_RELAY.handler)!);
const tableId = logicalIdOf(stack.table);
const mapping = ofType('AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties.FunctionName.Ref === relayId)?.[1];

describe('the outbox relay', () => {
  it('reads the table stream (new images) from the start, in order, reporting the record that failed', () => {
    assert.equal(resources[tableId]!.Properties.StreamSpecification.StreamViewType, 'NEW_IMAGE');
    assert.deepEqual(mapping!.Properties.EventSourceArn, { 'Fn::GetAtt': [tableId, 'StreamArn'] });
    assert.equal(mapping!.Properties.StartingPosition, 'TRIM_HORIZON');
    assert.deepEqual(mapping!.Properties.FunctionResponseTypes, ['ReportBatchItemFailures']);
    assert.notEqual(mapping!.Properties.BisectBatchOnError, true, 'not split: a split batch could relay later events first');
    assert.equal(mapping!.Properties.MaximumRecordAgeInSeconds, 86_400);
  });

  it('takes only new items whose sort key is an event', () => {
    const patterns = mapping!.Properties.FilterCriteria.Filters.map((filter: { Pattern: string }) => JSON.parse(filter.Pattern));
    assert.deepEqual(patterns, [{ eventName: ['INSERT'], dynamodb: { Keys: { SK: { S: [{ prefix: 'EVENT#' }] } } } }]);
  });

  it('sends a batch that failed for a day to an alarmed failure queue', () => {
    const failureArn = mapping!.Properties.DestinationConfig.OnFailure.Destination;
    const [failuresId] = failureArn['Fn::GetAtt'];
    assert.equal(resources[failuresId]!.Type, 'AWS::SQS::Queue');
    const alarm = ofType('AWS::CloudWatch::Alarm').find(([, a]) => watchesQueue(a, failuresId));
    assert.ok(alarm, 'the failure queue is alarmed');
  });

  it('may send to the domain-events queue, and neither read nor write the table', () => {
    const roleId = resources[relayId]!.Properties.Role['Fn::GetAtt'][0];
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
    const actions = statements.flatMap((statement: { Action: string | string[] }) => [statement.Action].flat());
    assert.ok(actions.includes('sqs:SendMessage'));
    assert.ok(
      !actions.some((action: string) => /^dynamodb:(GetItem|PutItem|Query|UpdateItem|DeleteItem|BatchWriteItem|Scan)$/.test(action)),
      actions.join(),
    );
    const environment = resources[relayId]!.Properties.Environment.Variables;
    assert.ok('QUEUE_URL_DOMAIN_EVENTS' in environment);
    assert.ok(!('TABLE_NAME' in environment));
  });
});
