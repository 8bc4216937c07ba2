/**
 * Queues and the scheduler in this process, for the local runtime and the tests, with SQS's rules:
 * the same message shapes reach the same worker handlers, one record per invocation; a delivery
 * that fails reappears after the queue's visibility timeout, until its receive count reaches the
 * queue's maxReceiveCount, then it goes to the dead-letter handler (or stays dead-lettered);
 * delays and schedules are due by the runtime's clock, so tests move the clock instead of waiting.
 * A FIFO queue hands out a group's next message only once the one before is done with (deleted or
 * dead-lettered), drops a message whose deduplication id it took in the 5 minutes before, and
 * refuses delays and schedules, as SQS does.
 *
 * Every message is kept in a MessageStore from the moment it is sent until it is done with, and
 * its receive is recorded before its worker runs. Over a store that outlives the process (the
 * local runtime keeps one under .local/), a restart resumes what was waiting, delayed, scheduled
 * or in flight: a message whose worker died with the process is handed out again at once (this
 * runtime knows that worker is gone, where SQS would wait out the visibility timeout), and counts
 * that receive, so a message that kills the process every time still ends dead-lettered.
 */
import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Clock } from '../clock';
import { CORRELATION_ID_ATTRIBUTE, currentCorrelationId } from '../correlation';
import { describeError, log } from '../logging';
import {
  FIFO_DEDUPLICATION_SECONDS,
  refuseFifoDelay,
  refuseFifoSchedule,
  visibilityTimeoutSeconds,
  type Messaging,
  type Queue,
  type QueueAddress,
  type QueueDefinition,
  type ScheduledDelivery,
  type Scheduler,
  type SendOptions,
} from './queue';

export type QueueConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/** The worker and dead-letter handler of a queue, as the local runtime loads them. */
export type ConsumerLookup = (definition: QueueDefinition) => Promise<{ worker: QueueConsumer; deadLetter?: QueueConsumer }>;

export interface StoredMessage {
  id: string;
  queue: string;
  body: string;
  /** Order of sending, kept across restarts. */
  sequence: number;
  sentAt: number;
  /** When the message may next be handed out. */
  dueAt: number;
  receiveCount: number;
  /** Handed to a worker that has not finished with it. */
  inFlight: boolean;
  /** Failed maxReceiveCount deliveries and its dead-letter handler did not take it. */
  deadLettered: boolean;
  /** The sender's correlation id, handed to the worker as SQS hands its message attribute. */
  correlationId?: string;
  /** On a FIFO queue: its group and deduplication id. */
  groupId?: string;
  deduplicationId?: string;
}

/** Where messages wait. Writes are synchronous: once `put` returns, the message survives a crash. */
export interface MessageStore {
  load(): StoredMessage[];
  put(message: StoredMessage): void;
  remove(id: string): void;
}

/** Messages that live as long as the process (tests). */
export function memoryMessageStore(): MessageStore {
  return { load: () => [], put: () => undefined, remove: () => undefined };
}

export interface InProcessOptions {
  /** Defaults to memory. */
  store?: MessageStore;
  /** The queue table: each queue's consumer, and the queues whose stored messages a restart resumes. */
  queues: readonly QueueDefinition[];
}

/**
 * Something else that feeds the queues (the local runtime's reader of the table's stream): asked
 * for what it has whenever the messaging delivers; true when it did something.
 */
export type MessageSource = () => Promise<boolean>;

