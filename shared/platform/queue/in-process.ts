/**
 * Queues and the scheduler in this process, for the local runtime and the tests: the same message
 * shapes reach the same worker handlers as on SQS, one record per invocation. A failed delivery
 * is tried again until the queue's maxReceiveCount, then handed to the dead-letter handler (or
 * kept in `deadLetters`). Delays and schedules are due by the runtime's clock, so tests move the
 * clock instead of waiting; `idle()` delivers everything due and waits until nothing is in flight.
 */
import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Clock } from '../clock';
import { describeError, log } from '../logging';
import type { Messaging, Queue, QueueDefinition, ScheduledDelivery, Scheduler, SendOptions } from './queue';

export type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/** The worker and dead-letter handler of a queue, as the local runtime loads them. */
export type ConsumerLookup = (definition: QueueDefinition) => Promise<{ worker: QueueConsumer; deadLetter?: QueueConsumer }>;

interface Pending {
  definition: QueueDefinition;
  id: string;
  body: string;
  dueAt: number;
  receiveCount: number;
}

export class InProcessMessaging implements Messaging {
  readonly scheduler: Scheduler;
  /** Messages that failed maxReceiveCount times on a queue without a dead-letter handler. */
  readonly deadLetters: { queue: string; body: unknown }[] = [];
  private readonly pending: Pending[] = [];
  private draining: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly consumers: ConsumerLookup,
  ) {
    this.scheduler = {
      schedule: async <M>({ at, queue, message }: ScheduledDelivery<M>) => this.enqueue(queue, message, at.getTime()),
    };
  }

  queue<M>(definition: QueueDefinition<M>): Queue<M> {
    return {
      send: async (message: M, options: SendOptions = {}) =>
        this.enqueue(definition, message, this.clock.now().getTime() + (options.delaySeconds ?? 0) * 1000),
      sendAll: async (messages: readonly M[]) => {
        for (const message of messages) this.enqueue(definition, message, this.clock.now().getTime());
      },
    };
  }

  /** Delivers what is due now, and what those deliveries send, until nothing due is left. */
  idle(): Promise<void> {
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  /** Keeps delivering in the background (npm start): at once on send, and every second for delays. */
  start(): void {
    this.timer ??= setInterval(() => void this.idle(), 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Messages not yet delivered, by queue (tests look at delayed ones). */
  waiting(queueName: string): { body: unknown; dueAt: Date }[] {
    return this.pending
      .filter((item) => item.definition.name === queueName)
      .map((item) => ({ body: JSON.parse(item.body) as unknown, dueAt: new Date(item.dueAt) }));
  }

  /** Drops waiting messages of a queue that match (tests play a message lost in transit). */
  drop(queueName: string, matches: (body: unknown) => boolean): number {
    const lost = this.pending.filter((item) => item.definition.name === queueName && matches(JSON.parse(item.body)));
    for (const item of lost) this.pending.splice(this.pending.indexOf(item), 1);
    return lost.length;
  }

  private enqueue(definition: QueueDefinition, message: unknown, dueAt: number): void {
    this.pending.push({ definition, id: randomUUID(), body: JSON.stringify(message), dueAt, receiveCount: 0 });
    if (this.timer) setImmediate(() => void this.idle());
  }

  private async drain(): Promise<void> {
    for (;;) {
      const now = this.clock.now().getTime();
      const index = this.pending.findIndex((item) => item.dueAt <= now);
      if (index < 0) return;
      const [item] = this.pending.splice(index, 1);
      await this.deliver(item!);
    }
  }

  private async deliver(item: Pending): Promise<void> {
    item.receiveCount++;
    const { worker, deadLetter } = await this.consumers(item.definition);
    const record = sqsRecord(item, this.clock.now());
    let failed: boolean;
    try {
      const response = await worker({ Records: [record] });
      failed = (response?.batchItemFailures ?? []).some((failure) => failure.itemIdentifier === item.id);
    } catch (error) {
      log('warn', 'in-process queue: worker failed', { queue: item.definition.name, ...describeError(error) });
      failed = true;
    }
    if (!failed) return;
    if (item.receiveCount < item.definition.maxReceiveCount) {
      this.pending.push(item);
      return;
    }
    if (deadLetter) {
      await deadLetter({ Records: [sqsRecord(item, this.clock.now())] });
    } else {
      this.deadLetters.push({ queue: item.definition.name, body: JSON.parse(item.body) as unknown });
    }
  }
}

/** The record SQS would hand a Lambda. */
function sqsRecord(item: Pending, now: Date): SQSRecord {
  return {
    messageId: item.id,
    receiptHandle: item.id,
    body: item.body,
    attributes: {
      ApproximateReceiveCount: String(item.receiveCount),
      SentTimestamp: String(item.dueAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(now.getTime()),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${item.definition.name}`,
    awsRegion: 'local',
  };
}
