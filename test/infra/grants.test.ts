/**
 * The boundaries of the grants (issue 34, point 4), read off the synthesized policies: objects by
 * prefix only, search apart from partners' files, uploads apart from the reference, public
 * functions on their own partitions (the Stripe webhook on each use's own), logs to each function's
 * own log group, dead-letter handlers with what they use, and every wildcard acknowledged on the
 * role that holds it.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { OBJECT_ACTIONS, TABLE_ACTIONS } from '../../infra/constructs/service-resources';
import { billingRoutes } from '../../shared/billing';
import { MATCHING_INDEX_PREFIX, referenceRoutes, REFERENCE_FILES_PREFIX } from '../../shared/reference';
import {
  INVENTORY_FILES_PREFIX,
  INVENTORY_UPLOADS_PREFIX,
  inventoryValidationQueue,
  partnerInventoryRoutes,
} from '../../shared/partner-inventories';
import { supplierRoutes } from '../../shared/suppliers';
import {
  OBJECT_USES,
  objectPrefixes,
  touchesObjects,
  type BucketAccess,
  type ObjectUse,
  type ResourceAccess,
} from '../../shared/platform/access';
import { EXPORTS_PREFIX } from '../../shared/export-format';
import { JOB_RESULTS_PREFIX } from '../../shared/mapping-jobs';
import { BOOK_CHANGES_PREFIX, BOOK_DERIVED_PREFIX, BOOK_EXPORTS_PREFIX } from '../../shared/mapping-book';
import { EVENT_RELAY } from '../../shared/platform/events/relay';
import { queueList } from '../../shared/queues';
import { routeList } from '../../shared/routes';
import { logicalIdOf, ofType, resources, stack } from './stack-fixture';

type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };

const filesId = logicalIdOf(stack.bucket);
const resultsId = logicalIdOf(stack.resultsBucket);
const tableArn = { 'Fn::GetAtt': [logicalIdOf(stack.table), 'Arn'] };
const actionsOf = (statement: Statement) => [statement.Action].flat();

function statementsOfHandler(handler: string): Statement[] {
  const roleId = resources[logicalIdOf(stack.functions.get(handler)!)]!.Properties.Role['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
}

/** The bucket and key prefix an object ARN names (`exports/` for `<Results.Arn>/exports/*`); throws on any other shape. */
function objectsOf(resource: unknown): { bucket: BucketAccess; prefix: string } {
  const [, [arn, path]] = (resource as { 'Fn::Join': [string, [unknown, string]] })['Fn::Join'];
  const bucketId = (arn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  assert.ok([filesId, resultsId].includes(bucketId), `an object of the files or the results bucket, not ${JSON.stringify(arn)}`);
  const prefix = path.replace(/^\//, '').replace(/\*$/, '');
  assert.ok(prefix.endsWith('/') && !prefix.includes('*'), `an object ARN under a folder, not ${path}`);
  return { bucket: bucketId === filesId ? 'objects' : 'resultObjects', prefix };
}

/** The prefixes of a bucket a function may use objects under, so: from its policy. */
function grantedPrefixes(handler: string, use: ObjectUse, bucket: BucketAccess = 'objects'): string[] {
  return statementsOfHandler(handler)
    .filter((statement) => actionsOf(statement).includes(OBJECT_ACTIONS[use][0]!))
    .flatMap((statement) => [statement.Resource].flat().map(objectsOf))
    .filter((granted) => granted.bucket === bucket)
    .map((granted) => granted.prefix)
    .sort();
}

/** Whether objects under one prefix may lie under the other. */
const overlaps = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);

const functionsWithAccess: { handler: string; access: Pick<ResourceAccess, 'table' | 'objects' | 'resultObjects'> }[] = [
  ...routeList.map(({ handler, access }) => ({ handler, access })),
  ...queueList.map(({ handler, access }) => ({ handler, access })),
  ...queueList.flatMap(({ deadLetterHandler, deadLetterAccess }) =>
    deadLetterHandler ? [{ handler: deadLetterHandler, access: deadLetterAccess! }] : [],
  ),
  { handler: EVENT_RELAY.handler, access: EVENT_RELAY.access },
];

describe('object grants', () => {
  it("name objects under a folder's prefix only: never the whole bucket, never a listing", () => {
    const s3Statements = ofType('AWS::IAM::Policy')
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[])
      .filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')));
    assert.ok(s3Statements.length > 0);
    for (const statement of s3Statements) {
      assert.ok(
        actionsOf(statement).every((action) => ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:PutObjectTagging'].includes(action)),
        JSON.stringify(statement.Action),
      );
      for (const resource of [statement.Resource].flat()) assert.notEqual(objectsOf(resource).prefix, '', 'not the whole bucket');
    }
  });

  it('give each function and worker exactly the prefixes it declares, per bucket and use', () => {
    for (const { handler, access } of functionsWithAccess) {
      for (const bucket of ['objects', 'resultObjects'] as const) {
        for (const use of OBJECT_USES) {
          assert.deepEqual(
            grantedPrefixes(handler, use, bucket),
            [...objectPrefixes(access, use, bucket)].sort(),
            `${handler} ${bucket} ${use}`,
          );
        }
      }
    }
  });

  it("keep a job's results, exports, the book's change feed, exports and derived files, and uploads waiting for completion in the results bucket, which is not backed up, and nothing else there", () => {
    const resultPrefixes = new Set(
      functionsWithAccess.flatMap(({ access }) => OBJECT_USES.flatMap((use) => objectPrefixes(access, use, 'resultObjects'))),
    );
    assert.deepEqual(
      [...resultPrefixes].sort(),
      [BOOK_CHANGES_PREFIX, BOOK_DERIVED_PREFIX, BOOK_EXPORTS_PREFIX, EXPORTS_PREFIX, INVENTORY_UPLOADS_PREFIX, JOB_RESULTS_PREFIX].sort(),
    );
    for (const { handler, access } of functionsWithAccess) {
      for (const use of OBJECT_USES)
        assert.ok(
          !objectPrefixes(access, use).some((prefix) => resultPrefixes.has(prefix)),
          `${handler} ${use}: results only in the results bucket`,
        );
    }
  });

  it("keep the reference's functions (search, statistics, download, hotels) out of partners' inventories", () => {
    const referenceHandlers = Object.values(referenceRoutes).map((route) => route.handler);
    assert.ok(referenceHandlers.includes('reference/search') && referenceHandlers.includes('reference/search-advanced'));
    for (const handler of referenceHandlers) {
      for (const use of OBJECT_USES) {
        for (const prefix of grantedPrefixes(handler, use))
          assert.ok(!overlaps(prefix, INVENTORY_FILES_PREFIX), `${handler} ${use} ${prefix}`);
      }
    }
    assert.deepEqual(grantedPrefixes('reference/search', 'read'), [REFERENCE_FILES_PREFIX]);
  });

  it('keep the upload functions from writing the reference index, or anything of the reference', () => {
    const uploads = [
      ...Object.values(partnerInventoryRoutes).map((route) => route.handler),
      inventoryValidationQueue.handler,
      supplierRoutes.requestSupplier.handler,
    ];
    for (const handler of uploads) {
      for (const use of ['write', 'delete', 'expire'] as const) {
        for (const prefix of grantedPrefixes(handler, use)) {
          assert.ok(!overlaps(prefix, REFERENCE_FILES_PREFIX) && !overlaps(prefix, MATCHING_INDEX_PREFIX), `${handler} ${use} ${prefix}`);
        }
      }
    }
    assert.deepEqual(grantedPrefixes(partnerInventoryRoutes.uploadPartnerInventory.handler, 'write'), [INVENTORY_FILES_PREFIX]);
    // A presigned PUT lands in the staging prefix only, in the results bucket, which no backup holds.
    assert.deepEqual(grantedPrefixes(partnerInventoryRoutes.createPartnerInventoryUpload.handler, 'write'), []);
    assert.deepEqual(grantedPrefixes(partnerInventoryRoutes.createPartnerInventoryUpload.handler, 'write', 'resultObjects'), [
      INVENTORY_UPLOADS_PREFIX,
    ]);
  });
});

describe('public functions', () => {
  const publicRoutes = routeList.filter((route) => route.auth === 'none' && route.access.table !== 'none');

  it('are the token exchange, the supplier catalogue and the Stripe webhook, each on its own partitions', () => {
    assert.deepEqual(Object.fromEntries(publicRoutes.map((route) => [route.handler, route.access.partitions])), {
      'api-keys/token': ['APIKEY#*'],
      'suppliers/list': ['SUPPLIERS'],
      'billing/stripe-webhook': ['ORG#*', 'PAYCUSTOMER#*', 'PAYEVENT#*'],
    });
  });

  it('reach the table only under the dynamodb:LeadingKeys condition of the partitions they name', () => {
    for (const route of publicRoutes.filter((r) => !r.access.tableUses)) {
      const tableStatements = statementsOfHandler(route.handler).filter((statement) =>
        actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
      );
      assert.equal(tableStatements.length, 1, route.handler);
      const [statement] = tableStatements;
      assert.deepEqual(
        statement!.Condition,
        { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': route.access.partitions } },
        route.handler,
      );
      assert.deepEqual(actionsOf(statement!), [...TABLE_ACTIONS[route.access.table as 'read' | 'readwrite']], route.handler);
      assert.deepEqual(statement!.Resource, [tableArn, { 'Fn::Join': ['', [tableArn, '/index/GSI1']] }], route.handler);
    }
  });

  it('let the Stripe webhook read, put and update only the items of the partitions each is used on: no query, no index, no delete, no batch', () => {
    const webhook = billingRoutes.stripeWebhook;
    const tableStatements = statementsOfHandler(webhook.handler).filter((statement) =>
      actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
    );
    const byAction = tableStatements.map((statement) => [actionsOf(statement), statement.Resource, statement.Condition]);
    const onPartitions = (...partitions: string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions } });
    assert.deepEqual(byAction, [
      [['dynamodb:GetItem'], tableArn, onPartitions('ORG#*', 'PAYCUSTOMER#*')],
      [['dynamodb:PutItem'], tableArn, onPartitions('PAYEVENT#*')],
      [['dynamodb:UpdateItem'], tableArn, onPartitions('ORG#*')],
    ]);
    // Within what its route declares.
    assert.equal(webhook.access.table, 'readwrite');
    const declared: readonly string[] = webhook.access.partitions;
    for (const [, , condition] of byAction) {
      for (const partition of (condition as ReturnType<typeof onPartitions>)['ForAllValues:StringLike']['dynamodb:LeadingKeys'])
        assert.ok(declared.includes(partition), partition);
    }
  });

  it('share no role with a function that may reach other partitions', () => {
    const roleOf = (handler: string) => resources[logicalIdOf(stack.functions.get(handler)!)]!.Properties.Role['Fn::GetAtt'][0];
    for (const route of publicRoutes) {
      const sharing = routeList.filter((other) => other !== route && roleOf(other.handler) === roleOf(route.handler));
      for (const other of sharing)
        assert.deepEqual(other.access.partitions, route.access.partitions, `${route.handler} shares with ${other.handler}`);
    }
  });
});

