/**
 * A queue of the queue table: SQS-encrypted, TLS-only, kept four days, hidden from other receivers
 * while its worker may still be at it (visibilityTimeoutSeconds); a message received
 * maxReceiveCount times moves to its dead-letter queue (kept 14 days), whose first message raises
 * an alarm.
 *
 * Named after the queue (`mapping-chunks` → MappingChunksQueue); its dead-letter queue and alarm
 * are its siblings, MappingChunksDeadLetters and MappingChunksDeadLettersAlarm: a queue whose
 * logical id changes is replaced, and the messages it holds are lost.
 */
import { Duration } from 'aws-cdk-lib';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { functionName } from '../../shared/platform/http/route';
import { visibilityTimeoutSeconds, type QueueDefinition } from '../../shared/platform/queue/queue';
import { AnyMessageAlarm } from './any-message-alarm';

export interface DeadLetteredQueueProps {
  definition: QueueDefinition;
  /** Where the dead-letter alarm goes. */
  alarmTopic: sns.ITopic;
}

export class DeadLetteredQueue extends sqs.Queue {
  readonly definition: QueueDefinition;
  readonly deadLetters: sqs.Queue;
  readonly deadLettersAlarm: AnyMessageAlarm;

  constructor(scope: Construct, { definition, alarmTopic }: DeadLetteredQueueProps) {
    const name = functionName({ handler: definition.name });
    const deadLetters = new sqs.Queue(scope, `${name}DeadLetters`, {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    super(scope, `${name}Queue`, {
      visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(definition)),
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: deadLetters, maxReceiveCount: definition.maxReceiveCount },
    });
    this.definition = definition;
    this.deadLetters = deadLetters;
    this.deadLettersAlarm = new AnyMessageAlarm(scope, `${name}DeadLettersAlarm`, {
      queue: deadLetters,
      description: `Messages of ${definition.name} were dead-lettered: ${definition.description}`,
      alarmTopic,
    });
  }
}
