/** The runtime's queues and scheduler: SQS and EventBridge Scheduler, or in-process ones locally. */
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { SQSClient } from '@aws-sdk/client-sqs';
import { requireSetting } from '../config';
import { service, type Runtime } from '../runtime';
import { EventBridgeScheduler } from './eventbridge-scheduler';
import { queueUrlVariable, type Queue, type QueueDefinition, type Scheduler } from './queue';
import { SqsQueue } from './sqs-queue';

/** Where messages go: the runtime's in-process messaging, or AWS. */
export interface Messaging {
  queue<M>(definition: QueueDefinition<M>): Queue<M>;
  scheduler: Scheduler;
}

const awsMessagingOf = /* @__PURE__ */ service((runtime): Messaging => {
  const { config } = runtime;
  const sqs = new SQSClient({ region: config.region });
  return {
    queue: <M>(definition: QueueDefinition<M>) =>
      new SqsQueue<M>(sqs, requireSetting(config.queueUrls?.[definition.name], queueUrlVariable(definition.name))),
    scheduler: new EventBridgeScheduler(new SchedulerClient({ region: config.region }), {
      groupName: requireSetting(config.schedulerGroupName, 'SCHEDULER_GROUP_NAME'),
      roleArn: requireSetting(config.schedulerRoleArn, 'SCHEDULER_ROLE_ARN'),
      queueArns: config.queueArns ?? {},
    }),
  };
});

export function queueOf<M>(runtime: Runtime, definition: QueueDefinition<M>): Queue<M> {
  return (runtime.messaging ?? awsMessagingOf(runtime)).queue(definition);
}

export function schedulerOf(runtime: Runtime): Scheduler {
  return (runtime.messaging ?? awsMessagingOf(runtime)).scheduler;
}
