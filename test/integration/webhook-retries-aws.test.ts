/**
 * A subscription's retry schedule as the AWS adapters carry it: the exact SQS SendMessage and
 * EventBridge Scheduler CreateSchedule commands (aws-sdk-client-mock) for each failed attempt of a
 * delivery, over a real table on DynamoDB Local. The receiver is a stub that always answers 500;
 * the HTTP sender has its own tests.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, beforeEach, describe, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { provisionResources } from '../../infra/local/stack';
import { ManualClock } from '../../shared/platform/clock';
import { createRuntime, type Runtime } from '../../shared/platform/runtime';
import { secretBoxOf } from '../../shared/platform/secrets/services';
import { deliveryIdOf } from '../../shared/webhooks/delivery';
import {
  abandonAttempt,
  attemptDelivery,
  redeliver,
  startDelivery,
  type DeliveryPorts,
  type KnownEvent,
} from '../../shared/webhooks/dispatch';
import type { DeliveryMessage } from '../../shared/webhooks/queues';
import type { AttemptOutcome, WebhookRequest, WebhookSender } from '../../shared/webhooks/sender';
import { deliveryPorts } from '../../shared/webhooks/services';
import { newSigningSecret } from '../../shared/webhooks/signing';
import { deliveryStoreOf, webhookStoreOf } from '../../shared/webhooks/store';
import { secretContext, type Webhook } from '../../shared/webhooks/webhook';
import { testConfig } from '../support/test-api';

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/webhook-deliveries';
const QUEUE_ARN = 'arn:aws:sqs:eu-west-1:123456789012:webhook-deliveries';
const DEAD_LETTERS_ARN = 'arn:aws:sqs:eu-west-1:123456789012:webhook-deliveries-dead-letters';
const GROUP = 'hotel-mapping-test';
const SCHEDULER_ROLE = 'arn:aws:iam::123456789012:role/scheduler';
const RECEIVER = 'https://receiver.example/hook';
const MINUTE = 60_000;

const sqs = mockClient(SQSClient);
const scheduler = mockClient(SchedulerClient);
beforeEach(() => {
  sqs.reset();
  scheduler.reset();
  sqs.on(SendMessageCommand).resolves({ MessageId: randomUUID() });
  scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: `arn:aws:scheduler:eu-west-1:123456789012:schedule/${GROUP}/x` });
});

/** A receiver that always answers 500, recording what it was sent. */
class FailingReceiver implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  /** While set, each send waits for it (an attempt held in flight). */
  hold?: Promise<void>;
  async send(request: WebhookRequest): Promise<AttemptOutcome> {
    this.requests.push(request);
    if (this.hold) await this.hold;
    return { succeeded: false, statusCode: 500, durationMs: 3 };
  }
}

const config = testConfig({
  queueUrls: { 'webhook-deliveries': QUEUE_URL },
  queueArns: { 'webhook-deliveries': QUEUE_ARN },
  queueDeadLetterArns: { 'webhook-deliveries': DEAD_LETTERS_ARN },
  schedulerGroupName: GROUP,
  schedulerRoleArn: SCHEDULER_ROLE,
});
const clock = new ManualClock(new Date('2026-11-22T10:00:00.250Z'));
let runtime: Runtime;

beforeAll(async () => {
  await provisionResources(config);
  // No messaging: the queue is SqsQueue and the scheduler EventBridgeScheduler.
  runtime = createRuntime(config, { clock });
});

/** The runtime's delivery ports with the stub receiver in place of the HTTP sender. */
function portsWith(sender: WebhookSender): DeliveryPorts {
  return { ...deliveryPorts(runtime), sender };
}

async function newSubscription(): Promise<Webhook> {
  const organizationId = randomUUID();
  const id = randomUUID();
  const now = clock.now().toISOString();
  const sealed = await secretBoxOf(runtime).seal(newSigningSecret(), secretContext({ organizationId, id }, 'signing-secret'));
  const webhook: Webhook = {
    id,
    organizationId,
    kind: 'SUBSCRIPTION',
    url: RECEIVER,
    status: 'ACTIVE',
    events: ['MAPPING_COMPLETED'],
    description: 'retry schedule test',
    createdAt: now,
    updatedAt: now,
    revision: 1,
    signingSecrets: [{ sealed, createdAt: now }],
  };
  await webhookStoreOf(runtime).create(webhook);
  return webhook;
}