describe('logging', () => {
  const ourFunctions = [...stack.functions].map(([handler, fn]) => ({ handler, properties: resources[logicalIdOf(fn)]!.Properties }));
  const roleIdOf = (properties: { Role: { 'Fn::GetAtt': [string, string] } }) => properties.Role['Fn::GetAtt'][0];
  const statementsOfRole = (roleId: string): Statement[] =>
    ofType('AWS::IAM::Policy')
      .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);

  it("gives no function's role AWSLambdaBasicExecutionRole, whose logs actions reach every log group", () => {
    for (const { handler, properties } of ourFunctions) {
      assert.equal(resources[roleIdOf(properties)]!.Properties.ManagedPolicyArns, undefined, handler);
    }
  });

  it('lets each role write to exactly the log groups of the functions that run with it, and log nothing anywhere else', () => {
    const logGroupsByRole = new Map<string, string[]>();
    for (const { properties } of ourFunctions) {
      const roleId = roleIdOf(properties);
      logGroupsByRole.set(roleId, [...(logGroupsByRole.get(roleId) ?? []), properties.LoggingConfig.LogGroup.Ref]);
    }
    assert.ok(logGroupsByRole.size > 10);
    for (const [roleId, logGroups] of logGroupsByRole) {
      const logging = statementsOfRole(roleId).filter((statement) => actionsOf(statement).some((action) => action.startsWith('logs:')));
      assert.equal(logging.length, 1, `${roleId}: one statement, however many functions share the role`);
      assert.deepEqual(actionsOf(logging[0]!), ['logs:CreateLogStream', 'logs:PutLogEvents'], roleId);
      assert.deepEqual(
        [logging[0]!.Resource]
          .flat()
          .map((resource) => JSON.stringify(resource))
          .sort(),
        logGroups.map((id) => JSON.stringify({ 'Fn::GetAtt': [id, 'Arn'] })).sort(),
        roleId,
      );
    }
  });
});

