/**
 * EventBridge Scheduler behind the scheduler port: one-time `at(...)` schedules that put the
 * message on the target queue, then delete themselves. A delivery the scheduler cannot make (the
 * queue unreachable, the role refused) is retried for a day, then put on the queue's dead-letter
 * queue, where the queue's dead-letter handler settles it as it settles the queue's own failures:
 * a schedule is never dropped silently.
 */
import { ConflictException, CreateScheduleCommand, type SchedulerClient } from '@aws-sdk/client-scheduler';
import { refuseFifoSchedule, type ScheduledDelivery, type Scheduler } from './queue';

export interface SchedulerTargets {
  groupName: string;
  /** The role the scheduler assumes to send to the queues. */
  roleArn: string;
  /** Queue name -> queue ARN. */
  queueArns: Readonly<Record<string, string>>;
  /** Queue name -> its dead-letter queue's ARN. */
  deadLetterArns: Readonly<Record<string, string>>;
}

/** How long and how often the scheduler retries a delivery it could not make (its maxima). */
export const SCHEDULE_RETRY_POLICY = { MaximumEventAgeInSeconds: 86_400, MaximumRetryAttempts: 185 } as const;

export class EventBridgeScheduler implements Scheduler {
  constructor(
    private readonly client: SchedulerClient,
    private readonly targets: SchedulerTargets,
  ) {}

  /** A name already scheduled is left as it is: scheduling is safe to repeat (a retried worker). */
  async schedule<M>({ name, at, queue, message }: ScheduledDelivery<M>): Promise<void> {
    refuseFifoSchedule(queue);
    const queueArn = this.targets.queueArns[queue.name];
    const deadLetterArn = this.targets.deadLetterArns[queue.name];
    if (!queueArn || !deadLetterArn) throw new Error(`No queue ARN or dead-letter queue ARN is configured for ${queue.name}.`);
    const command = new CreateScheduleCommand({
      Name: name,
      GroupName: this.targets.groupName,
      // at() takes a local date-time without zone; the zone is given separately.
      ScheduleExpression: `at(${at.toISOString().slice(0, 19)})`,
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: queueArn,
        RoleArn: this.targets.roleArn,
        Input: JSON.stringify(message),
        RetryPolicy: SCHEDULE_RETRY_POLICY,
        DeadLetterConfig: { Arn: deadLetterArn },
      },
    });
    try {
      await this.client.send(command);
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
    }
  }
}
