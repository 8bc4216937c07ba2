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
  /** What the dead-letter handler may touch, when less than the worker. */
  deadLetterAccess?: WorkerAccess;
  lambda: { memoryMb: number; timeoutSeconds: number };
  /**
   * How many invocations run at once, so that no queue can take the account's concurrency from the
   * API: at most `max` (the event source's maximum concurrency, 2 to 1,000, reserving nothing), or
   * exactly `reserved` (reserved concurrency, which also sets it aside: 1 makes a worker run alone).
   */
  concurrency: { max: number } | { reserved: number };
  /** What else a message's trace is found by, beside its organization (annotations on the worker's segment). */
  traceAnnotations?(message: M): Readonly<Record<string, string>>;
  description: string;
}

/** What a worker may touch (a worker takes no credential and reads no payment settings). */
export type WorkerAccess = Pick<ResourceAccess, 'table' | 'bucket' | 'sendsTo' | 'schedules' | 'secrets'>;

export interface SendOptions {
  /** Up to 900 seconds (SQS DelaySeconds); longer delays go through the scheduler. */
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



/* @__NO_SIDE_EFFECTS__ */
export function defineQueue<const M>(definition: QueueDefinition<M>): QueueDefinition<M> {
  return definition;
}