export class InProcessMessaging implements Messaging {
  readonly scheduler: Scheduler;
  private readonly store: MessageStore;
  private readonly definitions = new Map<string, QueueDefinition>();
  private readonly messages: StoredMessage[];
  private sequence: number;
  private readonly sources: MessageSource[] = [];
  private readonly refusals = new Map<string, number>();
  /** On FIFO queues: when each deduplication id was last taken (queue and id -> epoch ms). */
  private readonly deduplicationIds = new Map<string, number>();
  private draining: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly consumers: ConsumerLookup,
    options: InProcessOptions,
  ) {
    this.store = options.store ?? memoryMessageStore();
    for (const definition of options.queues) this.definitions.set(definition.name, definition);
    this.messages = this.store
      .load()
      .filter((message) => this.definitions.has(message.queue))
      .sort((a, b) => a.sequence - b.sequence);
    for (const message of this.messages.filter((stored) => stored.inFlight)) {
      // Its worker died with the previous process: due again now, its receive already counted.
      this.save(Object.assign(message, { inFlight: false, dueAt: Math.min(message.dueAt, this.clock.now().getTime()) }));
    }
    this.sequence = Math.max(0, ...this.messages.map((message) => message.sequence));
    this.scheduler = {
      schedule: async <M>({ at, queue, message }: ScheduledDelivery<M>) => {
        refuseFifoSchedule(queue);
        this.enqueue(queue, message, at.getTime());
      },
    };
  }

  queue<M>(address: QueueAddress<M>): Queue<M> {
    return {
      send: async (message: M, options: SendOptions = {}) => {
        refuseFifoDelay(address, options);
        this.enqueue(address, message, this.clock.now().getTime() + (options.delaySeconds ?? 0) * 1000);
      },
      sendAll: async (messages: readonly M[]) => {
        for (const message of messages) this.enqueue(address, message, this.clock.now().getTime());
      },
    };
  }

  addSource(source: MessageSource): void {
    this.sources.push(source);
  }

  /** Delivers what is due now, and what those deliveries send or the sources bring, until nothing due is left. */
  idle(): Promise<void> {
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
    });
    return this.draining;
  }

  /** Keeps delivering in the background (npm start): at once on send, and four times a second for delays and sources. */
  start(): void {
    this.timer ??= setInterval(() => void this.idle(), 250);
    this.timer.unref();
    setImmediate(() => void this.idle());
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Messages not yet delivered, by queue (tests look at delayed ones). */
  waiting(queueName: string): { body: unknown; dueAt: Date; receiveCount: number }[] {
    return this.messages
      .filter((message) => message.queue === queueName && !message.deadLettered)
      .map((message) => ({
        body: JSON.parse(message.body) as unknown,
        dueAt: new Date(message.dueAt),
        receiveCount: message.receiveCount,
      }));
  }

  /** Messages that failed maxReceiveCount times on a queue without a dead-letter handler (or that it refused). */
  get deadLetters(): { queue: string; body: unknown }[] {
    return this.messages
      .filter((message) => message.deadLettered)
      .map((message) => ({ queue: message.queue, body: JSON.parse(message.body) as unknown }));
  }

  /** Refuses the next `times` sends to a queue, as SQS can (tests play a send that fails). */
  refuseSends(queueName: string, times: number): void {
    this.refusals.set(queueName, times);
  }

  /** Drops waiting messages of a queue that match (tests play a message lost in transit). */
  drop(queueName: string, matches: (body: unknown) => boolean): number {
    const lost = this.messages.filter(
      (message) => message.queue === queueName && !message.deadLettered && matches(JSON.parse(message.body)),
    );
    for (const message of lost) this.forget(message);
    return lost.length;
  }

  private enqueue<M>(queue: QueueAddress<M>, message: M, dueAt: number): void {
    const refusals = this.refusals.get(queue.name) ?? 0;
    if (refusals > 0) {
      this.refusals.set(queue.name, refusals - 1);
      throw new Error(`The queue ${queue.name} refused the message (in-process refusal).`);
    }
    // A sender knows the queue's address; its consumer comes from the queue table.
    if (!this.definitions.has(queue.name)) throw new Error(`No consumer is declared for the queue ${queue.name} (the queue table).`);
    const fifo = queue.fifo && { groupId: queue.fifo.groupOf(message), deduplicationId: queue.fifo.deduplicationIdOf(message) };
    if (fifo && this.isDuplicate(queue.name, fifo.deduplicationId)) return;
    const correlationId = currentCorrelationId();
    const stored: StoredMessage = {
      id: randomUUID(),
      queue: queue.name,
      body: JSON.stringify(message),
      sequence: ++this.sequence,
      sentAt: this.clock.now().getTime(),
      dueAt,
      receiveCount: 0,
      inFlight: false,
      deadLettered: false,
      ...(correlationId !== undefined && { correlationId }),
      ...fifo,
    };
    this.messages.push(stored);
    this.store.put(stored);
    if (this.timer) setImmediate(() => void this.idle());
  }

  private async drain(): Promise<void> {
    for (;;) {
      const now = this.clock.now().getTime();
      const due = this.messages.find(
        (message) => !message.inFlight && !message.deadLettered && message.dueAt <= now && this.isNextOfGroup(message),
      );
      if (due) {
        await this.deliver(due);
        continue;
      }
      // Nothing due: what the sources bring, until they bring nothing.
      let fed = false;
      for (const source of this.sources) fed = (await source()) || fed;
      if (!fed) return;
    }
  }

  /** As SQS remembers a FIFO queue's deduplication ids for 5 minutes: true when the id was taken within them. */
  private isDuplicate(queueName: string, deduplicationId: string): boolean {
    const now = this.clock.now().getTime();
    const key = `${queueName}\u0000${deduplicationId}`;
    const takenAt = this.deduplicationIds.get(key);
    if (takenAt !== undefined && now - takenAt < FIFO_DEDUPLICATION_SECONDS * 1000) return true;
    this.deduplicationIds.set(key, now);
    return false;
  }

  /** A message of a FIFO group waits for every earlier one of its group to be done with. */
  private isNextOfGroup(message: StoredMessage): boolean {
    if (message.groupId === undefined) return true;
    return (
      this.messages.find((other) => other.queue === message.queue && other.groupId === message.groupId && !other.deadLettered) === message
    );
  }

  private async deliver(message: StoredMessage): Promise<void> {
    const definition = this.definitions.get(message.queue)!;
    const { worker, deadLetter } = await this.consumers(definition);
    if (message.receiveCount >= definition.maxReceiveCount) return this.deadLetter(message, deadLetter);
    this.save(Object.assign(message, { receiveCount: message.receiveCount + 1, inFlight: true }));
    let failed: boolean;
    try {
      const response = await worker({ Records: [sqsRecord(message, this.clock.now())] });
      failed = (response?.batchItemFailures ?? []).some((failure) => failure.itemIdentifier === message.id);
    } catch (error) {
      log('warn', 'in-process queue: worker failed', { queue: message.queue, ...describeError(error) });
      failed = true;
    }
    if (!failed) return this.forget(message);
    const visibleAgainAt = this.clock.now().getTime() + visibilityTimeoutSeconds(definition) * 1000;
    if (message.receiveCount < definition.maxReceiveCount) {
      this.save(Object.assign(message, { inFlight: false, dueAt: visibleAgainAt }));
    } else {
      // As SQS's redrive: the receive that reaches maxReceiveCount moves it to the dead-letter queue.
      this.save(Object.assign(message, { inFlight: false }));
      await this.deadLetter(message, deadLetter);
    }
  }

  private async deadLetter(message: StoredMessage, handler: QueueConsumer | undefined): Promise<void> {
    if (handler) {
      try {
        const response = await handler({ Records: [sqsRecord(message, this.clock.now())] });
        if (!(response?.batchItemFailures ?? []).length) return this.forget(message);
      } catch (error) {
        log('error', 'in-process queue: dead-letter handler failed', { queue: message.queue, ...describeError(error) });
      }
    }
    this.save(Object.assign(message, { deadLettered: true }));
  }

  private save(message: StoredMessage): void {
    this.store.put(message);
  }

  private forget(message: StoredMessage): void {
    this.messages.splice(this.messages.indexOf(message), 1);
    this.store.remove(message.id);
  }
}

/** The record SQS would hand a Lambda. */
function sqsRecord(message: StoredMessage, now: Date): SQSRecord {
  return {
    messageId: message.id,
    receiptHandle: `${message.id}#${message.receiveCount}`,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(message.receiveCount),
      SentTimestamp: String(message.sentAt),
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: String(now.getTime()),
      ...(message.groupId !== undefined && { MessageGroupId: message.groupId, MessageDeduplicationId: message.deduplicationId }),
    },
    messageAttributes:
      message.correlationId === undefined ? {} : { [CORRELATION_ID_ATTRIBUTE]: { dataType: 'String', stringValue: message.correlationId } },
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:000000000000:${message.queue}`,
    awsRegion: 'local',
  };
}