function eventFor(webhook: Webhook): KnownEvent {
  return {
    id: randomUUID(),
    type: 'MAPPING_COMPLETED',
    organizationId: webhook.organizationId,
    occurredAt: clock.now().toISOString(),
    data: { mappingJobId: randomUUID(), status: 'COMPLETED' },
    correlationId: `request-${randomUUID()}`,
  };
}

/** A delivery's message as SQS gets it: under the correlation id of the event's work. */
function queued(event: KnownEvent, message: DeliveryMessage, delaySeconds?: number) {
  return {
    QueueUrl: QUEUE_URL,
    MessageBody: JSON.stringify(message),
    ...(delaySeconds !== undefined && { DelaySeconds: delaySeconds }),
    MessageAttributes: { correlationId: { DataType: 'String', StringValue: event.correlationId } },
  };
}

const sent = () => sqs.commandCalls(SendMessageCommand).map((call) => ({ ...call.args[0].input }));
const scheduled = () => scheduler.commandCalls(CreateScheduleCommand).map((call) => ({ ...call.args[0].input }));
const body = (message: DeliveryMessage) => JSON.stringify(message);
/** EventBridge Scheduler's at(): to the second, without zone (the zone is given apart). */
const atExpression = (at: Date) => `at(${at.toISOString().slice(0, 19)})`;

/** Starts a delivery and returns its message factory; the SQS calls so far are cleared. */
async function started(ports: DeliveryPorts, webhook: Webhook) {
  const event = eventFor(webhook);
  const delivery = await startDelivery(ports, webhook, event, { test: false });
  const message = (attempt: number): DeliveryMessage => ({ organizationId: webhook.organizationId, deliveryId: delivery.id, attempt });
  return { event, delivery, message };
}

