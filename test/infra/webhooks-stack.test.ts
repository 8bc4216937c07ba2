/**
 * The webhooks' infrastructure in the synthesized stack: the partner-secrets KMS key, the
 * domain-events and webhook-deliveries queues and their workers, who gets SECRETS_KEY_ARN and which
 * KMS actions, the delivery worker's scheduler grants, the event publishers' queue settings, and the
 * legacy routes' deprecation.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { queueList } from '../../shared/queues';
import { routeList } from '../../shared/routes';
import { logicalIdOf, ofType, resources, stack, workersTemplate } from './stack-fixture';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown };

const actionsIn = (statement: Statement) => [statement.Action].flat();

function functionIdOf(handler: string): string {
  const fn = stack.functions.get(handler);
  assert.ok(fn, `${handler} has a function`);
  return logicalIdOf(fn);
}

const variablesOf = (functionLogicalId: string) =>
  (resources[functionLogicalId]!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;

/** Every IAM policy statement on a role (by logical id). */
function statementsOfRole(roleId: string): Statement[] {
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

const roleIdOf = (functionLogicalId: string): string => resources[functionLogicalId]!.Properties.Role['Fn::GetAtt'][0];
const statementsOf = (handler: string) => statementsOfRole(roleIdOf(functionIdOf(handler)));
const actionsOf = (handler: string) => statementsOf(handler).flatMap(actionsIn);

/** Every statement of every IAM policy in both templates, inline role policies and managed policies included. */
function allPolicyStatements(): Statement[] {
  return Object.values(resources).flatMap((resource) => {
    if (resource.Type === 'AWS::IAM::Policy' || resource.Type === 'AWS::IAM::ManagedPolicy') {
      return resource.Properties.PolicyDocument.Statement as Statement[];
    }
    if (resource.Type === 'AWS::IAM::Role') {
      return ((resource.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
        (p) => p.PolicyDocument.Statement,
      );
    }
    return [];
  });
}

const keyId = logicalIdOf(stack.secretsKey);
const keyArn = { 'Fn::GetAtt': [keyId, 'Arn'] };

const queueId = (name: string) => logicalIdOf(stack.queues.get(name)!.queue);
const deadLettersId = (name: string) => logicalIdOf(stack.queues.get(name)!.deadLetters);

/** The functions that seal partner secrets: the routes that take a secret or an API key value. */
const SEAL_ROUTES = [
  'webhooks/legacy/create',
  'webhooks/legacy/replace',
  'webhooks/subscriptions/create',
  'webhooks/subscriptions/rotate-secret',
];
const DELIVERY_WORKER = 'webhooks/delivery';
/** The file deliveries' functions that seal or open partner credentials (file-deliveries-stack.test.ts checks each). */
const FILE_DELIVERY_SECRETS = ['file-deliveries/create', 'file-deliveries/update', 'file-deliveries/test', 'file-deliveries/delivery'];
/** Records an abandoned attempt: the table only (its queue's deadLetterAccess). */
const DELIVERY_DEAD_LETTERS = 'webhooks/delivery-dead-letters';

describe('the partner-secrets key', () => {
  it('is one KMS key, with automatic rotation', () => {
    // The other key of the stack is the alarm topic's (infra/observability.ts).
    const partnerSecretKeys = ofType('AWS::KMS::Key').filter(([, key]) =>
      String(key.Properties.Description).startsWith('Encrypts partner secrets'),
    );
    assert.deepEqual(
      partnerSecretKeys.map(([id]) => id),
      [keyId],
    );
    workersTemplate.resourceCountIs('AWS::KMS::Key', 0);
    assert.equal(resources[keyId]!.Type, 'AWS::KMS::Key');
    assert.equal(resources[keyId]!.Properties.EnableKeyRotation, true);
  });
});

describe('the webhook queues', () => {
  const mappings = ofType('AWS::Lambda::EventSourceMapping');
  const feeding = (sourceId: string, handler: string) =>
    mappings.filter(
      ([, m]) => m.Properties.EventSourceArn['Fn::GetAtt'][0] === sourceId && m.Properties.FunctionName.Ref === functionIdOf(handler),
    );

  for (const name of ['webhook-deliveries', 'domain-events']) {
    it(`${name} lives in the workers stack, SQS-encrypted, dead-lettered after 5 receives`, () => {
      const queue = workersTemplate.toJSON().Resources[queueId(name)];
      const deadLetters = workersTemplate.toJSON().Resources[deadLettersId(name)];
      assert.ok(queue && deadLetters, `${name} and its dead-letter queue are in the workers stack`);
      assert.equal(queue.Type, 'AWS::SQS::Queue');
      assert.equal(deadLetters.Type, 'AWS::SQS::Queue');
      assert.deepEqual(queue.Properties.RedrivePolicy, {
        deadLetterTargetArn: { 'Fn::GetAtt': [deadLettersId(name), 'Arn'] },
        maxReceiveCount: 5,
      });
      assert.equal(queue.Properties.SqsManagedSseEnabled, true);
      assert.equal(deadLetters.Properties.SqsManagedSseEnabled, true);
      assert.equal(queue.Properties.KmsMasterKeyId, undefined);
    });
  }

  it('feeds webhook-deliveries to the delivery worker one message at a time, reporting item failures', () => {
    const [mapping, ...others] = feeding(queueId('webhook-deliveries'), DELIVERY_WORKER);
    assert.ok(mapping, 'an event source mapping from webhook-deliveries to the delivery worker');
    assert.equal(others.length, 0);
    assert.equal(mapping[1].Properties.BatchSize, 1);
    assert.deepEqual(mapping[1].Properties.FunctionResponseTypes, ['ReportBatchItemFailures']);
    const [deadLetters] = feeding(deadLettersId('webhook-deliveries'), DELIVERY_DEAD_LETTERS);
    assert.ok(deadLetters, 'dead-lettered attempts reach their handler');
    assert.deepEqual(deadLetters[1].Properties.FunctionResponseTypes, ['ReportBatchItemFailures']);
  });

  it('feeds domain-events to its worker, reporting item failures', () => {
    const [mapping, ...others] = feeding(queueId('domain-events'), 'webhooks/domain-events');
    assert.ok(mapping, 'an event source mapping from domain-events to its worker');
    assert.equal(others.length, 0);
    assert.equal(mapping[1].Properties.BatchSize, 10);
    assert.deepEqual(mapping[1].Properties.FunctionResponseTypes, ['ReportBatchItemFailures']);
  });
});

describe('SECRETS_KEY_ARN and ALLOW_LOOPBACK_DESTINATIONS', () => {
  const functions = ofType('AWS::Lambda::Function');

  it('is set exactly on the functions whose route or queue declares secrets', () => {
    const withKey = functions
      .filter(([, f]) => 'SECRETS_KEY_ARN' in (f.Properties.Environment?.Variables ?? {}))
      .map(([id]) => id)
      .sort();
    const expected = [...SEAL_ROUTES, DELIVERY_WORKER, ...FILE_DELIVERY_SECRETS].map(functionIdOf).sort();
    assert.deepEqual(withKey, expected);
    // The same set, read from the declarations.
    const declared = [
      ...routeList.filter((route) => route.access.secrets).map((route) => route.handler),
      ...queueList.filter((queue) => queue.access.secrets).map((queue) => queue.handler),
      ...queueList
        .filter((queue) => queue.deadLetterHandler && (queue.deadLetterAccess ?? queue.access).secrets)
        .map((queue) => queue.deadLetterHandler!),
    ];
    assert.deepEqual(declared.map(functionIdOf).sort(), expected);
  });

  it("names the stack's key", () => {
    for (const handler of [...SEAL_ROUTES, DELIVERY_WORKER])
      assert.deepEqual(variablesOf(functionIdOf(handler)).SECRETS_KEY_ARN, keyArn, handler);
  });

  it('never lets a deployed function deliver to loopback receivers', () => {
    assert.ok(functions.length > routeList.length);
    for (const [id, f] of functions) assert.ok(!('ALLOW_LOOPBACK_DESTINATIONS' in (f.Properties.Environment?.Variables ?? {})), id);
  });
});

describe('IAM for the webhooks', () => {
  it('lets the seal routes encrypt with the key, and not decrypt (but a create, which opens its kept answer to a repeated Idempotency-Key)', () => {
    for (const handler of SEAL_ROUTES) {
      const kms = statementsOf(handler).filter((s) => JSON.stringify(s.Resource) === JSON.stringify(keyArn));
      assert.deepEqual(
        kms.flatMap(actionsIn),
        handler === 'webhooks/subscriptions/create' ? ['kms:Encrypt', 'kms:Decrypt'] : ['kms:Encrypt'],
        handler,
      );
      assert.equal(kms[0]!.Effect, 'Allow');
      assert.deepEqual(kms[0]!.Resource, keyArn, handler);
    }
  });

  it('lets the delivery worker decrypt with the key, and not encrypt', () => {
    const kms = statementsOf(DELIVERY_WORKER).filter((s) => actionsIn(s).some((a) => a.startsWith('kms:')));
    assert.ok(
      kms.every((s) => JSON.stringify(s.Resource) === JSON.stringify(keyArn)),
      'the secrets key alone',
    );
    assert.deepEqual(kms.flatMap(actionsIn), ['kms:Decrypt']);
    assert.deepEqual(kms[0]!.Resource, keyArn);
  });

  it('lets no other function use the key', () => {
    const allowed = new Set([...SEAL_ROUTES, DELIVERY_WORKER, ...FILE_DELIVERY_SECRETS].map((handler) => roleIdOf(functionIdOf(handler))));
    for (const [handler] of stack.functions) {
      const roleId = roleIdOf(functionIdOf(handler));
      if (allowed.has(roleId)) continue;
      // The bearer-token key is another key, with grants of its own (stack.test.ts).
      const onSecretsKey = statementsOf(handler).filter((s) => JSON.stringify(s.Resource) === JSON.stringify(keyArn));
      assert.deepEqual(onSecretsKey.flatMap(actionsIn), [], handler);
      assert.ok(!actionsOf(handler).some((a) => a === 'kms:Encrypt' || a === 'kms:Decrypt'), handler);
    }
  });

  it('grants no kms:ReEncrypt*, kms:GenerateDataKey* or KMS wildcard anywhere', () => {
    const kmsActions = allPolicyStatements()
      .flatMap(actionsIn)
      .filter((a) => a.toLowerCase().startsWith('kms:'));
    assert.ok(kmsActions.length > 0, 'the check sees the KMS statements');
    for (const action of kmsActions) {
      assert.ok(!/^kms:(ReEncrypt|GenerateDataKey)/i.test(action), action);
      assert.ok(!action.includes('*'), action);
    }
  });

  it("lets the delivery worker create schedules in the stage's group and pass the scheduler role", () => {
    const statements = statementsOf(DELIVERY_WORKER);
    const create = statements.filter((s) => actionsIn(s).includes('scheduler:CreateSchedule'));
    assert.equal(create.length, 1);
    const arn = create[0]!.Resource as { 'Fn::Join': [string, unknown[]] };
    const parts = arn['Fn::Join'][1];
    assert.equal(parts.at(-1), ':schedule/hotel-mapping-test/*');
    assert.ok(JSON.stringify(parts).includes(':scheduler:'));
    assert.equal(workersTemplate.toJSON().Resources[logicalIdOf(stack.scheduleGroup)].Properties.Name, 'hotel-mapping-test');
    const passRole = statements.filter((s) => actionsIn(s).includes('iam:PassRole'));
    assert.equal(passRole.length, 1);
    assert.deepEqual(passRole[0]!.Resource, { 'Fn::GetAtt': [logicalIdOf(stack.schedulerRole), 'Arn'] });
    const variables = variablesOf(functionIdOf(DELIVERY_WORKER));
    assert.equal(variables.SCHEDULER_GROUP_NAME, 'hotel-mapping-test');
    assert.deepEqual(variables.SCHEDULER_ROLE_ARN, { 'Fn::GetAtt': [logicalIdOf(stack.schedulerRole), 'Arn'] });
    assert.deepEqual(variables.QUEUE_ARN_WEBHOOK_DELIVERIES, { 'Fn::GetAtt': [queueId('webhook-deliveries'), 'Arn'] });
    assert.deepEqual(variables.QUEUE_URL_WEBHOOK_DELIVERIES, { Ref: queueId('webhook-deliveries') });
  });

  it('lets the scheduler role send to the webhook-deliveries queue', () => {
    const sends = statementsOfRole(logicalIdOf(stack.schedulerRole)).filter((s) => actionsIn(s).includes('sqs:SendMessage'));
    assert.ok(
      sends.some((s) => JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [queueId('webhook-deliveries'), 'Arn'] })),
      'sqs:SendMessage on webhook-deliveries',
    );
  });

  it('lets only the outbox relay send to domain-events: the producers record their events in the table', () => {
    const publishers = ['mapping-jobs/review', 'reference/resolve-duplicate', 'mapping-jobs/chunk'];
    for (const handler of [...publishers, ...routeList.map((route) => route.handler)]) {
      assert.equal(variablesOf(functionIdOf(handler)).QUEUE_URL_DOMAIN_EVENTS, undefined, handler);
      assert.ok(
        !statementsOf(handler).some(
          (s) => actionsIn(s).includes('sqs:SendMessage') && JSON.stringify(s.Resource).includes('DomainEventsQueue'),
        ),
        `${handler} may not send to domain-events`,
      );
    }
    assert.deepEqual(variablesOf(functionIdOf('platform/event-relay')).QUEUE_URL_DOMAIN_EVENTS, { Ref: queueId('domain-events') });
  });
});

describe('the legacy export-webhook routes', () => {
  it('are deprecated in favour of /api/v1/webhook-subscriptions', () => {
    const legacy = routeList.filter((route) => route.path.startsWith('/api/v1/export-webhooks'));
    assert.deepEqual(legacy.map((route) => `${route.method} ${route.path}`).sort(), [
      'DELETE /api/v1/export-webhooks/{id}',
      'GET /api/v1/export-webhooks',
      'GET /api/v1/export-webhooks/{id}',
      'POST /api/v1/export-webhooks',
      'PUT /api/v1/export-webhooks/{id}',
    ]);
    for (const route of legacy) assert.equal(route.deprecated?.successor, '/api/v1/webhook-subscriptions', route.path);
    // Only they are deprecated; their successor is a route of the table.
    assert.deepEqual(
      routeList
        .filter((route) => route.deprecated)
        .map((route) => route.path)
        .sort(),
      legacy.map((route) => route.path).sort(),
    );
    assert.ok(routeList.some((route) => route.path === '/api/v1/webhook-subscriptions' && !route.deprecated));
  });
});
