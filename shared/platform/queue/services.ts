/** The runtime's queues and scheduler: SQS and EventBridge Scheduler, or in-process ones locally. */
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import { queueUrlVariable, requireSetting, requireVariable } from '../config';
import { service, type Runtime } from '../runtime';
import { EventBridgeScheduler } from './eventbridge-scheduler';
import type { Queue, QueueAddress, Scheduler } from './queue';
import { SqsQueue } from './sqs-queue';
import { traced } from '../tracing';

// In AWS the queue client and the scheduler are built apart: a function that only sends has no
// scheduler settings, and one that schedules may send nothing.
const sqsOf = /* @__PURE__ */ service((runtime) => traced(new SQSClient({ region: runtime.config.region })));

const eventBridgeSchedulerOf = /* @__PURE__ */ service(
  (runtime): Scheduler =>
    new EventBridgeScheduler(traced(new SchedulerClient({ region: runtime.config.region })), {
      groupName: requireSetting(runtime.config, 'schedulerGroupName'),
      roleArn: requireSetting(runtime.config, 'schedulerRoleArn'),
      queueArns: runtime.config.queueArns ?? {},
      deadLetterArns: runtime.config.queueDeadLetterArns ?? {},
    }),
);

export function queueOf<M>(runtime: Runtime, address: QueueAddress<M>): Queue<M> {
  if (runtime.messaging) return runtime.messaging.queue(address);
  const url = requireVariable(runtime.config.queueUrls?.[address.name], queueUrlVariable(address.name));
  return new SqsQueue<M>(sqsOf(runtime), url, address);
}

export function schedulerOf(runtime: Runtime): Scheduler {
  return runtime.messaging?.scheduler ?? eventBridgeSchedulerOf(runtime);
}
