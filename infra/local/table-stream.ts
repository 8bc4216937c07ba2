/**
 * The local runtime's DynamoDB Streams event source for the outbox relay: reads the table's stream
 * on DynamoDB Local and hands the relay function (functions/platform/event-relay.ts) what Lambda's
 * filtered event source would, new event items, in order, from where it last got to. A batch the
 * relay reports failed is handed again from the failed record at the next poll, as Lambda retries
 * a stream batch. Given a file, the position is kept there, so a restart goes on where it stopped.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import type { AppConfig } from '../../shared/platform/config';
import { isNewEvent, type StreamHandler } from '../../shared/platform/events/relay';
import { describeError, log } from '../../shared/platform/logging';

interface Position {
  /** The last record handed on (or skipped) per shard. */
  after: Record<string, string>;
  /** Shards read to their end. */
  finished: string[];
}

export class LocalTableStream {
  private readonly tables: DynamoDBClient;
  private readonly streams: DynamoDBStreamsClient;
  private streamArn: string | undefined;
  private shards: Shard[] = [];
  private shardsReadAt = 0;
  private readonly iterators = new Map<string, string>();
  private readonly position: Position;

  constructor(
    private readonly config: Pick<AppConfig, 'tableName' | 'region' | 'dynamoDbEndpoint'>,
    private readonly relay: StreamHandler,
    private readonly positionFile?: string,
  ) {
    const client = {
      region: config.region,
      endpoint: config.dynamoDbEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    };
    this.tables = new DynamoDBClient(client);
    this.streams = new DynamoDBStreamsClient(client);
    this.position =
      positionFile && existsSync(positionFile) ? (JSON.parse(readFileSync(positionFile, 'utf8')) as Position) : { after: {}, finished: [] };
  }

  /** Hands the relay what is new; true when it relayed anything. */
  async poll(): Promise<boolean> {
    let relayed = false;
    try {
      for (const shard of await this.openShards()) relayed = (await this.readShard(shard.ShardId!)) || relayed;
    } catch (error) {
      log('warn', 'local table stream: read failed; tried again at the next poll', describeError(error));
      this.iterators.clear();
    }
    return relayed;
  }

  private async openShards(): Promise<Shard[]> {
    // Shards change rarely (DynamoDB Local rolls them over every few hours): looked up every few seconds.
    if (Date.now() - this.shardsReadAt > 5_000) {
      this.streamArn ??= (await this.tables.send(new DescribeTableCommand({ TableName: this.config.tableName }))).Table?.LatestStreamArn;
      if (!this.streamArn) throw new Error(`The table ${this.config.tableName} has no stream.`);
      const shards: Shard[] = [];
      let start: string | undefined;
      do {
        const { StreamDescription } = await this.streams.send(
          new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }),
        );
        shards.push(...(StreamDescription?.Shards ?? []));
        start = StreamDescription?.LastEvaluatedShardId;
      } while (start);
      // Parents before children: records come in the order they were written.
      this.shards = shards.sort((a, b) =>
        BigInt(a.SequenceNumberRange!.StartingSequenceNumber!) < BigInt(b.SequenceNumberRange!.StartingSequenceNumber!) ? -1 : 1,
      );
      this.shardsReadAt = Date.now();
    }
    return this.shards.filter((shard) => !this.position.finished.includes(shard.ShardId!));
  }

  private async readShard(shardId: string): Promise<boolean> {
    let relayed = false;
    let iterator = this.iterators.get(shardId) ?? (await this.iteratorFrom(shardId));
    for (;;) {
      const { Records = [], NextShardIterator } = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 100 }));
      if (Records.length === 0) {
        if (NextShardIterator) this.iterators.set(shardId, NextShardIterator);
        else this.finish(shardId);
        return relayed;
      }
      const events = Records.filter((record) => isNewEvent(record as DynamoDBRecord));
      const { batchItemFailures } = events.length ? await this.relay({ Records: events as DynamoDBRecord[] }) : { batchItemFailures: [] };
      const failed = batchItemFailures[0]?.itemIdentifier;
      if (failed !== undefined) {
        // Handed again from the failed record at the next poll.
        const index = Records.findIndex((record) => record.dynamodb?.SequenceNumber === failed);
        if (index > 0) this.advance(shardId, Records[index - 1]!);
        this.iterators.delete(shardId);
        return relayed || index > 0;
      }
      relayed ||= events.length > 0;
      this.advance(shardId, Records.at(-1)!);
      if (!NextShardIterator) {
        this.finish(shardId);
        return relayed;
      }
      iterator = NextShardIterator;
      this.iterators.set(shardId, iterator);
    }
  }

  private async iteratorFrom(shardId: string): Promise<string> {
    const after = this.position.after[shardId];
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: shardId,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator!;
  }

  private advance(shardId: string, record: StreamRecord): void {
    this.position.after[shardId] = record.dynamodb!.SequenceNumber!;
    this.save();
  }

  private finish(shardId: string): void {
    this.position.finished.push(shardId);
    this.iterators.delete(shardId);
    this.save();
  }

  private save(): void {
    if (this.positionFile) writeFileSync(this.positionFile, JSON.stringify(this.position));
  }

  stop(): void {
    this.tables.destroy();
    this.streams.destroy();
  }
}
