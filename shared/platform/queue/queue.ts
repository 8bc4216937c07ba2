/**
 * Queues and the scheduler, as ports: the domain sends messages and schedules deliveries through
 * these; SQS and EventBridge Scheduler carry them in AWS (sqs-queue.ts, eventbridge-scheduler.ts),
 * in-process adapters locally (in-process.ts). A queue is described once (QueueDefinition) by the
 * capability that consumes it; the stack builds the SQS queue, its dead-letter queue and the worker
 * function from that description, and the local runtime wires the same worker to an in-process queue.
 */
import type * as v from 'valibot';
import type { ResourceAccess } from '../access';

/** Enough to send to a queue: its name and what its messages look like. */
export interface QueueAddress<M = unknown> {
  /** Stable name: `mapping-chunks`. The environment variable QUEUE_URL_MAPPING_CHUNKS carries its URL. */
  name: string;
  /** Every message body is validated against this before the worker sees it. */
  schema: v.GenericSchema<unknown, M>;
  /** Makes it a FIFO queue (FifoMessages); a standard queue when absent. */
  fifo?: FifoMessages<M>;
}

/**
 * What a FIFO queue needs of each message. SQS hands out a group's messages in order and one batch
 * at a time (the next once the last is done or given up), however many workers may run; and takes
 * a message whose deduplication id it took in the 5 minutes before as sent, without queueing it
 * again. A FIFO queue takes no delay per message (a delayed send to one is refused).
 */
export interface FifoMessages<M> {
  /** The message's group: messages of one group are worked one batch at a time, in order. */
  groupOf(message: M): string;
  /** The same id for sends that ask for the same work (at most 128 characters). */
  deduplicationIdOf(message: M): string;
}

/** A queue and its consumer, as the capability that consumes it declares them. */
export interface QueueDefinition<M = unknown> extends QueueAddress<M> {
  /** The worker's function file under functions/, without extension: `mapping-jobs/chunk`. */
  handler: string;
  /** The function file that takes dead-lettered messages, if any. */
  deadLetterHandler?: string;
  /** Deliveries before a message goes to the dead-letter queue. */
  maxReceiveCount: number;
  /** Messages per worker invocation. */
  batchSize: number;
  /** What the worker may touch; the stack grants exactly this. */
  access: WorkerAccess;
  /** What the dead-letter handler may touch: required with one, and never the worker's access by default (it settles, it does not redo). */
  deadLetterAccess?: WorkerAccess;
  lambda: { memoryMb: number; timeoutSeconds: number };
  /**
   * How many invocations run at once, so that no queue can take the account's concurrency from the
   * API: the event source's maximum concurrency, 2 to 1,000, reserving nothing. (Reserved
   * concurrency below the event source's pollers would throttle them, and a throttled message
   * counts a receive: it could be dead-lettered without ever running.) A worker that must run
   * alone takes a FIFO queue with one group instead.
   */
  concurrency: { max: number };
  /** What else a message's trace is found by, beside its organization (annotations on the worker's segment). */
  traceAnnotations?(message: M): Readonly<Record<string, string>>;
  description: string;
}

/** What a worker may touch (a worker takes no credential and reads no payment settings). */
export type WorkerAccess = Pick<
  ResourceAccess,
  'table' | 'objects' | 'resultObjects' | 'sendsTo' | 'schedules' | 'secrets' | 'partnerRoles'
>;

export interface SendOptions {
  /** Up to 900 seconds (SQS DelaySeconds); longer delays go through the scheduler. None on a FIFO queue. */
  delaySeconds?: number;
}

export interface Queue<M> {
  send(message: M, options?: SendOptions): Promise<void>;
  /** Sends many messages, in as few calls as the transport allows. */
  sendAll(messages: readonly M[]): Promise<void>;
}

export interface ScheduledDelivery<M> {
  /** Unique per schedule, at most 64 characters of [0-9a-zA-Z-_.]. */
  name: string;
  at: Date;
  queue: QueueDefinition<M>;
  message: M;
}

/** One-time deliveries further ahead than SQS can delay a message. */
export interface Scheduler {
  schedule<M>(delivery: ScheduledDelivery<M>): Promise<void>;
}

/** Where messages go: the runtime's in-process messaging (local runtime, tests); SQS and EventBridge Scheduler when absent. */
export interface Messaging {
  queue<M>(address: QueueAddress<M>): Queue<M>;
  scheduler: Scheduler;
}

/**
 * How long a received message stays hidden before it is handed out again: six times the worker's
 * timeout, as AWS advises for Lambda event sources, so a slow delivery is never handed out twice
 * at once. A failed delivery reappears after it too.
 */
export function visibilityTimeoutSeconds(definition: Pick<QueueDefinition, 'lambda'>): number {
  return definition.lambda.timeoutSeconds * 6;
}

/** The longest delay SQS takes. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** How long SQS remembers a FIFO message's deduplication id. */
export const FIFO_DEDUPLICATION_SECONDS = 300;

/** Refuses what a FIFO queue cannot carry: SQS takes no per-message delay on one. */
export function refuseFifoDelay(address: QueueAddress, options: SendOptions): void {
  if (address.fifo && options.delaySeconds !== undefined) {
    throw new Error(`${address.name} is a FIFO queue: it takes no delay per message (delaySeconds ${options.delaySeconds}).`);
  }
}

/** Refuses to schedule onto a FIFO queue: EventBridge Scheduler would send it without a deduplication id. */
export function refuseFifoSchedule(address: QueueAddress): void {
  if (address.fifo)
    throw new Error(`${address.name} is a FIFO queue: nothing is scheduled onto one (the scheduler sends no deduplication id).`);
}

/* @__NO_SIDE_EFFECTS__ */
export function defineQueue<const M>(definition: QueueDefinition<M>): QueueDefinition<M> {
  return definition;
}
