/**
 * The queue and scheduler adapters: the exact SQS and EventBridge Scheduler commands they send
 * (aws-sdk-client-mock), and the in-process transport's delivery, retry and dead-letter rules.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, it } from '@jest/globals';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import * as v from 'valibot';
import { ManualClock } from '../../../shared/platform/clock';
import { EventBridgeScheduler } from '../../../shared/platform/queue/eventbridge-scheduler';
import { InProcessMessaging, memoryMessageStore, type MessageStore } from '../../../shared/platform/queue/in-process';
import { queueUrlVariable } from '../../../shared/platform/config';
import { defineQueue, visibilityTimeoutSeconds } from '../../../shared/platform/queue/queue';
import { messageFolder } from '../../../infra/local/message-folder';
import { SqsQueue } from '../../../shared/platform/queue/sqs-queue';
import { queueWorker } from '../../../shared/platform/queue/worker';
import { createRuntime } from '../../../shared/platform/runtime';

const sqs = mockClient(SQSClient);
const scheduler = mockClient(SchedulerClient);
afterEach(() => {
  sqs.reset();
  scheduler.reset();
});

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/mapping-chunks';
/** What the test queues share: everything but their names, messages and order. */
const TEST_QUEUE = {
  maxReceiveCount: 3,
  batchSize: 5,
  access: { table: 'none' },
  lambda: { memoryMb: 256, timeoutSeconds: 10 },
  concurrency: { max: 2 },
} as const;
const work = defineQueue({
  ...TEST_QUEUE,
  name: 'test-work',
  handler: 'workers/test-work',
  schema: v.object({ n: v.number() }),
  description: 'unit test queue',
});
/** A FIFO queue: one group per organization, one message per job. */
const ordered = defineQueue({
  ...TEST_QUEUE,
  name: 'test-ordered',
  handler: 'workers/test-ordered',
  description: 'unit test FIFO queue',
  schema: v.object({ org: v.string(), job: v.string() }),
  fifo: { groupOf: ({ org }) => `org-${org}`, deduplicationIdOf: ({ job }) => `job-${job}` },
});
const ORDERED_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/test-ordered.fifo';

describe('SQS queue adapter', () => {
  const queue = new SqsQueue(new SQSClient({ region: 'eu-west-1' }), QUEUE_URL, work);
  const fifoQueue = new SqsQueue(new SQSClient({ region: 'eu-west-1' }), ORDERED_URL, ordered);

  it('sends one JSON message, with DelaySeconds when delayed', async () => {
    sqs.on(SendMessageCommand).resolves({});
    await queue.send({ n: 1 });
    await queue.send({ n: 2 }, { delaySeconds: 300 });
    assert.deepEqual(
      sqs.commandCalls(SendMessageCommand).map((call) => ({ ...call.args[0].input })),
      [
        { QueueUrl: QUEUE_URL, MessageBody: '{"n":1}' },
        { QueueUrl: QUEUE_URL, MessageBody: '{"n":2}', DelaySeconds: 300 },
      ],
    );
  });

  it('refuses delays SQS cannot carry (over 15 minutes, fractions)', async () => {
    await assert.rejects(queue.send({ n: 1 }, { delaySeconds: 1800 }), /0 to 900/);
    await assert.rejects(queue.send({ n: 1 }, { delaySeconds: 1.5 }), /whole seconds/);
    assert.equal(sqs.commandCalls(SendMessageCommand).length, 0);
  });

  it('sends many messages in batches of ten, and fails when SQS refuses any', async () => {
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await queue.sendAll(Array.from({ length: 23 }, (_, n) => ({ n })));
    const batches = sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input);
    assert.deepEqual(
      batches.map((batch) => batch.Entries!.length),
      [10, 10, 3],
    );
    assert.deepEqual(batches[2]!.Entries, [
      { Id: '20', MessageBody: '{"n":20}' },
      { Id: '21', MessageBody: '{"n":21}' },
      { Id: '22', MessageBody: '{"n":22}' },
    ]);
    assert.ok(batches.every((batch) => batch.QueueUrl === QUEUE_URL));

    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [{ Id: '0', Code: 'Throttled', SenderFault: false }] });
    await assert.rejects(queue.sendAll([{ n: 0 }]), /refused 1 of 1 messages: Throttled/);
  });

  it("sends a FIFO queue's messages with their group and deduplication id, one by one or in batches", async () => {
    sqs.on(SendMessageCommand).resolves({});
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    await fifoQueue.send({ org: 'a', job: '1' });
    await fifoQueue.sendAll([
      { org: 'a', job: '2' },
      { org: 'b', job: '3' },
    ]);
    assert.deepEqual(
      sqs.commandCalls(SendMessageCommand).map((call) => ({ ...call.args[0].input })),
      [{ QueueUrl: ORDERED_URL, MessageBody: '{"org":"a","job":"1"}', MessageGroupId: 'org-a', MessageDeduplicationId: 'job-1' }],
    );
    assert.deepEqual(
      sqs.commandCalls(SendMessageBatchCommand).map((call) => ({ ...call.args[0].input })),
      [
        {
          QueueUrl: ORDERED_URL,
          Entries: [
            { Id: '0', MessageBody: '{"org":"a","job":"2"}', MessageGroupId: 'org-a', MessageDeduplicationId: 'job-2' },
            { Id: '1', MessageBody: '{"org":"b","job":"3"}', MessageGroupId: 'org-b', MessageDeduplicationId: 'job-3' },
          ],
        },
      ],
    );
  });

  it('refuses a delayed send to a FIFO queue, which SQS takes no per-message delay on, and sends nothing', async () => {
    await assert.rejects(
      fifoQueue.send({ org: 'a', job: '1' }, { delaySeconds: 60 }),
      /test-ordered is a FIFO queue: it takes no delay per message/,
    );
    assert.equal(sqs.commandCalls(SendMessageCommand).length, 0);
  });

  it('names the environment variable of each queue URL', () => {
    assert.equal(queueUrlVariable('mapping-chunks'), 'QUEUE_URL_MAPPING_CHUNKS');
  });
});