describe('dead-letter handlers', () => {
  /** What every function has beside its grants: tracing, writing its logs, and (here) taking messages from its queue. */
  const XRAY = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments', 'logs:CreateLogStream', 'logs:PutLogEvents'];
  const CONSUME = ['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'];

  for (const definition of queueList.filter((queue) => queue.deadLetterHandler)) {
    it(`${definition.deadLetterHandler} holds exactly what its deadLetterAccess declares`, () => {
      const access = definition.deadLetterAccess!;
      const declared = access.table === 'none' ? [] : [...TABLE_ACTIONS[access.table]];
      const buckets = (['objects', 'resultObjects'] as const).filter((bucket) => touchesObjects(access, bucket));
      const objectActions = buckets.flatMap((bucket) =>
        OBJECT_USES.filter((use) => objectPrefixes(access, use, bucket).length > 0).flatMap((use) => OBJECT_ACTIONS[use]),
      );
      // An action granted on both buckets is one action.
      const actions = [...new Set(statementsOfHandler(definition.deadLetterHandler!).flatMap(actionsOf))].sort();
      assert.deepEqual(actions, [...new Set([...declared, ...objectActions, ...XRAY, ...CONSUME])].sort());
      const consumed = statementsOfHandler(definition.deadLetterHandler!).filter((statement) =>
        actionsOf(statement).includes('sqs:ReceiveMessage'),
      );
      assert.deepEqual(
        consumed.map((statement) => statement.Resource),
        [{ 'Fn::GetAtt': [logicalIdOf(stack.queues.get(definition.name)!.deadLetters), 'Arn'] }],
      );
      const variables = Object.keys(
        resources[logicalIdOf(stack.functions.get(definition.deadLetterHandler!)!)]!.Properties.Environment.Variables,
      );
      assert.deepEqual(
        variables.filter((name) => /^(BUCKET_NAME|QUEUE_URL_|QUEUE_ARN_|SECRETS_KEY_ARN|SCHEDULER_)/.test(name)),
        buckets.includes('objects') ? ['BUCKET_NAME'] : [],
        'no setting its access does not name',
      );
    });
  }
});

