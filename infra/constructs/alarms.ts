/** What every alarm shares: the figures they go off at, and the topic they tell. */
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sns from 'aws-cdk-lib/aws-sns';

/** Each alarm's threshold: the figure it goes off at, over five-minute periods. */
export const ALARM_THRESHOLDS = {
  /** Share of API requests answered 5xx, in percent, in two of three periods. */
  api5xxPercent: 1,
  /** Share of API requests answered 4xx (429s among them), in percent, in two of three periods... */
  api4xxPercent: 25,
  /** ...of at least this many requests: a handful of 404s in a quiet period is no spike. */
  api4xxMinimumRequests: 100,
  /** API Gateway's p99 latency, in milliseconds, in three periods running. */
  apiP99LatencyMs: 2_500,
  /**
   * How long a message may wait beyond one visibility timeout (one failed receive, handed out
   * again), in seconds, before its queue's oldest-message alarm fires: its worker is not keeping up.
   */
  queueWaitSeconds: 15 * 60,
  /** Webhook deliveries dead-lettered in a period. */
  deadLetteredDeliveries: 1,
  /** Share of the account's Lambda concurrency claimed, in percent, in two one-minute periods of three. */
  claimedConcurrencyPercent: 80,
  /** Share of the account's Lambda invocations that failed (crashed, timed out), in percent, in two periods of three. */
  lambdaErrorPercent: 1,
  /** Lambda invocations throttled in a period, beyond the functions throttled by design. */
  lambdaThrottles: 1,
  /** Throttled reads and writes of the table and its index, in two periods of three. */
  tableThrottleEvents: 1,
  /** Schedules whose delivery to a queue failed, or that were dropped, in a period. */
  schedulerFailures: 1,
  /** How far the outbox relay is behind the table's stream, in seconds (records are lost after a day). */
  eventRelayIteratorAgeSeconds: 10 * 60,
  /** Failed invocations (crashed, timed out) in a period of a route alarmed on its own errors. */
  routeErrors: 1,
} as const;

/** Sends an alarm to the topic. */
export function notify(alarm: cloudwatch.Alarm, topic: sns.ITopic): void {
  alarm.addAlarmAction(new actions.SnsAction(topic));
}