describe('EventBridge Scheduler adapter', () => {
  it('creates a one-time UTC schedule that puts the message on the queue and deletes itself, retried for a day, then dead-lettered', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    const adapter = new EventBridgeScheduler(new SchedulerClient({ region: 'eu-west-1' }), {
      groupName: 'hotel-mapping-test',
      roleArn: 'arn:aws:iam::123456789012:role/scheduler',
      queueArns: { 'test-work': 'arn:aws:sqs:eu-west-1:123456789012:test-work' },
      deadLetterArns: { 'test-work': 'arn:aws:sqs:eu-west-1:123456789012:test-work-dead-letters' },
    });
    await adapter.schedule({ name: 'job-deadline-1234', at: new Date('2026-11-23T10:30:00.000Z'), queue: work, message: { n: 7 } });
    const [call] = scheduler.commandCalls(CreateScheduleCommand);
    assert.deepEqual(
      { ...call!.args[0].input },
      {
        Name: 'job-deadline-1234',
        GroupName: 'hotel-mapping-test',
        ScheduleExpression: 'at(2026-11-23T10:30:00)',
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: 'arn:aws:sqs:eu-west-1:123456789012:test-work',
          RoleArn: 'arn:aws:iam::123456789012:role/scheduler',
          Input: '{"n":7}',
          RetryPolicy: { MaximumEventAgeInSeconds: 86_400, MaximumRetryAttempts: 185 },
          DeadLetterConfig: { Arn: 'arn:aws:sqs:eu-west-1:123456789012:test-work-dead-letters' },
        },
      },
    );
  });

  it('refuses to schedule to a queue whose dead-letter queue it does not know: no schedule is dropped silently', async () => {
    const adapter = new EventBridgeScheduler(new SchedulerClient({ region: 'eu-west-1' }), {
      groupName: 'hotel-mapping-test',
      roleArn: 'arn:aws:iam::123456789012:role/scheduler',
      queueArns: { 'test-work': 'arn:aws:sqs:eu-west-1:123456789012:test-work' },
      deadLetterArns: {},
    });
    await assert.rejects(
      adapter.schedule({ name: 's', at: new Date('2026-11-23T10:30:00.000Z'), queue: work, message: { n: 7 } }),
      /No queue ARN or dead-letter queue ARN is configured for test-work/,
    );
    assert.equal(scheduler.commandCalls(CreateScheduleCommand).length, 0);
  });

  it('refuses to schedule onto a FIFO queue (it would send no deduplication id)', async () => {
    const adapter = new EventBridgeScheduler(new SchedulerClient({ region: 'eu-west-1' }), {
      groupName: 'hotel-mapping-test',
      roleArn: 'arn:aws:iam::123456789012:role/scheduler',
      queueArns: { 'test-ordered': 'arn:aws:sqs:eu-west-1:123456789012:test-ordered.fifo' },
      deadLetterArns: { 'test-ordered': 'arn:aws:sqs:eu-west-1:123456789012:test-ordered-dead-letters.fifo' },
    });
    await assert.rejects(
      adapter.schedule({ name: 's', at: new Date('2026-11-23T10:30:00.000Z'), queue: ordered, message: { org: 'a', job: '1' } }),
      /test-ordered is a FIFO queue: nothing is scheduled onto one/,
    );
    assert.equal(scheduler.commandCalls(CreateScheduleCommand).length, 0);
  });
});