describe('retry schedule of a subscription on SQS and EventBridge Scheduler', () => {
  it('queues attempt 1 at once, retries after 1 and 5 minutes by SQS delay, after 30 by a one-time schedule, then dead-letters', async () => {
    const receiver = new FailingReceiver();
    const ports = portsWith(receiver);
    const webhook = await newSubscription();
    const event = eventFor(webhook);
    const deliveries = deliveryStoreOf(runtime);

    // Start: one message for attempt 1, with no delay.
    const delivery = await startDelivery(ports, webhook, event, { test: false });
    assert.equal(delivery.id, deliveryIdOf(event.id, webhook.id));
    assert.equal(delivery.status, 'PENDING');
    const message = (attempt: number): DeliveryMessage => ({ organizationId: webhook.organizationId, deliveryId: delivery.id, attempt });
    assert.deepEqual(sent(), [queued(event, message(1))]);
    assert.equal(sqs.commandCalls(SendMessageBatchCommand).length, 0);
    assert.equal(scheduled().length, 0);

    // Attempt 1 fails: attempt 2 waits 60 s on SQS.
    clock.advance(2_000);
    const attempt1At = clock.now();
    sqs.resetHistory();
    await attemptDelivery(ports, message(1));
    assert.equal(receiver.requests.length, 1);
    assert.equal(receiver.requests[0]!.url, RECEIVER);
    assert.equal(receiver.requests[0]!.body, delivery.payload);
    assert.ok(receiver.requests[0]!.headers['webhook-signature']?.startsWith('v1,'), 'a subscription attempt is signed');
    assert.deepEqual(sent(), [queued(event, message(2), 60)]);
    assert.equal(scheduled().length, 0);
    let stored = (await deliveries.get(webhook.organizationId, delivery.id))!;
    assert.equal(stored.status, 'RETRYING');
    assert.deepEqual(stored.attempts, [
      { number: 1, attemptedAt: attempt1At.toISOString(), succeeded: false, statusCode: 500, durationMs: 3 },
    ]);
    assert.equal(stored.nextAttemptAt, new Date(attempt1At.getTime() + MINUTE).toISOString());

    // Attempt 2, a minute later, fails: attempt 3 waits 300 s on SQS.
    clock.advance(MINUTE);
    const attempt2At = clock.now();
    sqs.resetHistory();
    await attemptDelivery(ports, message(2));
    assert.equal(receiver.requests.length, 2);
    assert.deepEqual(sent(), [queued(event, message(3), 300)]);
    assert.equal(scheduled().length, 0);
    stored = (await deliveries.get(webhook.organizationId, delivery.id))!;
    assert.equal(stored.status, 'RETRYING');
    assert.equal(stored.attempts.length, 2);
    assert.equal(stored.attempts[1]!.attemptedAt, attempt2At.toISOString());
    assert.equal(stored.nextAttemptAt, new Date(attempt2At.getTime() + 5 * MINUTE).toISOString());

    // Attempt 3, five minutes later, fails: attempt 4 is 30 minutes away, beyond SQS's 15: a one-time schedule.
    clock.advance(5 * MINUTE);
    const attempt3At = clock.now();
    sqs.resetHistory();
    await attemptDelivery(ports, message(3));
    assert.equal(receiver.requests.length, 3);
    assert.deepEqual(sent(), [], 'no SQS message for a 30-minute wait');
    const retryAt = new Date(attempt3At.getTime() + 30 * MINUTE);
    assert.deepEqual(scheduled(), [
      {
        Name: `webhook-${delivery.id}-4`,
        GroupName: GROUP,
        ScheduleExpression: atExpression(retryAt),
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: QUEUE_ARN,
          RoleArn: SCHEDULER_ROLE,
          Input: body(message(4)),
          RetryPolicy: { MaximumEventAgeInSeconds: 86_400, MaximumRetryAttempts: 185 },
          DeadLetterConfig: { Arn: DEAD_LETTERS_ARN },
        },
      },
    ]);
    // 10:06:02.250 + 30 min, cut to the second.
    assert.equal(scheduled()[0]!.ScheduleExpression, 'at(2026-11-22T10:36:02)');
    assert.ok(scheduled()[0]!.Name!.length <= 64, 'schedule names are at most 64 characters');
    stored = (await deliveries.get(webhook.organizationId, delivery.id))!;
    assert.equal(stored.status, 'RETRYING');
    assert.equal(stored.attempts[2]!.attemptedAt, attempt3At.toISOString());
    assert.equal(stored.nextAttemptAt, retryAt.toISOString());

    // Attempt 4, when the schedule fires, fails: the delivery is dead-lettered and nothing more is queued.
    clock.set(retryAt);
    const attempt4At = clock.now();
    sqs.resetHistory();
    scheduler.resetHistory();
    await attemptDelivery(ports, message(4));
    assert.equal(receiver.requests.length, 4);
    assert.deepEqual(sent(), []);
    assert.deepEqual(scheduled(), []);
    stored = (await deliveries.get(webhook.organizationId, delivery.id))!;
    assert.equal(stored.status, 'DEAD_LETTERED');
    assert.equal(stored.nextAttemptAt, undefined);
    assert.deepEqual(
      stored.attempts.map((attempt) => [attempt.number, attempt.attemptedAt, attempt.succeeded, attempt.statusCode]),
      [
        [1, attempt1At.toISOString(), false, 500],
        [2, attempt2At.toISOString(), false, 500],
        [3, attempt3At.toISOString(), false, 500],
        [4, attempt4At.toISOString(), false, 500],
      ],
    );
    assert.deepEqual(
      stored.attempts.map((attempt) => attempt.attemptedAt),
      ['2026-11-22T10:00:02.250Z', '2026-11-22T10:01:02.250Z', '2026-11-22T10:06:02.250Z', '2026-11-22T10:36:02.250Z'],
    );
  });

  it('sends attempt 1 to the receiver once, however often its message is processed (the claim)', async () => {
    const receiver = new FailingReceiver();
    const ports = portsWith(receiver);
    const webhook = await newSubscription();
    const { event, delivery, message } = await started(ports, webhook);

    // Two workers read the delivery before either claims attempt 1: only one wins the claim.
    const store = deliveryStoreOf(runtime);
    let reads = 0;
    let bothRead!: () => void;
    const barrier = new Promise<void>((resolve) => (bothRead = resolve));
    const racing = Object.create(store) as typeof store;
    racing.get = async (organizationId, deliveryId) => {
      const found = await store.get(organizationId, deliveryId);
      if (++reads === 2) bothRead();
      await barrier;
      return found;
    };
    sqs.resetHistory();
    await Promise.all([
      attemptDelivery({ ...ports, deliveries: racing }, message(1)),
      attemptDelivery({ ...ports, deliveries: racing }, message(1)),
    ]);
    assert.equal(receiver.requests.length, 1, 'sent once');
    assert.deepEqual(sent(), [queued(event, message(2), 60)], 'attempt 2 queued once');

    // Processed again after it was recorded: nothing to the receiver; attempt 2 is queued again for the time left.
    clock.advance(20_000);
    sqs.resetHistory();
    await attemptDelivery(ports, message(1));
    assert.equal(receiver.requests.length, 1, 'still sent once');
    assert.deepEqual(sent(), [queued(event, message(2), 40)]);
    const stored = (await store.get(webhook.organizationId, delivery.id))!;
    assert.equal(stored.attempts.length, 1);
    assert.equal(stored.claimedAttempts, 1);
    assert.equal(stored.status, 'RETRYING');
  });

  it('leaves an attempt in flight to its worker: its message processed meanwhile sends nothing and is tried again later', async () => {
    const receiver = new FailingReceiver();
    const ports = portsWith(receiver);
    const webhook = await newSubscription();
    const { message } = await started(ports, webhook);

    let release!: () => void;
    receiver.hold = new Promise<void>((resolve) => (release = resolve));
    const first = attemptDelivery(ports, message(1));
    while (receiver.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await assert.rejects(attemptDelivery(ports, message(1)), /in flight elsewhere/);
    release();
    await first;
    assert.equal(receiver.requests.length, 1);
  });

  it('takes a repeated schedule (ConflictException) as already scheduled', async () => {
    const receiver = new FailingReceiver();
    const ports = portsWith(receiver);
    const webhook = await newSubscription();
    const { delivery, message } = await started(ports, webhook);
    for (const attempt of [1, 2]) {
      clock.advance(10 * MINUTE);
      await attemptDelivery(ports, message(attempt));
    }
    clock.advance(10 * MINUTE);
    scheduler.on(CreateScheduleCommand).rejects(
      new ConflictException({
        message: 'Schedule already exists.',
        Message: 'Schedule already exists.',
        $metadata: { httpStatusCode: 409 },
      }),
    );
    sqs.resetHistory();
    await attemptDelivery(ports, message(3));
    // The attempt-3 message delivered again: the same schedule is asked for again, and that is fine too.
    await attemptDelivery(ports, message(3));
    assert.deepEqual(
      scheduled().map((input) => input.Name),
      [`webhook-${delivery.id}-4`, `webhook-${delivery.id}-4`],
    );
    assert.deepEqual(sent(), []);
    assert.equal(receiver.requests.length, 3);
    const stored = (await deliveryStoreOf(runtime).get(webhook.organizationId, delivery.id))!;
    assert.equal(stored.status, 'RETRYING');
    assert.equal(stored.attempts.length, 3);

    // Any other scheduler error fails the message, so that it is tried again.
    scheduler.on(CreateScheduleCommand).rejects(new Error('Rate exceeded'));
    await assert.rejects(attemptDelivery(ports, message(3)), /Rate exceeded/);
  });

  it('dead-letters a delivery whose next attempt could never be queued, and a redelivery then queues it', async () => {
    const receiver = new FailingReceiver();
    const ports = portsWith(receiver);
    const webhook = await newSubscription();
    const { event, delivery, message } = await started(ports, webhook);
    sqs.on(SendMessageCommand).rejects(new Error('SQS is unavailable'));
    await assert.rejects(attemptDelivery(ports, message(1)), /SQS is unavailable/);
    // Redelivered by SQS until its maxReceiveCount: still nothing queued, nothing sent twice.
    await assert.rejects(attemptDelivery(ports, message(1)), /SQS is unavailable/);
    assert.equal(receiver.requests.length, 1);
    await abandonAttempt(ports, message(1));
    const stored = (await deliveryStoreOf(runtime).get(webhook.organizationId, delivery.id))!;
    assert.equal(stored.status, 'DEAD_LETTERED');
    assert.equal(stored.attempts.length, 1);
    assert.equal(stored.nextAttemptAt, undefined);

    sqs.on(SendMessageCommand).resolves({ MessageId: randomUUID() });
    sqs.resetHistory();
    const again = await redeliver(ports, stored);
    assert.equal(again.status, 'PENDING');
    assert.deepEqual(sent(), [queued(event, message(2))]);
  });

  it('leaves a redelivery undone when its message cannot be queued, so it can be asked again', async () => {
    const receiver = new FailingReceiver();
    const ports = portsWith(receiver);
    const webhook = await newSubscription();
    const { delivery, message } = await started(ports, webhook);
    for (const [attempt, wait] of [
      [1, 0],
      [2, 1],
      [3, 5],
      [4, 30],
    ] as const) {
      clock.advance(wait * MINUTE);
      await attemptDelivery(ports, message(attempt));
    }
    const dead = (await deliveryStoreOf(runtime).get(webhook.organizationId, delivery.id))!;
    assert.equal(dead.status, 'DEAD_LETTERED');
    sqs.on(SendMessageCommand).rejects(new Error('SQS is unavailable'));
    await assert.rejects(redeliver(ports, dead), /SQS is unavailable/);
    assert.equal((await deliveryStoreOf(runtime).get(webhook.organizationId, delivery.id))!.status, 'DEAD_LETTERED');
  });
});
