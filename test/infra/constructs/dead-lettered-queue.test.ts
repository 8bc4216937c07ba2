import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { Template } from 'aws-cdk-lib/assertions';
import { queueList } from '../../../shared/queues';
import type { QueueDefinition } from '../../../shared/platform/queue/queue';
import { DEAD_LETTER_HANDLER_RECEIVES } from '../../../infra/constructs/dead-lettered-queue';
import { bareStack, expressionOf, idOf, metricsOf, resourceOf, watchesQueue } from './bare-stack';

const definition: QueueDefinition = {
  ...queueList[0]!,
  name: 'test-work',
  description: 'Works the tests',
  maxReceiveCount: 4,
  lambda: { memoryMb: 512, timeoutSeconds: 20 },
};

/** A queue whose dead letters nothing takes. */
const unhandled: QueueDefinition = { ...definition, name: 'test-unhandled', deadLetterHandler: undefined };

describe('DeadLetteredQueue', () => {
  const { stack, queues, alarmTopic } = bareStack([definition, unhandled]);
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
    assert.deepEqual(Properties.RedrivePolicy, {
      deadLetterTargetArn: { 'Fn::GetAtt': [idOf(queue.deadLetters), 'Arn'] },
      maxReceiveCount: 4,
    });
    assert.equal(Properties.VisibilityTimeout, 120);
    assert.equal(Properties.MessageRetentionPeriod, 4 * 24 * 3600);
    assert.equal(Properties.SqsManagedSseEnabled, true);
    assert.equal(resourceOf(template, queue.deadLetters).Properties.MessageRetentionPeriod, 14 * 24 * 3600);
  });

  it('refuses plain HTTP on both queues', () => {
    for (const q of [queue, queue.deadLetters]) {
      const policy = Object.values(template.findResources('AWS::SQS::QueuePolicy')).find(
        (p: any) => p.Properties.Queues[0].Ref === idOf(q),
      ) as any;
      assert.ok(policy, `${q.node.id} has a policy`);
      assert.ok(
        policy.Properties.PolicyDocument.Statement.some(
          (s: any) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false',
        ),
      );
    }
  });

  it('alarms the topic as soon as one message is dead-lettered, whether it waits or its handler drains it at once', () => {
    const alarm = resourceOf(template, queue.deadLettersAlarm);
    const { Properties } = alarm;
    assert.equal(expressionOf(alarm), 'MAX([FILL(visible, 0), FILL(received, 0)])');
    const dimensions = [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [idOf(queue.deadLetters), 'QueueName'] } }];
    assert.deepEqual(metricsOf(alarm), {
      visible: { name: 'ApproximateNumberOfMessagesVisible', stat: 'Maximum', dimensions },
      received: { name: 'NumberOfMessagesReceived', stat: 'Sum', dimensions },
    });
    assert.equal(Properties.Threshold, 1);
    assert.equal(Properties.EvaluationPeriods, 1);
    assert.equal(Properties.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
    assert.equal(Properties.TreatMissingData, 'notBreaching');
    assert.deepEqual(Properties.AlarmActions, [{ Ref: idOf(alarmTopic) }]);
    assert.equal(Properties.AlarmDescription, 'Messages of test-work were dead-lettered: Works the tests');
  });

  it('moves a dead letter its handler failed to settle five times to a holding queue kept 14 days, alarmed', () => {
    const holding = queue.unsettledDeadLetters!;
    assert.match(idOf(holding), /^TestWorkUnsettledDeadLetters[0-9A-F]{8}$/);
    const { Properties } = resourceOf(template, queue.deadLetters);
    assert.equal(DEAD_LETTER_HANDLER_RECEIVES, 5);
    assert.deepEqual(Properties.RedrivePolicy, { deadLetterTargetArn: { 'Fn::GetAtt': [idOf(holding), 'Arn'] }, maxReceiveCount: 5 });
    assert.equal(Properties.VisibilityTimeout, 6 * 30, "six times the handler's timeout");
    assert.equal(resourceOf(template, holding).Properties.MessageRetentionPeriod, 14 * 24 * 3600);
    const alarms = Object.entries(template.findResources('AWS::CloudWatch::Alarm')).filter(([, alarm]) =>
      watchesQueue(alarm, idOf(holding)),
    );
    assert.equal(alarms.length, 1);
    const [[alarmId, alarm]] = alarms as [[string, any]];
    assert.match(alarmId, /^TestWorkUnsettledDeadLettersAlarm[0-9A-F]{8}$/);
    assert.equal(alarm.Properties.Threshold, 1);
    assert.equal(alarm.Properties.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
    assert.deepEqual(alarm.Properties.AlarmActions, [{ Ref: idOf(alarmTopic) }]);
    assert.match(
      alarm.Properties.AlarmDescription,
      /test-work that its handler \(partner-inventories\/validation-dead-letters\) failed to settle 5 times/,
    );
  });

  it('has no holding queue when nothing takes its dead letters: they wait in the dead-letter queue', () => {
    const plain = queues.get('test-unhandled')!;
    assert.equal(plain.unsettledDeadLetters, undefined);
    assert.equal(resourceOf(template, plain.deadLetters).Properties.RedrivePolicy, undefined);
    assert.equal(Object.keys(template.findResources('AWS::SQS::Queue')).length, 5, 'two queues, two dead-letter queues, one holding queue');
  });
});

describe('DeadLetteredQueue of a FIFO queue', () => {
  const ordered: QueueDefinition = { ...definition, name: 'test-ordered', fifo: { groupOf: () => 'one', deduplicationIdOf: () => 'same' } };
  const { stack, queues } = bareStack([ordered, definition]);
  const template = Template.fromStack(stack);
  const queue = queues.get('test-ordered')!;

  it('is FIFO with its dead-letter and holding queues (SQS redrives a FIFO queue only to a FIFO queue), deduplicating by the id each message carries', () => {
    for (const q of [queue, queue.deadLetters, queue.unsettledDeadLetters!]) {
      const { Properties } = resourceOf(template, q);
      assert.equal(Properties.FifoQueue, true, q.node.id);
      assert.equal(Properties.ContentBasedDeduplication, undefined, q.node.id);
      assert.equal(Properties.QueueName, undefined, `${q.node.id}: CloudFormation names it, ending in .fifo`);
      assert.equal(q.fifo, true);
    }
    assert.deepEqual(resourceOf(template, queue).Properties.RedrivePolicy, {
      deadLetterTargetArn: { 'Fn::GetAtt': [idOf(queue.deadLetters), 'Arn'] },
      maxReceiveCount: 4,
    });
  });

  it('leaves the standard queues standard', () => {
    const standard = queues.get('test-work')!;
    for (const q of [standard, standard.deadLetters, standard.unsettledDeadLetters!])
      assert.equal(resourceOf(template, q).Properties.FifoQueue, undefined);
  });
});