describe('queue worker (middy, partial batch failure)', () => {
  const seen: number[] = [];
  const worker = queueWorker(work, async ({ n }) => {
    if (n < 0) throw new Error('negative');
    seen.push(n);
  });
  const record = (messageId: string, body: string) => ({ messageId, body }) as SQSEvent['Records'][number];

  it('reports exactly the records that failed or were malformed', async () => {
    seen.length = 0;
    const response = await worker.withRuntime(createRuntime({ stage: 'test', region: 'eu-west-1' }))({
      Records: [record('a', '{"n":1}'), record('b', '{"n":-1}'), record('c', 'not json'), record('d', '{"n":"x"}'), record('e', '{"n":2}')],
    });
    assert.deepEqual(response, { batchItemFailures: [{ itemIdentifier: 'b' }, { itemIdentifier: 'c' }, { itemIdentifier: 'd' }] });
    assert.deepEqual(seen, [1, 2]);
  });

  it('from a FIFO queue, reports the records after a failed one of its group as failed without processing them, so the group keeps its order', async () => {
    const processed: string[] = [];
    const orderedWorker = queueWorker(ordered, async ({ org, job }) => {
      if (job === 'bad') throw new Error('fails');
      processed.push(`${org}/${job}`);
    });
    const fifoRecord = (messageId: string, org: string, job: string) =>
      ({
        messageId,
        body: JSON.stringify({ org, job }),
        attributes: { MessageGroupId: `org-${org}` },
      }) as unknown as SQSEvent['Records'][number];
    const response = await orderedWorker.withRuntime(createRuntime({ stage: 'test', region: 'eu-west-1' }))({
      Records: [
        fifoRecord('a1', 'a', '1'),
        fifoRecord('a2', 'a', 'bad'),
        fifoRecord('b1', 'b', '1'),
        fifoRecord('a3', 'a', '3'),
        fifoRecord('b2', 'b', '2'),
      ],
    });
    assert.deepEqual(response, { batchItemFailures: [{ itemIdentifier: 'a2' }, { itemIdentifier: 'a3' }] });
    assert.deepEqual(processed, ['a/1', 'b/1', 'b/2']);
  });
});

