import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { queueList } from '../../../shared/queues';
import type { QueueDefinition } from '../../../shared/platform/queue/queue';
import { QueueWorker } from '../../../infra/constructs/queue-worker';
import { actionsOfRole, bareStack, idOf, resourceOf } from './bare-stack';

const withDeadLetterHandler = queueList.find((q) => q.deadLetterHandler)!;
const withoutDeadLetterHandler = queueList.find((q) => !q.deadLetterHandler)!;

/** A worker reading and writing the table and bucket, whose dead-letter handler only writes the table. */
const definition: QueueDefinition = {
  ...withDeadLetterHandler,
  name: 'test-work',
  batchSize: 3,
  concurrency: { max: 5 },
  maxReceiveCount: 2,
  lambda: { memoryMb: 1024, timeoutSeconds: 60 },
  access: { table: 'readwrite', objects: { read: ['work/'], write: ['work/'], delete: ['work/'] }, sendsTo: ['test-other'] },
  deadLetterAccess: { table: 'readwrite' },
};
/** A worker that runs alone: a FIFO queue with one group. */
const other: QueueDefinition = {
  ...withoutDeadLetterHandler,
  name: 'test-other',
  access: { table: 'read' },
  fifo: { groupOf: () => 'one', deduplicationIdOf: () => 'same' },
  concurrency: { max: 2 },
};

function workers() {
  const fixture = bareStack([definition, other]);
  const worker = new QueueWorker(fixture.stack, {
    queue: fixture.queues.get('test-work')!,
    resources: fixture.resources,
    removalPolicy: RemovalPolicy.DESTROY,
    alarmTopic: fixture.alarmTopic,
  });
  const plain = new QueueWorker(fixture.stack, {
    queue: fixture.queues.get('test-other')!,
    resources: fixture.resources,
    removalPolicy: RemovalPolicy.DESTROY,
    alarmTopic: fixture.alarmTopic,
  });
  return { ...fixture, worker, plain, template: Template.fromStack(fixture.stack) };
}

const mappingsOf = (template: Template, functionId: string) =>
  Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter(
    (m: any) => m.Properties.FunctionName.Ref === functionId,
  ) as any[];
const roleIdOf = (template: Template, functionId: string): string =>
  template.toJSON().Resources[functionId].Properties.Role['Fn::GetAtt'][0];

