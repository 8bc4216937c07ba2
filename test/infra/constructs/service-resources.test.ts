import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import { queueList } from '../../../shared/queues';
import type { ResourceAccess } from '../../../shared/platform/access';
import type { TokenKeyUse } from '../../../shared/platform/http/route';
import { LOCAL_PRICE_IDS } from '../../../shared/billing';
import { bareStack, idOf, SCHEDULE_GROUP_NAME, statementsOfRole } from './bare-stack';

const queue = { ...queueList[0]!, name: 'test-work' };

/** A role granted the access, the statements on it and the settings the access gives. */
function granted(access: ResourceAccess, tokenKey: TokenKeyUse = 'none') {
  const fixture = bareStack([queue]);
  const role = new iam.Role(fixture.stack, 'Grantee', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  fixture.resources.grant(role, { access, tokenKey });
  const environment = fixture.stack.resolve(fixture.resources.environmentFor({ access, tokenKey })) as Record<string, unknown>;
  const template = Template.fromStack(fixture.stack);
  return { ...fixture, template, environment, statements: statementsOfRole(template, idOf(role)) };
}

const actionsIn = (statements: { Action: string | string[] }[]) => statements.flatMap((s) => [s.Action].flat()).sort();
/** The ARN of the bucket's objects under a prefix, as the template has it. */
const objectsUnder = (bucket: IConstruct, prefix: string) => ({
  'Fn::Join': ['', [{ 'Fn::GetAtt': [idOf(bucket), 'Arn'] }, `/${prefix}*`]],
});

describe('ServiceResources', () => {
  it('grants nothing and names nothing for a function that touches nothing', () => {
    const { statements, environment } = granted({ table: 'none' });
    assert.deepEqual(statements, []);
    assert.deepEqual(environment, {
      LOG_LEVEL: 'info',
      POWERTOOLS_SERVICE_NAME: 'hotel-mapping',
      NODE_OPTIONS: '--enable-source-maps',
      STAGE: 'bare',
    });
  });

  it('reads the table without writing it, and reads objects by key under its prefixes only', () => {
    const { statements, environment, table, bucket } = granted({
      table: 'read',
      objects: { read: ['exports/', 'reference/data-versions/'] },
    });
    const actions = actionsIn(statements);
    assert.deepEqual(
      actions.filter((a) => a.startsWith('dynamodb:')).sort(),
      ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query'],
      'by key and by Query: no Scan, no stream, no writes',
    );
    assert.deepEqual(
      statements.filter((s) => actionsIn([s]).some((a) => a.startsWith('s3:'))).map((s) => [s.Action, s.Resource]),
      [['s3:GetObject', [objectsUnder(bucket, 'exports/'), objectsUnder(bucket, 'reference/data-versions/')]]],
    );
    assert.deepEqual(environment.TABLE_NAME, { Ref: idOf(table) });
    assert.deepEqual(environment.BUCKET_NAME, { Ref: idOf(bucket) });
  });

  it('writes with PutObject alone, deletes and tags (to expire) only where it declares so, each on its own prefixes; never lists', () => {
    const { statements, bucket } = granted({
      table: 'readwrite',
      objects: { read: ['a/'], write: ['b/'], delete: ['c/d/'], expire: ['e/'] },
    });
    assert.deepEqual(
      actionsIn(statements).filter((a) => a.startsWith('dynamodb:')),
      ['BatchGetItem', 'BatchWriteItem', 'ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'].map(
        (a) => `dynamodb:${a}`,
      ),
      'items by key and by Query, written: still no Scan',
    );
    assert.deepEqual(
      statements.filter((s) => actionsIn([s]).some((a) => a.startsWith('s3:'))).map((s) => [s.Action, s.Resource]),
      [
        ['s3:GetObject', objectsUnder(bucket, 'a/')],
        ['s3:PutObject', objectsUnder(bucket, 'b/')],
        ['s3:DeleteObject', objectsUnder(bucket, 'c/d/')],
        ['s3:PutObjectTagging', objectsUnder(bucket, 'e/')],
      ],
    );
  });

  it('names no bucket and grants no object for empty prefix lists, and refuses a prefix that is not a folder', () => {
    const { statements, environment } = granted({ table: 'none', objects: { read: [] } });
    assert.deepEqual(statements, []);
    assert.ok(!('BUCKET_NAME' in environment));
    for (const prefix of ['', 'exports', '*', 'exports/*']) {
      assert.throws(() => granted({ table: 'none', objects: { read: [prefix] } }), /must be folders ending in/, JSON.stringify(prefix));
    }
  });

  it('limits the table to the partitions it names, on the table and its index alike', () => {
    const { statements, table } = granted({ table: 'read', partitions: ['APIKEY#*', 'SUPPLIERS'] });
    assert.deepEqual(
      statements.map((s) => [s.Resource, (s as { Condition?: unknown }).Condition]),
      [
        [
          [{ 'Fn::GetAtt': [idOf(table), 'Arn'] }, { 'Fn::Join': ['', [{ 'Fn::GetAtt': [idOf(table), 'Arn'] }, '/index/GSI1']] }],
          { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*', 'SUPPLIERS'] } },
        ],
      ],
    );
    assert.equal(
      (granted({ table: 'read' }).statements[0] as { Condition?: unknown }).Condition,
      undefined,
      'no condition where none is declared',
    );
    for (const partitions of [[], ['*'], ['']]) {
      assert.throws(() => granted({ table: 'read', partitions }), /Partition patterns must name/, JSON.stringify(partitions));
    }
  });

  it('narrows the table, when told, to items by key: each use on its own partitions, on the table alone, within the partitions the access declares', () => {
    const access: ResourceAccess = { table: 'readwrite', partitions: ['ORG#*', 'EVENT#*'] };
    const { statements, table } = granted({ ...access, tableUses: { get: ['ORG#*'], put: ['EVENT#*'] } });
    const on = (...partitions: string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions } });
    assert.deepEqual(
      statements.map((s) => [s.Action, s.Resource, (s as { Condition?: unknown }).Condition]),
      [
        ['dynamodb:GetItem', { 'Fn::GetAtt': [idOf(table), 'Arn'] }, on('ORG#*')],
        ['dynamodb:PutItem', { 'Fn::GetAtt': [idOf(table), 'Arn'] }, on('EVENT#*')],
      ],
    );
    assert.throws(
      () => granted({ ...access, tableUses: { update: ['ORG#*', 'APIKEY#*'] } }),
      /The table use "update" names partitions its access does not: APIKEY#\*/,
    );
    assert.throws(
      () => granted({ table: 'read', partitions: ['ORG#*'], tableUses: { put: ['ORG#*'] } }),
      /The table use "put" needs more than the table access its route declares \(read\)/,
    );
  });

  it('encrypts or decrypts partner secrets with exactly kms:Encrypt or kms:Decrypt on the key', () => {
    for (const [secrets, expected] of [
      ['seal', ['kms:Encrypt']],
      ['open', ['kms:Decrypt']],
      ['both', ['kms:Decrypt', 'kms:Encrypt']],
    ] as const) {
      const { statements, environment, secretsKey } = granted({ table: 'none', secrets });
      assert.deepEqual(actionsIn(statements), expected, secrets);
      assert.deepEqual(
        statements.map((s) => s.Resource),
        [{ 'Fn::GetAtt': [idOf(secretsKey), 'Arn'] }],
      );
      assert.deepEqual(environment.SECRETS_KEY_ARN, { 'Fn::GetAtt': [idOf(secretsKey), 'Arn'] });
    }
  });

  it('sends to the queues it names, with their URLs in its settings', () => {
    const { statements, environment, queues } = granted({ table: 'none', sendsTo: ['test-work'] });
    assert.ok(actionsIn(statements).includes('sqs:SendMessage'));
    assert.deepEqual(environment.QUEUE_URL_TEST_WORK, { Ref: idOf(queues.get('test-work')!) });
    assert.throws(() => granted({ table: 'none', sendsTo: ['no-such-queue'] }), /No queue named no-such-queue/);
  });

  it("schedules to a queue: creates schedules in the stage's group and passes the scheduler's role, to the scheduler only, which may send to that queue and its dead-letter queue", () => {
    const { statements, environment, template, schedulerRole, queues } = granted({ table: 'none', schedules: ['test-work'] });
    const create = statements.find((s) => s.Action === 'scheduler:CreateSchedule')!;
    assert.ok(JSON.stringify(create.Resource).includes(`:schedule/${SCHEDULE_GROUP_NAME}/*`));
    const passRole = statements.filter((s) => s.Action === 'iam:PassRole');
    assert.equal(passRole.length, 1);
    assert.deepEqual(passRole[0]!.Resource, { 'Fn::GetAtt': [idOf(schedulerRole), 'Arn'] });
    assert.deepEqual((passRole[0] as { Condition?: unknown }).Condition, {
      StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' },
    });
    const schedulerSends = statementsOfRole(template, idOf(schedulerRole)).filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    const queue = queues.get('test-work')!;
    assert.deepEqual(
      schedulerSends.map((s) => s.Resource),
      [{ 'Fn::GetAtt': [idOf(queue), 'Arn'] }, { 'Fn::GetAtt': [idOf(queue.deadLetters), 'Arn'] }],
    );
    assert.equal(environment.SCHEDULER_GROUP_NAME !== undefined && environment.SCHEDULER_ROLE_ARN !== undefined, true);
    assert.deepEqual(environment.QUEUE_ARN_TEST_WORK, { 'Fn::GetAtt': [idOf(queue), 'Arn'] });
    assert.deepEqual(environment.QUEUE_DEAD_LETTERS_ARN_TEST_WORK, { 'Fn::GetAtt': [idOf(queue.deadLetters), 'Arn'] });
  });

  it('signs with the token key (kms:Sign alone) or reads its public half (kms:GetPublicKey alone) only when told', () => {
    for (const [tokenKey, expected] of [
      ['sign', ['kms:Sign']],
      ['verify', ['kms:GetPublicKey']],
    ] as const) {
      const { statements, environment, tokenSigningKey } = granted({ table: 'none' }, tokenKey);
      const keyArn = { 'Fn::GetAtt': [idOf(tokenSigningKey), 'Arn'] };
      assert.deepEqual(
        statements.map((s) => [[s.Action].flat(), s.Resource]),
        [[expected, keyArn]],
        tokenKey,
      );
      assert.deepEqual(environment.TOKEN_SIGNING_KEY_ARN, keyArn, tokenKey);
      assert.ok(!('STRIPE_PRICE_SUBSCRIPTION' in environment));
    }
    const untouched = granted({ table: 'none' }, 'none');
    assert.deepEqual(untouched.statements, []);
    assert.ok(!('TOKEN_SIGNING_KEY_ARN' in untouched.environment));
  });

  it("reads the provider's keys and ids only when declared", () => {
    const paying = granted({ table: 'none', providerKeys: 'api' });
    assert.deepEqual(
      paying.statements.map((s) => s.Resource),
      [{ Ref: idOf(paying.paymentSecrets.api) }],
      'the API key alone',
    );
    assert.deepEqual(paying.environment.STRIPE_API_KEY_SECRET_ARN, { Ref: idOf(paying.paymentSecrets.api) });
    assert.ok(!('STRIPE_WEBHOOK_SECRET_ARN' in paying.environment));
    assert.equal(paying.environment.STRIPE_PRICE_SUBSCRIPTION, LOCAL_PRICE_IDS.SUBSCRIPTION);

    const receiving = granted({ table: 'none', providerKeys: 'events' });
    assert.deepEqual(
      receiving.statements.map((s) => s.Resource),
      [{ Ref: idOf(receiving.paymentSecrets.events) }],
      'never the API key',
    );
    assert.deepEqual(receiving.environment.STRIPE_WEBHOOK_SECRET_ARN, { Ref: idOf(receiving.paymentSecrets.events) });
    assert.ok(!('STRIPE_API_KEY_SECRET_ARN' in receiving.environment));

    const pricing = granted({ table: 'none', providerIds: true });
    assert.deepEqual(pricing.statements, []);
    assert.equal(pricing.environment.STRIPE_PRICE_SUBSCRIPTION, LOCAL_PRICE_IDS.SUBSCRIPTION);
  });
});