describe('in-process messaging', () => {
  const VISIBILITY_MS = visibilityTimeoutSeconds(work) * 1000;

  function setUp(fail: (n: number, attempt: number) => boolean | 'crash', store: MessageStore = memoryMessageStore()) {
    const clock = new ManualClock(new Date('2026-11-23T10:00:00.000Z'));
    const delivered: { n: number; attempt: number; receiveCount: string }[] = [];
    const deadLettered: number[] = [];
    const attempts = new Map<number, number>();
    const messaging = new InProcessMessaging(
      clock,
      async () => ({
        worker: async (event) => {
          const record = event.Records[0]!;
          const n = (JSON.parse(record.body) as { n: number }).n;
          const attempt = (attempts.get(n) ?? 0) + 1;
          attempts.set(n, attempt);
          delivered.push({ n, attempt, receiveCount: record.attributes.ApproximateReceiveCount });
          const outcome = fail(n, attempt);
          // A process that dies mid-delivery: the worker never returns.
          if (outcome === 'crash') return new Promise<never>(() => undefined);
          if (outcome) return { batchItemFailures: [{ itemIdentifier: record.messageId }] };
        },
        deadLetter: async (event) => {
          deadLettered.push((JSON.parse(event.Records[0]!.body) as { n: number }).n);
        },
      }),
      { store, queues: [work] },
    );
    return { clock, messaging, delivered, deadLettered };
  }

  /** The local runtime's folder of messages, which outlives the messaging over it. */
  function durableStore(): MessageStore {
    return messageFolder(mkdtempSync(join(tmpdir(), 'queues-')));
  }
  const stored = (store: MessageStore) => [...store.load()].sort((a, b) => a.sequence - b.sequence);

  it('delivers sent messages in order', async () => {
    const { messaging, delivered } = setUp(() => false);
    await messaging.queue(work).sendAll([{ n: 1 }, { n: 2 }]);
    await messaging.queue(work).send({ n: 3 });
    await messaging.idle();
    assert.deepEqual(
      delivered.map((d) => d.n),
      [1, 2, 3],
    );
  });

  it('hands a failed message out again after the visibility timeout, maxReceiveCount times, then to the dead-letter handler', async () => {
    const { clock, messaging, delivered, deadLettered } = setUp((n) => n === 2);
    await messaging.queue(work).sendAll([{ n: 1 }, { n: 2 }]);
    await messaging.idle();
    assert.deepEqual(
      delivered.map((d) => d.n),
      [1, 2],
    );
    clock.advance(VISIBILITY_MS - 1);
    await messaging.idle();
    assert.equal(delivered.length, 2, 'hidden until its visibility timeout');
    clock.advance(1);
    await messaging.idle();
    clock.advance(VISIBILITY_MS);
    await messaging.idle();
    assert.deepEqual(
      delivered.filter((d) => d.n === 2).map((d) => [d.attempt, d.receiveCount]),
      [
        [1, '1'],
        [2, '2'],
        [3, '3'],
      ],
    );
    assert.deepEqual(deadLettered, [2]);
    assert.deepEqual(messaging.waiting('test-work'), []);
  });

  it('stops retrying once a delivery succeeds', async () => {
    const { clock, messaging, delivered, deadLettered } = setUp((_n, attempt) => attempt < 2);
    await messaging.queue(work).send({ n: 5 });
    await messaging.idle();
    clock.advance(VISIBILITY_MS);
    await messaging.idle();
    assert.deepEqual(
      delivered.map(({ n, attempt }) => ({ n, attempt })),
      [
        { n: 5, attempt: 1 },
        { n: 5, attempt: 2 },
      ],
    );
    assert.deepEqual(deadLettered, []);
  });

  it('holds delayed and scheduled messages until the clock reaches them', async () => {
    const { clock, messaging, delivered } = setUp(() => false);
    await messaging.queue(work).send({ n: 1 }, { delaySeconds: 60 });
    await messaging.scheduler.schedule({ name: 's', at: new Date('2026-11-23T10:30:00.000Z'), queue: work, message: { n: 2 } });
    await messaging.idle();
    assert.equal(delivered.length, 0);
    assert.deepEqual(
      messaging.waiting('test-work').map((w) => w.dueAt.toISOString()),
      ['2026-11-23T10:01:00.000Z', '2026-11-23T10:30:00.000Z'],
    );
    clock.advance(60_000);
    await messaging.idle();
    assert.deepEqual(
      delivered.map((d) => d.n),
      [1],
    );
    clock.advance(29 * 60_000);
    await messaging.idle();
    assert.deepEqual(
      delivered.map((d) => d.n),
      [1, 2],
    );
  });

  it('keeps every message in its store until it is done with, and a restart resumes waiting, delayed and in-flight ones', async () => {
    const store = durableStore();
    const first = setUp((n) => (n === 2 ? 'crash' : false), store);
    await first.messaging.queue(work).sendAll([{ n: 1 }, { n: 2 }, { n: 3 }]);
    await first.messaging.queue(work).send({ n: 4 }, { delaySeconds: 120 });
    void first.messaging.idle(); // n = 2 never returns: the process is killed there
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      first.delivered.map((d) => d.n),
      [1, 2],
    );
    assert.deepEqual(
      stored(store).map(({ body, receiveCount, inFlight }) => [body, receiveCount, inFlight]),
      [
        ['{"n":2}', 1, true],
        ['{"n":3}', 0, false],
        ['{"n":4}', 0, false],
      ],
    );

    const second = setUp(() => false, store);
    await second.messaging.idle();
    assert.deepEqual(
      second.delivered.map(({ n, receiveCount }) => [n, receiveCount]),
      [
        [2, '2'],
        [3, '1'],
      ],
    );
    second.clock.advance(120_000);
    await second.messaging.idle();
    assert.deepEqual(
      second.delivered.map((d) => d.n),
      [2, 3, 4],
    );
    assert.equal(store.load().length, 0);
  });

  it('hands out a FIFO group in order, one message at a time, and takes a deduplication id once in 5 minutes', async () => {
    const clock = new ManualClock(new Date('2026-11-23T10:00:00.000Z'));
    const delivered: string[] = [];
    let failuresLeft = 1;
    const messaging = new InProcessMessaging(
      clock,
      async () => ({
        worker: async (event) => {
          const record = event.Records[0]!;
          const { org, job } = JSON.parse(record.body) as { org: string; job: string };
          delivered.push(`${record.attributes.MessageGroupId}/${record.attributes.MessageDeduplicationId}`);
          if (org === 'a' && job === '1' && failuresLeft-- > 0) return { batchItemFailures: [{ itemIdentifier: record.messageId }] };
        },
      }),
      { queues: [ordered] },
    );
    const queue = messaging.queue(ordered);
    await queue.sendAll([
      { org: 'a', job: '1' },
      { org: 'a', job: '2' },
      { org: 'b', job: '3' },
    ]);
    await queue.send({ org: 'a', job: '1' });
    await messaging.idle();
    assert.deepEqual(
      delivered,
      ['org-a/job-1', 'org-b/job-3'],
      "job-2 waits behind its group's failed job-1; job-1 sent again is taken once",
    );
    clock.advance(VISIBILITY_MS);
    await messaging.idle();
    assert.deepEqual(delivered.slice(2), ['org-a/job-1', 'org-a/job-2']);
    clock.advance(5 * 60_000);
    await queue.send({ org: 'a', job: '1' });
    await messaging.idle();
    assert.deepEqual(delivered.slice(4), ['org-a/job-1'], 'a deduplication id is taken again after 5 minutes');

    await assert.rejects(
      queue.send({ org: 'a', job: '4' }, { delaySeconds: 10 }),
      /test-ordered is a FIFO queue: it takes no delay per message/,
    );
    await assert.rejects(
      messaging.scheduler.schedule({
        name: 's',
        at: new Date('2026-11-23T11:00:00.000Z'),
        queue: ordered,
        message: { org: 'a', job: '5' },
      }),
      /test-ordered is a FIFO queue: nothing is scheduled onto one/,
    );
    assert.deepEqual(messaging.waiting('test-ordered'), []);
  });

  it('dead-letters a message that kills the process on every delivery, counting each receive', async () => {
    const store = durableStore();
    let run = setUp(() => 'crash', store);
    await run.messaging.queue(work).send({ n: 9 });
    for (let restart = 0; restart < work.maxReceiveCount; restart++) {
      void run.messaging.idle();
      await new Promise((resolve) => setImmediate(resolve));
      run = setUp(() => 'crash', store);
    }
    await run.messaging.idle();
    assert.deepEqual(run.delivered, [], 'not delivered a fourth time');
    assert.deepEqual(run.deadLettered, [9]);
    assert.equal(store.load().length, 0);
  });
});

