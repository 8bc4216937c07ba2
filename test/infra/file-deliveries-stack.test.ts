/**
 * The file deliveries' infrastructure in the synthesized stack: sts:AssumeRole on partners' roles
 * for exactly the two functions that connect (the connection test and the delivery worker), the
 * account id for those that show trust policies, the partner-secrets key's actions per function,
 * the worker's queue and schedules, and the completion export's dead letters and relay.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { logicalIdOf, ofType, resources, stack } from './stack-fixture';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };
const actionsIn = (statement: Statement) => [statement.Action].flat();

function functionIdOf(handler: string): string {
  const fn = stack.functions.get(handler);
  assert.ok(fn, `${handler} has a function`);
  return logicalIdOf(fn);
}
const variablesOf = (handler: string) =>
  (resources[functionIdOf(handler)]!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
const roleIdOf = (handler: string): string => resources[functionIdOf(handler)]!.Properties.Role['Fn::GetAtt'][0];
function statementsOf(handler: string): Statement[] {
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleIdOf(handler)))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
}
const keyArn = JSON.stringify({ 'Fn::GetAtt': [logicalIdOf(stack.secretsKey), 'Arn'] });
const queueArn = (name: string) => JSON.stringify({ 'Fn::GetAtt': [logicalIdOf(stack.queues.get(name)!.queue), 'Arn'] });

const CONNECTING = ['file-deliveries/test', 'file-deliveries/delivery'];
const DESCRIBING = ['file-deliveries/create', 'file-deliveries/list', 'file-deliveries/get', 'file-deliveries/update'];

describe('IAM and settings of the file deliveries', () => {
  it("lets exactly the connection test and the delivery worker assume partners' roles", () => {
    const assuming = [...stack.functions.keys()].filter((handler) =>
      statementsOf(handler).some((s) => actionsIn(s).includes('sts:AssumeRole')),
    );
    assert.deepEqual(assuming.sort(), [...CONNECTING].sort());
    for (const handler of CONNECTING) {
      const [statement, ...others] = statementsOf(handler).filter((s) => actionsIn(s).includes('sts:AssumeRole'));
      assert.deepEqual(others, []);
      assert.deepEqual(actionsIn(statement!), ['sts:AssumeRole']);
      assert.equal(statement!.Resource, 'arn:aws:iam::*:role/*');
    }
  });

  it('tells the account id to the functions that show or use trust policies, and to no other', () => {
    const told = [...stack.functions.keys()].filter((handler) => 'SERVICE_ACCOUNT_ID' in variablesOf(handler));
    assert.deepEqual(told.sort(), [...CONNECTING, ...DESCRIBING].sort());
    for (const handler of told) assert.deepEqual(variablesOf(handler).SERVICE_ACCOUNT_ID, { Ref: 'AWS::AccountId' }, handler);
  });

  it('lets the saving routes seal credentials and the connecting functions open them, nothing more', () => {
    const kmsOf = (handler: string) =>
      statementsOf(handler)
        .filter((s) => JSON.stringify(s.Resource) === keyArn)
        .flatMap(actionsIn);
    assert.ok(kmsOf('file-deliveries/create').includes('kms:Encrypt'));
    assert.deepEqual(kmsOf('file-deliveries/update'), ['kms:Encrypt']);
    for (const handler of CONNECTING) assert.deepEqual(kmsOf(handler), ['kms:Decrypt'], handler);
    for (const handler of ['file-deliveries/list', 'file-deliveries/get', 'file-deliveries/delete', 'file-deliveries/deliveries'])
      assert.deepEqual(kmsOf(handler), [], handler);
  });

  it('lets the delivery worker read export files only, send its retries and schedule the last', () => {
    const statements = statementsOf('file-deliveries/delivery');
    const reads = statements.filter((s) => actionsIn(s).includes('s3:GetObject'));
    assert.equal(reads.length, 1);
    assert.ok(JSON.stringify(reads[0]!.Resource).includes('/exports/*'), JSON.stringify(reads[0]!.Resource));
    assert.ok(!statements.some((s) => actionsIn(s).includes('s3:PutObject')));
    assert.ok(
      statements.some((s) => actionsIn(s).includes('sqs:SendMessage') && JSON.stringify(s.Resource) === queueArn('file-deliveries')),
    );
    assert.ok(statements.some((s) => actionsIn(s).includes('scheduler:CreateSchedule')));
  });

  it('lets the completion export start deliveries, and the relay queue it', () => {
    const sends = (handler: string) =>
      statementsOf(handler)
        .filter((s) => actionsIn(s).includes('sqs:SendMessage'))
        .map((s) => JSON.stringify(s.Resource));
    assert.ok(sends('mapping-jobs/export-preparation').includes(queueArn('file-deliveries')));
    assert.ok(stack.functions.has('mapping-jobs/export-dead-letters'));
  });
});
