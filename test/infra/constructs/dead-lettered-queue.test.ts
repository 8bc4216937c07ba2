import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { Template } from 'aws-cdk-lib/assertions';
import { queueList } from '../../../shared/queues';
import type { QueueDefinition } from '../../../shared/platform/queue/queue';
import { bareStack, idOf, resourceOf } from './bare-stack';

const definition: QueueDefinition = {
  ...queueList[0]!,
  name: 'test-work',
  description: 'Works the tests',
  maxReceiveCount: 4,
  lambda: { memoryMb: 512, timeoutSeconds: 20 },
};

describe('DeadLetteredQueue', () => {
  const { stack, queues, alarmTopic } = bareStack([definition]);
  const queue = queues.get('test-work')!;
  const template = Template.fromStack(stack);

  it('is named after its queue, its dead-letter queue and alarm beside it', () => {
    assert.match(idOf(queue), /^TestWorkQueue[0-9A-F]{8}$/);
    assert.match(idOf(queue.deadLetters), /^TestWorkDeadLetters[0-9A-F]{8}$/);
    assert.match(idOf(queue.deadLettersAlarm), /^TestWorkDeadLettersAlarm[0-9A-F]{8}$/);
    assert.equal(queue.definition, definition);
  });

  it('moves a message to the dead-letter queue after maxReceiveCount receives, hidden six worker timeouts meanwhile', () => {
    const { Properties } = resourceOf(template, queue);
    assert.deepEqual(Properties.RedrivePolicy, { deadLetterTargetArn: { 'Fn::GetAtt': [idOf(queue.deadLetters), 'Arn'] }, maxReceiveCount: 4 });
    assert.equal(Properties.VisibilityTimeout, 120);
    assert.equal(Properties.MessageRetentionPeriod, 4 * 24 * 3600);
    assert.equal(Properties.SqsManagedSseEnabled, true);
    assert.equal(resourceOf(template, queue.deadLetters).Properties.MessageRetentionPeriod, 14 * 24 * 3600);
  });

  it('refuses plain HTTP on both queues', () => {
    for (const q of [queue, queue.deadLetters]) {
      const policy = Object.values(template.findResources('AWS::SQS::QueuePolicy')).find((p: any) => p.Properties.Queues[0].Ref === idOf(q)) as any;
      assert.ok(policy, `${q.node.id} has a policy`);
      assert.ok(policy.Properties.PolicyDocument.Statement.some((s: any) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false'));
    }
  });

  it('alarms the topic as soon as one message is dead-lettered', () => {
    const { Properties } = resourceOf(template, queue.deadLettersAlarm);
    assert.equal(Properties.MetricName, 'ApproximateNumberOfMessagesVisible');
    assert.deepEqual(Properties.Dimensions, [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [idOf(queue.deadLetters), 'QueueName'] } }]);
    assert.equal(Properties.Threshold, 1);
    assert.equal(Properties.EvaluationPeriods, 1);
    assert.equal(Properties.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
    assert.equal(Properties.TreatMissingData, 'notBreaching');
    assert.deepEqual(Properties.AlarmActions, [{ Ref: idOf(alarmTopic) }]);
    assert.equal(Properties.AlarmDescription, 'Messages of test-work were dead-lettered: Works the tests');
  });
});