describe('queue and scheduler services in AWS (no in-process messaging)', () => {
  it('sends with only the queue URL configured, and schedules with only the scheduler settings', async () => {
    sqs.on(SendMessageCommand).resolves({});
    scheduler.on(CreateScheduleCommand).resolves({});
    const { queueOf, schedulerOf } = await import('../../../shared/platform/queue/services');
    const sender = createRuntime({ stage: 'test', region: 'eu-west-1', queueUrls: { 'test-work': QUEUE_URL } });
    await queueOf(sender, work).send({ n: 1 });
    assert.equal(sqs.commandCalls(SendMessageCommand)[0]!.args[0].input.QueueUrl, QUEUE_URL);
    assert.throws(() => schedulerOf(sender), /SCHEDULER_GROUP_NAME/);

    const scheduling = createRuntime({
      stage: 'test',
      region: 'eu-west-1',
      schedulerGroupName: 'g',
      schedulerRoleArn: 'arn:aws:iam::1:role/r',
      queueArns: { 'test-work': 'arn:aws:sqs:eu-west-1:1:test-work' },
      queueDeadLetterArns: { 'test-work': 'arn:aws:sqs:eu-west-1:1:test-work-dead-letters' },
    });
    await schedulerOf(scheduling).schedule({ name: 's', at: new Date('2026-11-23T10:00:00Z'), queue: work, message: { n: 2 } });
    assert.equal(scheduler.commandCalls(CreateScheduleCommand).length, 1);
    assert.throws(() => queueOf(scheduling, work), /QUEUE_URL_TEST_WORK/);
  });
});
