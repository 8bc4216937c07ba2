/**
 * SQS behind the queue port: JSON bodies, DelaySeconds, batches of ten, and the sender's correlation
 * id as an attribute; on a FIFO queue, each message's group and deduplication id, and no delay.
 */
import { SendMessageBatchCommand, SendMessageCommand, type MessageAttributeValue, type SQSClient } from '@aws-sdk/client-sqs';
import { CORRELATION_ID_ATTRIBUTE, currentCorrelationId } from '../correlation';
import { MAX_QUEUE_DELAY_SECONDS, refuseFifoDelay, type QueueAddress, type Queue, type SendOptions } from './queue';

function correlationAttributes(): { MessageAttributes?: Record<string, MessageAttributeValue> } {
  const correlationId = currentCorrelationId();
  return correlationId === undefined
    ? {}
    : { MessageAttributes: { [CORRELATION_ID_ATTRIBUTE]: { DataType: 'String', StringValue: correlationId } } };
}

const SQS_BATCH_LIMIT = 10;

export class SqsQueue<M> implements Queue<M> {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
    private readonly address: QueueAddress<M>,
  ) {}

  async send(message: M, options: SendOptions = {}): Promise<void> {
    refuseFifoDelay(this.address, options);
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.queueUrl,
        MessageBody: JSON.stringify(message),
        ...(options.delaySeconds !== undefined && { DelaySeconds: checkedDelay(options.delaySeconds) }),
        ...this.fifoFields(message),
        ...correlationAttributes(),
      }),
    );
  }

  async sendAll(messages: readonly M[]): Promise<void> {
    const attributes = correlationAttributes();
    for (let start = 0; start < messages.length; start += SQS_BATCH_LIMIT) {
      const batch = messages.slice(start, start + SQS_BATCH_LIMIT);
      const { Failed } = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((message, index) => ({
            Id: String(start + index),
            MessageBody: JSON.stringify(message),
            ...this.fifoFields(message),
            ...attributes,
          })),
        }),
      );
      if (Failed?.length) {
        throw new Error(`SQS refused ${Failed.length} of ${batch.length} messages: ${Failed[0]!.Code} ${Failed[0]!.Message ?? ''}`);
      }
    }
  }

  private fifoFields(message: M): { MessageGroupId?: string; MessageDeduplicationId?: string } {
    const { fifo } = this.address;
    return fifo ? { MessageGroupId: fifo.groupOf(message), MessageDeduplicationId: fifo.deduplicationIdOf(message) } : {};
  }
}

function checkedDelay(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_QUEUE_DELAY_SECONDS) {
    throw new Error(`SQS delays are whole seconds from 0 to ${MAX_QUEUE_DELAY_SECONDS}, not ${seconds}.`);
  }
  return seconds;
}
