/**
 * Creates the table and the bucket on the stand-ins with the same shape the CDK stack gives them
 * in AWS (keys, GSI, TTL attribute, stream), when they do not exist yet.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { BucketAlreadyOwnedByYou, CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { TABLE_KEYS } from '../../shared/platform/table';

export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const { partitionKey, sortKey, gsi1, ttlAttribute } = TABLE_KEYS;
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [partitionKey, sortKey, gsi1.partitionKey, gsi1.sortKey].map((name) => ({
          AttributeName: name,
          AttributeType: 'S',
        })),
        KeySchema: [
          { AttributeName: partitionKey, KeyType: 'HASH' },
          { AttributeName: sortKey, KeyType: 'RANGE' },
        ],
        // New event items reach the outbox relay through the stream (shared/platform/events).
        StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
        GlobalSecondaryIndexes: [
          {
            IndexName: gsi1.name,
            KeySchema: [
              { AttributeName: gsi1.partitionKey, KeyType: 'HASH' },
              { AttributeName: gsi1.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    // A table made before it had a stream (an older .local/) gets one.
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (!Table?.StreamSpecification?.StreamEnabled) {
      await client.send(
        new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }),
      );
    }
  }
}

export async function ensureBucket(client: S3Client, bucketName: string): Promise<void> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucketName }));
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (!(error instanceof BucketAlreadyOwnedByYou) && name !== 'BucketAlreadyExists' && name !== 'BucketAlreadyOwnedByYou') {
      throw error;
    }
  }
}
