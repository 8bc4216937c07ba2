/**
 * transactWrite, the one way the stores write several items together: it answers which items'
 * conditions failed, writes one item alone as a plain write, tries again a transaction that only lost to a concurrent one (two reviews of
 * one job both move its counts), and lets any other failure through. Checked against the SDK's
 * own TransactionCanceledException with aws-sdk-client-mock (DynamoDB Local serialises
 * transactions, so it never reports a conflict).
 */
import assert from 'node:assert/strict';
import { ConditionalCheckFailedException, DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, it } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { transactWrite, type Table, type TransactItem } from '../../../shared/platform/table';

const documents = mockClient(DynamoDBDocumentClient);
afterEach(() => {
  documents.reset();
});

const table: Table = { client: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1' })), name: 'Table' };
const items: TransactItem[] = [
  { Put: { TableName: 'Table', Item: { PK: 'A', SK: 'A' }, ConditionExpression: 'attribute_not_exists(PK)' } },
  {
    Update: {
      TableName: 'Table',
      Key: { PK: 'B', SK: 'B' },
      UpdateExpression: 'ADD #n :one',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':one': 1 },
    },
  },
];

function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

describe('transactWrite', () => {
  it('sends the items as one transaction and answers no failed condition when they are written', async () => {
    documents.on(TransactWriteCommand).resolves({});
    assert.deepEqual(await transactWrite(table, items), []);
    assert.deepEqual(
      documents.commandCalls(TransactWriteCommand).map((call) => call.args[0].input),
      [{ TransactItems: items }],
    );
  });

  it('answers the indexes of the items whose condition failed, without trying again', async () => {
    documents.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    assert.deepEqual(await transactWrite(table, items), [1]);
    assert.equal(documents.commandCalls(TransactWriteCommand).length, 1);
  });

  it('tries again a transaction that only lost to a concurrent one', async () => {
    documents
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled('None', 'TransactionConflict'))
      .rejectsOnce(cancelled('TransactionConflict', 'None'))
      .resolves({});
    assert.deepEqual(await transactWrite(table, items), []);
    assert.equal(documents.commandCalls(TransactWriteCommand).length, 3);
  });

  it('gives up on a conflict that lasts, with the conflict', async () => {
    documents.on(TransactWriteCommand).rejects(cancelled('TransactionConflict', 'None'));
    await assert.rejects(transactWrite(table, items), { name: 'TransactionCanceledException' });
    assert.equal(documents.commandCalls(TransactWriteCommand).length, 11);
  });

  it('writes one item alone as a plain write, which DynamoDB bills half as much, with the same answers', async () => {
    documents
      .on(PutCommand)
      .rejectsOnce(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }))
      .resolves({});
    documents.on(UpdateCommand).resolves({});
    documents.on(DeleteCommand).resolves({});
    assert.deepEqual(await transactWrite(table, [items[0]!]), [0]);
    assert.deepEqual(await transactWrite(table, [items[0]!]), []);
    assert.deepEqual(await transactWrite(table, [items[1]!]), []);
    assert.deepEqual(await transactWrite(table, [{ Delete: { TableName: 'Table', Key: { PK: 'A', SK: 'A' } } }]), []);
    assert.deepEqual(
      documents.commandCalls(PutCommand).map((call) => call.args[0].input),
      [items[0]!.Put, items[0]!.Put],
    );
    assert.deepEqual(
      documents.commandCalls(UpdateCommand).map((call) => call.args[0].input),
      [items[1]!.Update],
    );
    assert.equal(documents.commandCalls(DeleteCommand).length, 1);
    assert.equal(documents.commandCalls(TransactWriteCommand).length, 0);
  });

  it('lets any other failure through at once', async () => {
    documents.on(TransactWriteCommand).rejects(cancelled('ValidationError', 'None'));
    await assert.rejects(transactWrite(table, items), { name: 'TransactionCanceledException' });
    documents.reset();
    documents
      .on(TransactWriteCommand)
      .rejects(Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ProvisionedThroughputExceededException' }));
    await assert.rejects(transactWrite(table, items), { name: 'ProvisionedThroughputExceededException' });
    assert.equal(documents.commandCalls(TransactWriteCommand).length, 1);
  });
});