describe('wildcard acknowledgements', () => {
  const acknowledged = stack.node
    .findAll()
    .flatMap((construct) =>
      construct.node.metadata
        .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .map((entry) => ({ construct, ids: Object.keys(entry.data as object) })),
    )
    .flatMap(({ construct, ids }) => ids.filter((id) => id.includes('AwsSolutions-IAM5')).map((id) => ({ construct, id })));

  it('sit on the roles that hold the wildcard, never on a stack', () => {
    assert.ok(acknowledged.length > 0);
    for (const { construct, id } of acknowledged) assert.ok(construct instanceof iam.Role, `${id} on ${construct.node.path}`);
  });

  it("hold Resource::* only for the actions that take no resource: X-Ray's, and the relay's ListStreams", () => {
    const relayRole = resources[logicalIdOf(stack.functions.get(EVENT_RELAY.handler)!)]!.Properties.Role['Fn::GetAtt'][0];
    for (const [, policy] of ofType('AWS::IAM::Policy')) {
      const relays = policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === relayRole);
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        if (![statement.Resource].flat().includes('*')) continue;
        assert.ok(
          actionsOf(statement).every((action) => action.startsWith('xray:') || (relays && action === 'dynamodb:ListStreams')),
          JSON.stringify(statement),
        );
      }
    }
  });
});