describe('QueueWorker', () => {
  const { template, worker, plain, queues, alarmTopic } = workers();
  const queue = queues.get('test-work')!;

  it('is fed by its queue in batches, reporting the messages that failed, at most its maximum concurrency at once, reserving none', () => {
    const [mapping, ...more] = mappingsOf(template, idOf(worker));
    assert.equal(more.length, 0);
    assert.deepEqual(mapping.Properties.EventSourceArn, { 'Fn::GetAtt': [idOf(queue), 'Arn'] });
    assert.equal(mapping.Properties.BatchSize, 3);
    assert.deepEqual(mapping.Properties.FunctionResponseTypes, ['ReportBatchItemFailures']);
    assert.deepEqual(mapping.Properties.ScalingConfig, { MaximumConcurrency: 5 });
    assert.equal(resourceOf(template, worker).Properties.ReservedConcurrentExecutions, undefined, 'a maximum reserves nothing');
    const [fifoMapping] = mappingsOf(template, idOf(plain));
    assert.deepEqual(fifoMapping.Properties.ScalingConfig, { MaximumConcurrency: 2 });
    assert.equal(fifoMapping.Properties.MaximumBatchingWindowInSeconds, undefined, 'a FIFO queue takes no batching window');
    assert.equal(resourceOf(template, plain).Properties.ReservedConcurrentExecutions, undefined, 'one group runs alone without reserving');
  });

  it('is sized, described and logged as its queue says', () => {
    const { Properties } = resourceOf(template, worker);
    assert.deepEqual([Properties.MemorySize, Properties.Timeout], [1024, 60]);
    assert.equal(Properties.Description, definition.description);
    assert.deepEqual(Properties.TracingConfig, { Mode: 'Active' });
    assert.equal(template.toJSON().Resources[Properties.LoggingConfig.LogGroup.Ref].Properties.RetentionInDays, 30);
  });

  it('gets exactly the access its queue declares, and the settings that name it', () => {
    const actions = actionsOfRole(template, roleIdOf(template, idOf(worker)));
    assert.ok(actions.includes('dynamodb:PutItem') && actions.includes('s3:GetObject') && actions.includes('s3:DeleteObject'));
    assert.ok(actions.includes('sqs:SendMessage'));
    assert.ok(!actions.some((a) => a.startsWith('kms:') || a.startsWith('secretsmanager:') || a.startsWith('scheduler:')));
    const variables = resourceOf(template, worker).Properties.Environment.Variables;
    assert.deepEqual(
      Object.keys(variables)
        .filter((name) => /^(TABLE|BUCKET|QUEUE_URL)_/.test(name))
        .sort(),
      ['BUCKET_NAME', 'QUEUE_URL_TEST_OTHER', 'TABLE_NAME'],
    );
    assert.ok(!('TOKEN_SIGNING_KEY_ARN' in variables));
  });

  it('hands dead letters to the handler the queue names, with its lesser access', () => {
    const handler = worker.deadLetterHandler!;
    assert.ok(handler, 'has a dead-letter handler');
    const [mapping] = mappingsOf(template, idOf(handler));
    assert.deepEqual(mapping.Properties.EventSourceArn, { 'Fn::GetAtt': [idOf(queue.deadLetters), 'Arn'] });
    assert.equal(mapping.Properties.BatchSize, 10);
    assert.deepEqual(mapping.Properties.FunctionResponseTypes, ['ReportBatchItemFailures']);
    assert.deepEqual(mapping.Properties.ScalingConfig, { MaximumConcurrency: 2 });
    const { Properties } = resourceOf(template, handler);
    assert.equal(Properties.Description, 'Dead letters of test-work');
    assert.deepEqual([Properties.MemorySize, Properties.Timeout], [256, 30]);
    const actions = actionsOfRole(template, roleIdOf(template, idOf(handler)));
    assert.ok(actions.includes('dynamodb:PutItem'));
    assert.ok(!actions.some((a) => a.startsWith('s3:')), 'no bucket access');
    assert.ok(!('BUCKET_NAME' in Properties.Environment.Variables));
  });

  it("alarms the topic at the dead-letter handler's first error: a dead letter it fails to settle would wait unnoticed", () => {
    const alarm = resourceOf(template, worker.deadLetterHandlerErrorsAlarm!);
    assert.match(idOf(worker.deadLetterHandlerErrorsAlarm!), /^PartnerInventoriesValidationDeadLettersErrorsAlarm[0-9A-F]{8}$/);
    assert.equal(alarm.Properties.Namespace, 'AWS/Lambda');
    assert.equal(alarm.Properties.MetricName, 'Errors');
    assert.equal(alarm.Properties.Statistic, 'Sum');
    assert.deepEqual(alarm.Properties.Dimensions, [{ Name: 'FunctionName', Value: { Ref: idOf(worker.deadLetterHandler!) } }]);
    assert.equal(alarm.Properties.Threshold, 1);
    assert.equal(alarm.Properties.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
    assert.equal(alarm.Properties.TreatMissingData, 'notBreaching');
    assert.deepEqual(alarm.Properties.AlarmActions, [{ Ref: idOf(alarmTopic) }]);
  });

  it('has no dead-letter handler when its queue names none', () => {
    assert.equal(plain.deadLetterHandler, undefined);
    assert.equal(plain.deadLetterHandlerErrorsAlarm, undefined);
    const deadLetters = queues.get('test-other')!.deadLetters;
    const fed = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter(
      (m: any) => m.Properties.EventSourceArn['Fn::GetAtt'][0] === idOf(deadLetters),
    );
    assert.equal(fed.length, 0);
  });
});
