/**
 * A queue of the queue table: SQS-encrypted, TLS-only, kept four days, hidden from other receivers
 * while its worker may still be at it (visibilityTimeoutSeconds); a message received
 * maxReceiveCount times moves to its dead-letter queue (kept 14 days), whose first message raises
 * an alarm.
 *
 * When the queue table names a dead-letter handler, the dead-letter queue has a redrive policy of
 * its own: a dead letter the handler failed to settle DEAD_LETTER_HANDLER_RECEIVES times moves to a
 * holding queue that nothing consumes, alarmed, instead of failing again until it expires. (An SQS
 * event source takes no failure destination; the queue's own redrive is the way.)
 *
 * A FIFO queue of the table (`fifo`) is FIFO with its dead-letter and holding queues (SQS redrives
 * a FIFO queue only to a FIFO queue); CloudFormation names each `<generated>.fifo`. Deduplication
 * ids come with each message (the queue's `fifo.deduplicationIdOf`), never from the content.
 *
 * Named after the queue (`mapping-chunks` → MappingChunksQueue); its dead-letter queue, holding
 * queue and alarms are its siblings, MappingChunksDeadLetters, MappingChunksDeadLettersAlarm,
 * MappingChunksUnsettledDeadLetters and MappingChunksUnsettledDeadLettersAlarm: a queue whose
 * logical id changes is replaced, and the messages it holds are lost.
 */
import { Duration } from 'aws-cdk-lib';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { functionName } from '../../shared/platform/http/route';
import { visibilityTimeoutSeconds, type QueueDefinition } from '../../shared/platform/queue/queue';
import { AnyMessageAlarm } from './any-message-alarm';

/** A dead-letter handler's sizing: it settles what failed (a job, a delivery), it does not redo the work. */
export const DEAD_LETTER_HANDLER_SIZING = { memoryMb: 256, timeoutSeconds: 30 };

/** Receives of a dead letter by its handler before it moves to the holding queue. */
export const DEAD_LETTER_HANDLER_RECEIVES = 5;

/** SQS's longest retention. A message keeps its first enqueue time across redrives, so 14 days from its first send. */
const DEAD_LETTER_RETENTION = Duration.days(14);

export interface DeadLetteredQueueProps {
  definition: QueueDefinition;
  /** Where the dead-letter alarm goes. */
  alarmTopic: sns.ITopic;
}

export class DeadLetteredQueue extends sqs.Queue {
  readonly definition: QueueDefinition;
  readonly deadLetters: sqs.Queue;
  readonly deadLettersAlarm: AnyMessageAlarm;
  /** The dead letters its handler could not settle, when the queue has a dead-letter handler. */
  readonly unsettledDeadLetters?: sqs.Queue;

  constructor(scope: Construct, { definition, alarmTopic }: DeadLetteredQueueProps) {
    const name = functionName({ handler: definition.name });
    const everyQueue = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, ...(definition.fifo && { fifo: true }) };
    const unsettledDeadLetters = definition.deadLetterHandler
      ? new sqs.Queue(scope, `${name}UnsettledDeadLetters`, { retentionPeriod: DEAD_LETTER_RETENTION, ...everyQueue })
      : undefined;
    const deadLetters = new sqs.Queue(scope, `${name}DeadLetters`, {
      retentionPeriod: DEAD_LETTER_RETENTION,
      ...everyQueue,
      ...(unsettledDeadLetters && {
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds({ lambda: DEAD_LETTER_HANDLER_SIZING })),
        deadLetterQueue: { queue: unsettledDeadLetters, maxReceiveCount: DEAD_LETTER_HANDLER_RECEIVES },
      }),
    });
    super(scope, `${name}Queue`, {
      visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(definition)),
      retentionPeriod: Duration.days(4),
      ...everyQueue,
      deadLetterQueue: { queue: deadLetters, maxReceiveCount: definition.maxReceiveCount },
    });
    this.definition = definition;
    this.deadLetters = deadLetters;
    this.deadLettersAlarm = new AnyMessageAlarm(scope, `${name}DeadLettersAlarm`, {
      queue: deadLetters,
      description: `Messages of ${definition.name} were dead-lettered: ${definition.description}`,
      alarmTopic,
    });
    if (unsettledDeadLetters) {
      this.unsettledDeadLetters = unsettledDeadLetters;
      new AnyMessageAlarm(scope, `${name}UnsettledDeadLettersAlarm`, {
        queue: unsettledDeadLetters,
        description: `Dead letters of ${definition.name} that its handler (${definition.deadLetterHandler}) failed to settle ${DEAD_LETTER_HANDLER_RECEIVES} times; they wait here to be looked at`,
        alarmTopic,
      });
    }
  }
}
