import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { queueList } from '../../shared/queues';
import { INVENTORY_FILES_PREFIX, INVENTORY_UPLOADS_PREFIX } from '../../shared/partner-inventories';
import { JOB_RESULTS_PREFIX, RESULTS_RETENTION_DAYS } from '../../shared/mapping-jobs';
import { BOOK_CHANGES_PREFIX, BOOK_EXPORTS_PREFIX, CHANGES_RETENTION_DAYS, EXPORT_KEPT_DAYS } from '../../shared/mapping-book';
import { REFERENCE_FILES_PREFIX, referencePublicationQueue } from '../../shared/reference';
import { objectPrefixes, touchesObjects, type ObjectUse } from '../../shared/platform/access';
import { DEFAULT_ACCOUNT_CONCURRENCY } from '../../infra/observability';
import { routeList } from '../../shared/routes';
import { functionName, tokenKeyUse } from '../../shared/platform/http/route';
import { awsSolutionsFindings, describeViolations } from '../../infra/nag';
import { BACKUP_RETENTION_DAYS } from '../../infra/constructs/data-backup';
import { tokenSignerRoleName } from '../../infra/constructs/route-roles';
import { FIND_MATCH_MAX_INSTANCES } from '../../shared/mapping-jobs/find-match';
import { HotelMappingStack, NONCURRENT_VERSION_DAYS, type HotelMappingStackProps } from '../../infra/stack';
import { LOCAL_PRICE_IDS } from '../../shared/billing';
import { expressionOf, watchesQueue } from './constructs/bare-stack';
import { app, functionsTemplate, logicalIdOf, ofType, resources, stack, template, workersTemplate } from './stack-fixture';

/** Full API path of each API Gateway resource, e.g. /api/v1/suppliers/{supplierId}/connect. */
function resourcePaths(): Map<string, string> {
  const paths = new Map<string, string>();
  const resolve = (id: string): string => {
    const known = paths.get(id);
    if (known) return known;
    const { ParentId, PathPart } = resources[id]!.Properties;
    const parent = ParentId.Ref ? resolve(ParentId.Ref) : '';
    const path = `${parent}/${PathPart}`;
    paths.set(id, path);
    return path;
  };
  for (const [id] of ofType('AWS::ApiGateway::Resource')) resolve(id);
  return paths;
}

/** Every IAM policy statement on a function's role. */
function statementsOf(functionLogicalId: string): { Action: string | string[]; Resource: unknown }[] {
  const roleId = resources[functionLogicalId]!.Properties.Role['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
}

/** Every IAM action granted to a function's role. */
function actionsOf(functionLogicalId: string): string[] {
  return statementsOf(functionLogicalId).flatMap((statement) => [statement.Action].flat());
}

/** Logical ids of the secrets a function may read. */
function secretsReadBy(functionLogicalId: string): string[] {
  return statementsOf(functionLogicalId)
    .filter((statement) => [statement.Action].flat().includes('secretsmanager:GetSecretValue'))
    .flatMap((statement) => [statement.Resource].flat() as { Ref?: string }[])
    .map((resource) => resource.Ref ?? JSON.stringify(resource))
    .sort();
}

const secretIds = Object.fromEntries(ofType('AWS::SecretsManager::Secret').map(([id]) => [id.replace(/[0-9A-F]{8}$/, ''), id]));
const stripeApiKeyId = secretIds.StripeSecretsApiKey!;
const stripeWebhookId = secretIds.StripeSecretsWebhook!;

describe('API Gateway and functions from the route table', () => {
  const paths = resourcePaths();
  const methods = ofType('AWS::ApiGateway::Method');

  it('has one function per route, on nodejs22.x / arm64, described by its route', () => {
    const functions = ofType('AWS::Lambda::Function').filter(([, f]) => f.Properties.Runtime === 'nodejs22.x');
    const workers = queueList.flatMap((queue) => [queue.handler, ...(queue.deadLetterHandler ? [queue.deadLetterHandler] : [])]);
    // And the outbox relay (event-relay-stack.test.ts).
    assert.equal(functions.length, routeList.length + workers.length + 1);
    for (const route of routeList) {
      const fn = stack.functions.get(route.handler);
      assert.ok(fn, `${route.handler} has a function`);
      const properties = resources[logicalIdOf(fn)]!.Properties;
      assert.equal(properties.Description, `${route.method} ${route.path}`);
      assert.deepEqual(properties.Architectures, ['arm64']);
      assert.equal(properties.Handler, 'index.handler');
      assert.ok(logicalIdOf(fn).startsWith(functionName(route)));
    }
  });

  it('routes every method of the table to its own function', () => {
    for (const route of routeList) {
      const functionId = logicalIdOf(stack.functions.get(route.handler)!);
      const method = methods.find(([, m]) => {
        const path = m.Properties.ResourceId.Ref ? paths.get(m.Properties.ResourceId.Ref) : '/';
        return path === route.path && m.Properties.HttpMethod === route.method;
      });
      assert.ok(method, `${route.method} ${route.path} exists`);
      const [, { Properties }] = method;
      assert.equal(Properties.Integration.Type, 'AWS_PROXY');
      assert.ok(JSON.stringify(Properties.Integration.Uri).includes(`"${functionId}","Arn"`), `${route.path} reaches ${functionId}`);
    }
  });

  it('answers 405 {error, message} for other methods on every routed path', () => {
    for (const path of new Set(routeList.map((r) => r.path))) {
      const any = methods.find(([, m]) => m.Properties.HttpMethod === 'ANY' && paths.get(m.Properties.ResourceId.Ref) === path);
      assert.ok(any, `${path} has an ANY method`);
      const response = any[1].Properties.Integration.IntegrationResponses[0];
      assert.equal(response.StatusCode, '405');
      assert.deepEqual(Object.keys(JSON.parse(response.ResponseTemplates['application/json'])).sort(), ['error', 'message']);
    }
  });

  it('passes multipart bodies to functions as binary', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      BinaryMediaTypes: Match.arrayWith(['multipart/form-data']),
    });
  });
});

describe('function sizing', () => {
  it('gives each function the memory and timeout its route asks for', () => {
    for (const route of routeList) {
      const properties = resources[logicalIdOf(stack.functions.get(route.handler)!)]!.Properties;
      assert.equal(properties.MemorySize, route.lambda?.memoryMb ?? 256, route.handler);
      assert.equal(properties.Timeout, route.lambda?.timeoutSeconds ?? 10, route.handler);
      assert.equal(properties.ReservedConcurrentExecutions, route.lambda?.reservedConcurrency, route.handler);
    }
  });

  it('reserves concurrency for what must answer when the account is busy (the token exchange, the Stripe webhook) and bounds find-match, leaving the account 100 unreserved', () => {
    const reserved = ofType('AWS::Lambda::Function')
      .filter(([, fn]) => fn.Properties.ReservedConcurrentExecutions !== undefined)
      .map(([, fn]) => [fn.Properties.Description, fn.Properties.ReservedConcurrentExecutions] as const);
    assert.deepEqual(Object.fromEntries(reserved), {
      'POST /api/v1/auth/token': 10,
      'POST /api/v1/billing/stripe/webhook': 5,
      'POST /api/v1/mapping/match': FIND_MATCH_MAX_INSTANCES,
    });
    const total = reserved.reduce((sum, [, count]) => sum + (count as number), 0);
    // Lambda keeps 100 of the account's concurrency unreserved: the default 1,000 leaves room.
    assert.ok(total <= DEFAULT_ACCOUNT_CONCURRENCY - 100);
  });

  it('sizes the in-memory search functions for a 1,000,000-hotel index, read-only', () => {
    for (const handler of ['reference/search', 'reference/search-advanced']) {
      const route = routeList.find((r) => r.handler === handler)!;
      const properties = resources[logicalIdOf(stack.functions.get(handler)!)]!.Properties;
      assert.ok(properties.MemorySize >= 1536, `${handler} has room for the index`);
      assert.deepEqual(route.access, { table: 'read', objects: { read: [REFERENCE_FILES_PREFIX] } });
    }
  });
});

describe('storage', () => {
  it('has one on-demand, encrypted table with PITR, TTL and GSI1', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      KeySchema: [
        { AttributeName: 'PK', KeyType: 'HASH' },
        { AttributeName: 'SK', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [Match.objectLike({ IndexName: 'GSI1' })],
    });
  });

  it("keeps the access-log bucket free of ACLs: S3's logging service writes there through its policy, for the files and results buckets alone", () => {
    const logging = (bucket: { node: { defaultChild?: unknown } }) => resources[logicalIdOf(bucket)]!.Properties.LoggingConfiguration;
    const accessLogsId = logging(stack.bucket).DestinationBucketName.Ref as string;
    assert.equal(logging(stack.resultsBucket).DestinationBucketName.Ref, accessLogsId);
    const { Properties } = resources[accessLogsId]!;
    assert.deepEqual(Properties.OwnershipControls, { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    assert.equal(Properties.AccessControl, undefined);
    const [, policy] = ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === accessLogsId)!;
    const deliveries = (policy.Properties.PolicyDocument.Statement as any[]).filter(
      (s) => s.Principal?.Service === 'logging.s3.amazonaws.com',
    );
    const arnOf = (bucket: { node: { defaultChild?: unknown } }) => ({ 'Fn::GetAtt': [logicalIdOf(bucket), 'Arn'] });
    assert.deepEqual(
      deliveries.map((s) => [s.Effect, s.Action, s.Resource['Fn::Join'][1][1], s.Condition]),
      [stack.bucket, stack.resultsBucket].map((bucket, index) => [
        'Allow',
        's3:PutObject',
        `/${['files', 'results'][index]}/*`,
        { ArnLike: { 'aws:SourceArn': arnOf(bucket) }, StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      ]),
    );
  });

  it('keeps the files bucket private, encrypted and TLS-only', () => {
    const filesId = logicalIdOf(stack.bucket);
    const { Properties } = resources[filesId]!;
    assert.deepEqual(Properties.PublicAccessBlockConfiguration, {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    assert.equal(Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm, 'AES256');
    const policy = ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === filesId);
    assert.ok(policy);
    assert.ok(
      policy[1].Properties.PolicyDocument.Statement.some(
        (s: any) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false',
      ),
    );
  });
});

/** A regional web ACL the platform team runs, as a production stage must name one. */
const PLATFORM_WEB_ACL = 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/platform/a1b2c3d4-5678-90ab-cdef-111122223333';
/** A stage's own Stripe ids, as a production stage must have. */
const STAGE_PRICE_IDS = {
  SUBSCRIPTION: 'price_sub_prod',
  ENTERPRISE: 'price_ent_prod',
  creditsProduct: 'prod_credits',
  creditsPrice: 'price_credits_prod',
};
/** A backup vault in another region, for the daily copy. */
const COPY_VAULT_ARN = 'arn:aws:backup:eu-central-1:123456789012:backup-vault:hotel-mapping-dr';

describe('production is declared, never guessed from the stage name', () => {
  const stackOf = (id: string, stage: string, context: Record<string, unknown>, props: Partial<HotelMappingStackProps> = {}) =>
    new HotelMappingStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), id, { stage, ...props });
  const guarded = { alarmEmail: 'ops@example.com', webAcl: PLATFORM_WEB_ACL, retainData: false, priceIds: STAGE_PRICE_IDS };

  it('refuses to synthesize a stage named like production (prod, Prod, production, prod-eu) until -c production says true or false', () => {
    for (const stage of ['prod', 'Prod', 'PRODUCTION', 'prod-eu']) {
      assert.throws(
        () => stackOf(`Unsaid${stage}`, stage, {}),
        new RegExp(
          `The stage "${stage}" is named like production: say whether it is one with -c production=true .* or -c production=false`,
        ),
        stage,
      );
    }
    assert.throws(() => stackOf('Garbled', 'test', { production: 'yes' }), /production must be true or false, not "yes"/);
    assert.equal(stack.production, false, 'other names default to no production');
  });

  it("guards a stage declared production whatever its name: alarms told, a web ACL, retainData said, and the stage's own Stripe ids", () => {
    const live = (id: string, props: Partial<HotelMappingStackProps>) => () =>
      stackOf(id, 'live', { production: 'true' }, { ...guarded, ...props });
    assert.throws(
      live('Unwatched', { alarmEmail: undefined }),
      /The production stage "live" needs someone to receive its alarms: deploy it with -c alarmEmail=/,
    );
    assert.throws(
      live('Unguarded', { webAcl: undefined }),
      /The production stage "live" needs a web ACL in front of its API: deploy it with -c webAcl=stack/,
    );
    assert.throws(
      live('Unsaid', { retainData: undefined }),
      /The production stage "live" must say whether it keeps its data .* -c retainData=true/,
    );
    assert.equal(live('Live', {})().production, true);
  });

  it('lets a stage named like production go unguarded when -c production=false says it serves no partners', () => {
    const copy = stackOf('ProdCopy', 'Prod', { production: 'false' });
    assert.equal(copy.production, false);
    assert.equal(copy.edgeProtection, undefined);
    assert.equal(copy.terminationProtection, false);
  });

  it("refuses a production stage whose Stripe ids are the local placeholders, saying where the stage's own go, and takes them from cdk.json's context", () => {
    const placeholders =
      /The production stage "live" has no real Stripe id for SUBSCRIPTION, ENTERPRISE, creditsProduct, creditsPrice: put the stage's ids in cdk.json's context, "stripePriceIds": \{"live": \{"SUBSCRIPTION": "price_…"/;
    assert.throws(() => stackOf('Placeholders', 'live', { production: 'true' }, { ...guarded, priceIds: undefined }), placeholders);
    assert.throws(
      () =>
        stackOf(
          'OnePlaceholder',
          'live',
          { production: true },
          { ...guarded, priceIds: { ...STAGE_PRICE_IDS, creditsPrice: LOCAL_PRICE_IDS.creditsPrice } },
        ),
      /no real Stripe id for creditsPrice:/,
    );
    const fromContext = stackOf(
      'Priced',
      'live',
      { production: 'true', stripePriceIds: { live: STAGE_PRICE_IDS } },
      { ...guarded, priceIds: undefined },
    );
    const checkout = Template.fromStack(fromContext.routeFunctions).toJSON().Resources[
      fromContext.routeFunctions.getLogicalId(fromContext.functions.get('billing/checkout')!.node.defaultChild as never)
    ];
    assert.equal(checkout.Properties.Environment.Variables.STRIPE_PRICE_SUBSCRIPTION, STAGE_PRICE_IDS.SUBSCRIPTION);
  });
});

describe('production data survives a mistake', () => {
  const stackOf = (id: string, stage: string, context: Record<string, unknown>) =>
    new HotelMappingStack(new App({ context: { 'aws:cdk:bundling-stacks': [], production: 'true', ...context } }), id, {
      stage,
      alarmEmail: 'ops@example.com',
      webAcl: PLATFORM_WEB_ACL,
      priceIds: STAGE_PRICE_IDS,
    });
  const kept = stackOf('Kept', 'prod', { retainData: 'true', backupCopyVaultArn: COPY_VAULT_ARN });
  const keptResources = Template.fromStack(kept).toJSON().Resources as Record<
    string,
    { Type: string; Properties: any; DeletionPolicy?: string; UpdateReplacePolicy?: string }
  >;
  const keptOfType = (type: string) => Object.entries(keptResources).filter(([, r]) => r.Type === type);
  const idIn = (construct: { node: { defaultChild?: unknown } }) => kept.getLogicalId(construct.node.defaultChild as never);

  it('refuses to synthesize a production stage unless -c retainData says true or false, and takes it from context for any stage', () => {
    assert.throws(
      () => stackOf('Unsaid', 'prod', {}),
      /The production stage "prod" must say whether it keeps its data .* -c retainData=true/,
    );
    assert.throws(() => stackOf('Garbled', 'test', { retainData: 'yes' }), /retainData must be true or false, not "yes"/);
    assert.equal(stackOf('Disposable', 'prod', { retainData: 'false' }).terminationProtection, false);
    assert.equal(stackOf('Retained', 'live', { retainData: true }).terminationProtection, true, 'a stage of any name may retain');
    assert.equal(stack.terminationProtection, false, 'other stages default to disposable');
  });

  it('keeps the table, the three buckets (files, results, access logs), the partner secrets key and every secret when the stack goes, protects the table from deletion and the stack from termination', () => {
    assert.equal(kept.terminationProtection, true);
    assert.equal(keptResources[idIn(kept.table)]!.Properties.DeletionProtectionEnabled, true);
    const retained = [kept.table, kept.bucket, kept.secretsKey].map(idIn);
    const buckets = keptOfType('AWS::S3::Bucket').map(([id]) => id);
    const secrets = keptOfType('AWS::SecretsManager::Secret').map(([id]) => id);
    assert.equal(buckets.length, 3);
    assert.ok(secrets.length > 0);
    for (const id of [...retained, ...buckets, ...secrets]) {
      assert.equal(keptResources[id]!.DeletionPolicy, 'Retain', id);
      assert.equal(keptResources[id]!.UpdateReplacePolicy, 'Retain', id);
    }
    assert.deepEqual(keptOfType('Custom::S3AutoDeleteObjects'), [], 'no object is emptied out of a kept bucket');
  });

  it(`versions the files bucket: previous versions kept ${NONCURRENT_VERSION_DAYS} days, but retired indexes gone a day later; not the results bucket`, () => {
    const files = keptResources[idIn(kept.bucket)]!.Properties;
    assert.deepEqual(files.VersioningConfiguration, { Status: 'Enabled' });
    const rules = Object.fromEntries((files.LifecycleConfiguration.Rules as { Id: string }[]).map((rule) => [rule.Id, rule])) as Record<
      string,
      any
    >;
    assert.deepEqual(rules.ExpireNoncurrentVersions, {
      Id: 'ExpireNoncurrentVersions',
      NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS },
      ExpiredObjectDeleteMarker: true,
      Status: 'Enabled',
    });
    assert.deepEqual(rules.ExpireTagged.NoncurrentVersionExpiration, { NoncurrentDays: 1 });
    // Results live a month at most: neither versioned nor backed up.
    assert.equal(keptResources[idIn(kept.resultsBucket)]!.Properties.VersioningConfiguration, undefined);
  });

  it(`backs up the table and the files bucket daily, kept ${BACKUP_RETENTION_DAYS} days, and not the results bucket`, () => {
    assert.ok(kept.dataBackup);
    const [plan] = keptOfType('AWS::Backup::BackupPlan').map(([, resource]) => resource);
    const [rule] = plan!.Properties.BackupPlan.BackupPlanRule;
    assert.deepEqual(rule.Lifecycle, { DeleteAfterDays: BACKUP_RETENTION_DAYS });
    const [selection] = keptOfType('AWS::Backup::BackupSelection').map(([, resource]) => resource);
    assert.deepEqual(selection!.Properties.BackupSelection.Resources, [
      { 'Fn::GetAtt': [idIn(kept.table), 'Arn'] },
      { 'Fn::GetAtt': [idIn(kept.bucket), 'Arn'] },
    ]);
    const { errors, warnings } = awsSolutionsFindings(kept);
    assert.equal(errors.length, 0, describeViolations(errors));
    assert.equal(warnings.length, 0, describeViolations(warnings));
  });

  it('keeps the backups under a key of their own, copies each to the vault -c backupCopyVaultArn names, and tells the alarm topic of every failed backup or copy', () => {
    const vault = keptResources[idIn(kept.dataBackup!.vault)]!;
    assert.deepEqual(vault.Properties.EncryptionKeyArn, { 'Fn::GetAtt': [idIn(kept.dataBackup!.vaultKey), 'Arn'] });
    const [plan] = keptOfType('AWS::Backup::BackupPlan').map(([, resource]) => resource);
    assert.deepEqual(plan!.Properties.BackupPlan.BackupPlanRule[0].CopyActions, [
      { DestinationBackupVaultArn: COPY_VAULT_ARN, Lifecycle: { DeleteAfterDays: BACKUP_RETENTION_DAYS } },
    ]);
    const [rule] = keptOfType('AWS::Events::Rule').filter(([, r]) => r.Properties.EventPattern?.source?.[0] === 'aws.backup');
    assert.deepEqual(
      rule![1].Properties.Targets.map((target: { Arn: unknown }) => target.Arn),
      [{ Ref: idIn(kept.alarmTopic) }],
    );
    assert.throws(
      () => stackOf('CopiedDisposable', 'prod', { retainData: 'false', backupCopyVaultArn: COPY_VAULT_ARN }),
      /backupCopyVaultArn copies the backups of a stage that keeps its data: deploy it with -c retainData=true/,
    );
  });

  it('lets a disposable stage go whole: nothing retained or protected, no versions, no backup', () => {
    assert.equal(resources[logicalIdOf(stack.table)]!.Properties.DeletionProtectionEnabled, false);
    assert.equal(resources[logicalIdOf(stack.bucket)]!.Properties.VersioningConfiguration, undefined);
    assert.equal(stack.dataBackup, undefined);
    assert.deepEqual(ofType('AWS::Backup::BackupPlan'), []);
    assert.deepEqual(
      ofType('AWS::Events::Rule').filter(([, r]) => JSON.stringify(r.Properties.EventPattern ?? {}).includes('aws.backup')),
      [],
      'no backup, no backup alarm',
    );
    const stateful = [stack.table, stack.bucket, stack.resultsBucket, stack.secretsKey].map(logicalIdOf);
    const secrets = ofType('AWS::SecretsManager::Secret').map(([id]) => id);
    const parent = template.toJSON().Resources as Record<string, { DeletionPolicy?: string }>;
    for (const id of [...stateful, ...secrets]) assert.equal(parent[id]!.DeletionPolicy, 'Delete', id);
    assert.equal(ofType('Custom::S3AutoDeleteObjects').length, 3, 'the files, results and access-log buckets are emptied so they can go');
  });
});

describe('least privilege per function', () => {
  const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

  for (const route of routeList) {
    it(`${route.method} ${route.path} gets exactly what it declares`, () => {
      const actions = actionsOf(logicalIdOf(stack.functions.get(route.handler)!));
      const dynamo = actions.filter((a) => a.startsWith('dynamodb:'));
      const s3 = actions.filter((a) => a.startsWith('s3:'));
      const secrets = actions.filter((a) => a.startsWith('secretsmanager:'));
      if (route.access.table === 'none') assert.deepEqual(dynamo, []);
      if (route.access.table === 'read') {
        assert.ok(dynamo.includes('dynamodb:GetItem') && dynamo.includes('dynamodb:Query'));
        assert.deepEqual(
          dynamo.filter((a) => WRITES.includes(a)),
          [],
        );
      }
      // A public writer's uses are narrower (grants.test.ts, public functions).
      if (route.access.table === 'readwrite' && !route.access.tableUses) assert.ok(WRITES.every((a) => dynamo.includes(a)));
      assert.ok(!dynamo.includes('dynamodb:Scan'), 'nothing scans the table');
      assert.ok(
        !dynamo.some((a) => a === 'dynamodb:DescribeTable' || a.startsWith('dynamodb:GetRecords') || a === 'dynamodb:GetShardIterator'),
        "the stream is the relay's",
      );
      // Each use of objects it declares, and no other (the prefixes: grants.test.ts).
      const declared = (use: ObjectUse) =>
        objectPrefixes(route.access, use).length + objectPrefixes(route.access, use, 'resultObjects').length > 0;
      assert.equal(s3.includes('s3:GetObject'), declared('read'), `${route.handler} reads objects`);
      assert.equal(s3.includes('s3:PutObject'), declared('write'), `${route.handler} writes objects`);
      assert.equal(s3.includes('s3:DeleteObject'), declared('delete'), `${route.handler} deletes objects`);
      // Only the secrets the route needs: Stripe's API key for the billing functions that charge,
      // the webhook's signing secret and read-only key for the public webhook, nothing for the rest.
      const expected =
        route.access.providerKeys === 'api' ? [stripeApiKeyId] : route.access.providerKeys === 'events' ? [stripeWebhookId] : [];
      assert.deepEqual(secretsReadBy(logicalIdOf(stack.functions.get(route.handler)!)), expected);
      assert.equal(secrets.length > 0, expected.length > 0);
      assert.ok(!actions.some((a) => a === '*' || a.endsWith(':*')), 'no service-wide wildcard');
    });
  }
});

describe('the bearer-token key', () => {
  const tokenKeyId = logicalIdOf(stack.tokenSigningKey);
  const tokenKeyArn = { 'Fn::GetAtt': [tokenKeyId, 'Arn'] };
  const tokenFunction = logicalIdOf(stack.functions.get('api-keys/token')!);
  /** Every role of every stack, and the KMS actions it holds on the token key. */
  const tokenKeyActionsByRole = new Map<string, string[]>();
  for (const [, policy] of ofType('AWS::IAM::Policy')) {
    for (const statement of policy.Properties.PolicyDocument.Statement) {
      if (!JSON.stringify(statement.Resource).includes(`"${tokenKeyId}"`)) continue;
      for (const role of policy.Properties.Roles as { Ref: string }[]) {
        tokenKeyActionsByRole.set(role.Ref, [...(tokenKeyActionsByRole.get(role.Ref) ?? []), ...[statement.Action].flat()]);
      }
    }
  }
  const roleOf = (functionId: string): string => resources[functionId]!.Properties.Role['Fn::GetAtt'][0];

  it('is an asymmetric P-256 signing key, and no token secret is left in Secrets Manager', () => {
    const key = resources[tokenKeyId]!.Properties;
    assert.equal(key.KeySpec, 'ECC_NIST_P256');
    assert.equal(key.KeyUsage, 'SIGN_VERIFY');
    assert.deepEqual(Object.values(secretIds).sort(), [stripeApiKeyId, stripeWebhookId].sort());
    assert.ok(
      !ofType('AWS::Lambda::Function').some(([, fn]) => JSON.stringify(fn.Properties.Environment ?? {}).includes('TOKEN_SIGNING_SECRET')),
    );
  });

  it("may be signed with by the token function's role alone", () => {
    const signers = [...tokenKeyActionsByRole].filter(([, actions]) => actions.some((a) => a === 'kms:Sign' || a === 'kms:*' || a === '*'));
    assert.deepEqual(
      signers.map(([role]) => role),
      [roleOf(tokenFunction)],
    );
    assert.deepEqual(tokenKeyActionsByRole.get(roleOf(tokenFunction)), ['kms:Sign']);
    // Its role is its own: no other function runs with the power to sign.
    const sharing = ofType('AWS::Lambda::Function').filter(
      ([id, fn]) => id !== tokenFunction && fn.Properties.Role?.['Fn::GetAtt']?.[0] === roleOf(tokenFunction),
    );
    assert.deepEqual(sharing, []);
  });

  it('gives every credentialed route its public half only (kms:GetPublicKey), and nothing to the others', () => {
    for (const route of routeList) {
      const fn = logicalIdOf(stack.functions.get(route.handler)!);
      const expected = { sign: ['kms:Sign'], verify: ['kms:GetPublicKey'], none: undefined }[tokenKeyUse(route)];
      assert.deepEqual(tokenKeyActionsByRole.get(roleOf(fn)), expected, route.handler);
      if (route.auth !== 'none') assert.equal(tokenKeyUse(route), 'verify', `${route.handler} verifies and holds no signing power`);
    }
    for (const handler of [...stack.functions.keys()].filter((handler) => !routeList.some((route) => route.handler === handler))) {
      assert.equal(tokenKeyActionsByRole.get(roleOf(logicalIdOf(stack.functions.get(handler)!))), undefined, handler);
    }
    assert.ok(routeList.filter((route) => tokenKeyUse(route) === 'verify').length > 40, 'the verifiers are the credentialed routes');
  });

  it("lets no one but the token function's role sign, whatever IAM allows: its key policy denies kms:Sign to every other principal", () => {
    /** A value written at synth time, its pseudo parameters shown as <AWS::Region> and the like. */
    const written = (value: string | { 'Fn::Join': [string, (string | { Ref: string })[]] }) =>
      typeof value === 'string'
        ? value
        : value['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : `<${part.Ref}>`)).join(value['Fn::Join'][0]);
    const statements = resources[tokenKeyId]!.Properties.KeyPolicy.Statement as {
      Effect: string;
      Principal: unknown;
      Action: unknown;
      Condition?: any;
    }[];
    const denials = statements.filter((statement) => statement.Effect === 'Deny');
    assert.equal(denials.length, 1);
    const [denial] = denials;
    assert.deepEqual([denial!.Principal, denial!.Action], [{ AWS: '*' }, 'kms:Sign']);
    const signer = resources[roleOf(tokenFunction)]!.Properties.RoleName;
    assert.equal(written(signer), 'hotel-mapping-test-token-signer-<AWS::Region>');
    assert.equal(
      written(denial!.Condition.ArnNotEquals['aws:PrincipalArn']),
      `arn:<AWS::Partition>:iam::<AWS::AccountId>:role/${written(signer)}`,
    );
    // The account's default statement stays: it is what lets the verifiers' IAM grants reach kms:GetPublicKey.
    assert.ok(statements.some((statement) => statement.Effect === 'Allow' && statement.Action === 'kms:*'));
    assert.throws(
      () => tokenSignerRoleName('a'.repeat(23)),
      /The stage name "a{23}" must be at most 22 letters, digits or -_\+=,\.@ characters/,
    );
  });

  it('lets every verifier reach the key: its ARN in the settings of each function that signs or verifies', () => {
    for (const route of routeList.filter((r) => tokenKeyUse(r) !== 'none')) {
      const variables = resources[logicalIdOf(stack.functions.get(route.handler)!)]!.Properties.Environment.Variables;
      assert.deepEqual(variables.TOKEN_SIGNING_KEY_ARN, tokenKeyArn, route.handler);
    }
  });
});

describe('cdk-nag', () => {
  it('AwsSolutions reports no unacknowledged error, and no unacknowledged warning either', () => {
    const { errors, warnings } = awsSolutionsFindings(app);
    assert.equal(errors.length, 0, describeViolations(errors));
    assert.equal(warnings.length, 0, describeViolations(warnings));
  });

  it('every acknowledgement carries a reason', () => {
    const acknowledgements = stack.node
      .findAll()
      .flatMap((c) => c.node.metadata)
      .filter((m) => m.type === 'aws:cdk:acknowledged-rules')
      .flatMap((m) => Object.values(m.data as Record<string, string>));
    assert.ok(acknowledgements.length > 0);
    for (const reason of acknowledgements) assert.ok(reason.length > 15, `reason: ${reason}`);
  });
});

describe('find-match kept warm', () => {
  const warmStack = (id: string, context: Record<string, unknown>) =>
    new HotelMappingStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), id, { stage: 'test' });

  it('gives the find-match function an alias with the provisioned instances asked for, which the API calls; none by default', () => {
    const warm = warmStack('Warm', { findMatchInstances: '3' });
    const functions = Template.fromStack(warm.routeFunctions);
    const findMatchId = warm.routeFunctions.getLogicalId(warm.functions.get('mapping-jobs/find-match')!.node.defaultChild as never);
    const aliases = Object.entries(functions.findResources('AWS::Lambda::Alias'));
    assert.equal(aliases.length, 1);
    const [aliasId, alias] = aliases[0]!;
    assert.deepEqual(alias.Properties.FunctionName, { Ref: findMatchId });
    assert.equal(alias.Properties.Name, 'live');
    assert.deepEqual(alias.Properties.ProvisionedConcurrencyConfig, { ProvisionedConcurrentExecutions: 3 });
    // The gateway's method calls the alias, and may invoke it: the nested stack's output of the alias, not of the function.
    const main = Template.fromStack(warm);
    const matchPost = (type: string) =>
      Object.values(main.findResources(type)).filter(
        (resource) =>
          JSON.stringify(resource).includes('/POST/api/v1/mapping/match') ||
          (resource.Properties.HttpMethod === 'POST' && JSON.stringify(resource).includes('FindMatch')),
      );
    const [method] = matchPost('AWS::ApiGateway::Method');
    const [permission] = matchPost('AWS::Lambda::Permission');
    const outputOf = (value: unknown) => /"Outputs\.([A-Za-z0-9]+)"/.exec(JSON.stringify(value))?.[1];
    const output = outputOf(method!.Properties.Integration.Uri);
    assert.deepEqual(functions.toJSON().Outputs[output!].Value, { Ref: aliasId });
    assert.equal(outputOf(permission!.Properties.FunctionName), output);

    assert.deepEqual(functionsTemplate.findResources('AWS::Lambda::Alias'), {}, 'none kept warm by default');
    assert.throws(
      () => warmStack('Garbled', { findMatchInstances: 'two' }),
      /findMatchInstances must be a whole number of instances from 0 \(none\) to 20 \(the most find-match may run at once\), not "two"/,
    );
    assert.throws(() => warmStack('TooWarm', { findMatchInstances: '21' }), /from 0 \(none\) to 20/);
  });
});

describe('billing configuration', () => {
  it("gives every function the payment secret's ARN and the stage's Stripe price ids, but only billing functions its read grant", () => {
    const priced = new HotelMappingStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Priced', {
      stage: 'prod',
      production: true,
      alarmEmail: 'ops@example.com',
      retainData: false,
      webAcl: PLATFORM_WEB_ACL,
      priceIds: {
        SUBSCRIPTION: 'price_sub_prod',
        ENTERPRISE: 'price_ent_prod',
        creditsProduct: 'prod_credits',
        creditsPrice: 'price_credits_prod',
      },
    });
    const fn = Template.fromStack(priced.routeFunctions).toJSON().Resources[
      priced.routeFunctions.getLogicalId(priced.functions.get('billing/checkout')!.node.defaultChild as never)
    ];
    const variables = fn.Properties.Environment.Variables;
    assert.equal(variables.STRIPE_PRICE_SUBSCRIPTION, 'price_sub_prod');
    assert.equal(variables.STRIPE_PRICE_ENTERPRISE, 'price_ent_prod');
    assert.equal(variables.STRIPE_PRODUCT_CREDITS, 'prod_credits');
    assert.equal(variables.STRIPE_PRICE_CREDITS, 'price_credits_prod');
    assert.match(JSON.stringify(variables.STRIPE_API_KEY_SECRET_ARN), /StripeSecretsApiKey/);
    const holding = (keys: 'api' | 'events') =>
      routeList
        .filter((r) => r.access.providerKeys === keys)
        .map((r) => r.handler)
        .sort();
    assert.deepEqual(holding('api'), ['billing/checkout', 'billing/credits-purchase', 'billing/portal', 'billing/subscription']);
    assert.deepEqual(holding('events'), ['billing/stripe-webhook'], 'the public webhook never holds the API key');
  });
});

describe('lean functions', () => {
  it('gives each function only the settings its route declares', () => {
    for (const route of routeList) {
      const variables = resources[logicalIdOf(stack.functions.get(route.handler)!)]!.Properties.Environment.Variables as Record<
        string,
        unknown
      >;
      const has = (name: string) => name in variables;
      assert.equal(has('TABLE_NAME'), route.access.table !== 'none', `${route.handler} TABLE_NAME`);
      assert.equal(has('BUCKET_NAME'), touchesObjects(route.access), `${route.handler} BUCKET_NAME`);
      assert.equal(has('RESULTS_BUCKET_NAME'), touchesObjects(route.access, 'resultObjects'), `${route.handler} RESULTS_BUCKET_NAME`);
      assert.equal(has('TOKEN_SIGNING_KEY_ARN'), tokenKeyUse(route) !== 'none', `${route.handler} TOKEN_SIGNING_KEY_ARN`);
      assert.equal(has('STRIPE_API_KEY_SECRET_ARN'), route.access.providerKeys === 'api', `${route.handler} STRIPE_API_KEY_SECRET_ARN`);
      assert.equal(has('STRIPE_WEBHOOK_SECRET_ARN'), route.access.providerKeys === 'events', `${route.handler} STRIPE_WEBHOOK_SECRET_ARN`);
      const priced = route.access.providerKeys !== undefined || route.access.providerIds === true;
      assert.equal(has('STRIPE_PRICE_SUBSCRIPTION'), priced, `${route.handler} price ids`);
      assert.equal(variables.STAGE, 'test');
    }
  });
});

describe('queues and workers from the queue table', () => {
  const queues = ofType('AWS::SQS::Queue');
  const mappings = ofType('AWS::Lambda::EventSourceMapping');
  const idOf = (construct: { node: { defaultChild?: unknown } }) => logicalIdOf(construct);
  const functionProperties = (handler: string) => resources[logicalIdOf(stack.functions.get(handler)!)]!.Properties;

  it('gives every queue a dead-letter queue, its maxReceiveCount, and a visibility timeout six times the worker timeout', () => {
    // And a holding queue per dead-letter handler, and the outbox relay's failure queue (event-relay-stack.test.ts).
    assert.equal(queues.length, queueList.length * 2 + queueList.filter((queue) => queue.deadLetterHandler).length + 1);
    for (const definition of queueList) {
      const { queue, deadLetters } = stack.queues.get(definition.name)!;
      const properties = resources[idOf(queue)]!.Properties;
      assert.deepEqual(properties.RedrivePolicy, {
        deadLetterTargetArn: { 'Fn::GetAtt': [idOf(deadLetters), 'Arn'] },
        maxReceiveCount: definition.maxReceiveCount,
      });
      assert.equal(properties.VisibilityTimeout, definition.lambda.timeoutSeconds * 6);
      assert.ok(properties.VisibilityTimeout > functionProperties(definition.handler).Timeout);
      assert.equal(properties.SqsManagedSseEnabled, true);
      assert.equal(resources[idOf(deadLetters)]!.Properties.MessageRetentionPeriod, 14 * 24 * 3600);
    }
  });

  it('feeds each queue to its worker with partial batch failure reporting, and dead letters to their handler', () => {
    for (const definition of queueList) {
      const { queue, deadLetters } = stack.queues.get(definition.name)!;
      const feeding = (source: { node: { defaultChild?: unknown } }, handler: string) =>
        mappings.filter(
          ([, mapping]) =>
            mapping.Properties.EventSourceArn['Fn::GetAtt'][0] === idOf(source) &&
            mapping.Properties.FunctionName.Ref === logicalIdOf(stack.functions.get(handler)!),
        );
      const [worker] = feeding(queue, definition.handler);
      assert.ok(worker, `${definition.name} feeds ${definition.handler}`);
      assert.equal(worker[1].Properties.BatchSize, definition.batchSize);
      assert.deepEqual(worker[1].Properties.FunctionResponseTypes, ['ReportBatchItemFailures']);
      const properties = functionProperties(definition.handler);
      assert.equal(properties.MemorySize, definition.lambda.memoryMb);
      assert.equal(properties.Timeout, definition.lambda.timeoutSeconds);
      // Every worker is bounded, so no queue can take the account's concurrency from the API; none
      // reserves concurrency, which would throttle its event source's pollers.
      assert.deepEqual(worker[1].Properties.ScalingConfig, { MaximumConcurrency: definition.concurrency.max });
      assert.equal(properties.ReservedConcurrentExecutions, undefined, definition.handler);
      if (definition.deadLetterHandler) {
        const handlers = feeding(deadLetters, definition.deadLetterHandler);
        assert.equal(handlers.length, 1);
        assert.deepEqual(handlers[0]![1].Properties.ScalingConfig, { MaximumConcurrency: 2 });
      }
    }
  });

  it('runs reference publications one at a time through a FIFO queue with one group, never throttled into its dead-letter queue', () => {
    const { queue, deadLetters } = stack.queues.get(referencePublicationQueue.name)!;
    for (const q of [queue, deadLetters]) assert.equal(resources[idOf(q)]!.Properties.FifoQueue, true, q.node.id);
    assert.equal(
      referencePublicationQueue.fifo?.groupOf({ reportId: 'a' }),
      referencePublicationQueue.fifo?.groupOf({ reportId: 'b' }),
      'one group',
    );
    assert.equal(referencePublicationQueue.fifo?.deduplicationIdOf({ reportId: 'r-1' }), 'r-1', 'one request per report');
    assert.equal(functionProperties(referencePublicationQueue.handler).ReservedConcurrentExecutions, undefined);
    const [, mapping] = mappings.find(([, m]) => m.Properties.EventSourceArn['Fn::GetAtt'][0] === idOf(queue))!;
    assert.equal(mapping.Properties.MaximumBatchingWindowInSeconds, undefined);
  });

  it('raises an alarm as soon as a dead-letter queue takes a message, and holds what a dead-letter handler fails to settle', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm');
    for (const definition of queueList) {
      const { deadLetters } = stack.queues.get(definition.name)!;
      const alarm = alarms.find(([, a]) => watchesQueue(a, idOf(deadLetters)));
      assert.ok(alarm, `${definition.name} has an alarm`);
      assert.equal(expressionOf(alarm[1]), 'MAX([FILL(visible, 0), FILL(received, 0)])');
      const redrive = resources[idOf(deadLetters)]!.Properties.RedrivePolicy;
      assert.equal(
        redrive !== undefined,
        definition.deadLetterHandler !== undefined,
        `${definition.name}: a holding queue only for a handled dead-letter queue`,
      );
      assert.equal(alarm[1].Properties.Threshold, 1);
      assert.equal(alarm[1].Properties.ComparisonOperator, 'GreaterThanOrEqualToThreshold');
    }
  });

  it('lets exactly the declared functions send to a queue, and only POST /mapping create schedules', () => {
    const senders = [
      ...routeList.map((route) => ({ handler: route.handler, access: route.access })),
      ...queueList.map((queue) => ({ handler: queue.handler, access: queue.access })),
    ];
    for (const { handler, access } of senders) {
      const variables = functionProperties(handler).Environment.Variables as Record<string, unknown>;
      const queueUrls = Object.keys(variables)
        .filter((name) => name.startsWith('QUEUE_URL_'))
        .sort();
      assert.deepEqual(
        queueUrls,
        (access.sendsTo ?? []).map((name) => `QUEUE_URL_${name.toUpperCase().replace(/-/g, '_')}`).sort(),
        handler,
      );
      const sends = statementsOf(logicalIdOf(stack.functions.get(handler)!)).filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
      assert.equal(sends.length > 0, (access.sendsTo ?? []).length > 0, `${handler} sends only where it declares`);
      const schedules = statementsOf(logicalIdOf(stack.functions.get(handler)!)).some((s) =>
        [s.Action].flat().includes('scheduler:CreateSchedule'),
      );
      assert.equal(schedules, (access.schedules ?? []).length > 0, handler);
    }
    const create = functionProperties('mapping-jobs/create').Environment.Variables;
    assert.ok(create.SCHEDULER_GROUP_NAME && create.SCHEDULER_ROLE_ARN && create.QUEUE_ARN_MAPPING_DEADLINES);
  });

  it("has a schedule group and a role that EventBridge Scheduler assumes, for this account's schedules only, to send to the queues functions schedule to and their dead-letter queues", () => {
    workersTemplate.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    const role = resources[logicalIdOf(stack.schedulerRole)]!;
    const [trust] = role.Properties.AssumeRolePolicyDocument.Statement;
    assert.equal(trust.Principal.Service, 'scheduler.amazonaws.com');
    assert.deepEqual(trust.Condition, { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } });
    const policies = ofType('AWS::IAM::Policy').filter(([, p]) =>
      p.Properties.Roles.some((r: { Ref: string }) => r.Ref === logicalIdOf(stack.schedulerRole)),
    );
    const resourcesSent = policies
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement)
      .map((s: { Resource: unknown }) => JSON.stringify(s.Resource));
    const scheduled = new Set(
      [...routeList.map((route) => route.access), ...queueList.map((queue) => queue.access)].flatMap((access) => access.schedules ?? []),
    );
    assert.deepEqual([...scheduled].sort(), ['file-deliveries', 'mapping-deadlines', 'webhook-deliveries']);
    assert.deepEqual(
      resourcesSent.sort(),
      [...scheduled]
        .flatMap((name) => [stack.queues.get(name)!.queue, stack.queues.get(name)!.deadLetters])
        .map((queue) => JSON.stringify({ 'Fn::GetAtt': [idOf(queue), 'Arn'] }))
        .sort(),
    );
  });

  it("expires retired matching indexes a day after they are tagged, exports after a week, presigned uploads never completed after a day (outside the backups), and jobs' results after their retention", () => {
    type Rule = { Id: string; ExpirationInDays?: number; TagFilters?: unknown; Prefix?: string };
    const rulesOf = (bucket: { node: { defaultChild?: unknown } }) =>
      Object.fromEntries((resources[idOf(bucket)]!.Properties.LifecycleConfiguration.Rules as Rule[]).map((rule) => [rule.Id, rule]));
    const byId = { ...rulesOf(stack.bucket), ...rulesOf(stack.resultsBucket) };
    assert.deepEqual(Object.keys(rulesOf(stack.resultsBucket)).sort(), [
      'AbortIncompleteUploads',
      'ExpireBookChanges',
      'ExpireBookExports',
      'ExpireExports',
      'ExpireJobResults',
      'ExpireTagged',
      'ExpireUploads',
    ]);
    assert.deepEqual(byId.ExpireTagged!.TagFilters, [{ Key: 'expire', Value: '1d' }]);
    assert.equal(byId.ExpireTagged!.ExpirationInDays, 1);
    assert.equal(byId.ExpireExports!.Prefix, 'exports/');
    assert.equal(byId.ExpireExports!.ExpirationInDays, 7);
    assert.equal(byId.ExpireUploads!.Prefix, INVENTORY_UPLOADS_PREFIX);
    assert.equal(byId.ExpireUploads!.ExpirationInDays, 1);
    // S3 counts whole days from a file's creation; a job writes its files within its 6 hours.
    assert.equal(byId.ExpireJobResults!.Prefix, JOB_RESULTS_PREFIX);
    assert.equal(byId.ExpireJobResults!.ExpirationInDays, RESULTS_RETENTION_DAYS + 1);
    assert.equal(byId.ExpireBookChanges!.Prefix, BOOK_CHANGES_PREFIX);
    assert.equal(byId.ExpireBookChanges!.ExpirationInDays, CHANGES_RETENTION_DAYS + 1);
    assert.equal(byId.ExpireBookExports!.Prefix, BOOK_EXPORTS_PREFIX);
    assert.equal(byId.ExpireBookExports!.ExpirationInDays, EXPORT_KEPT_DAYS + 1);
    assert.ok(
      !INVENTORY_FILES_PREFIX.startsWith(INVENTORY_UPLOADS_PREFIX) && !INVENTORY_UPLOADS_PREFIX.startsWith(INVENTORY_FILES_PREFIX),
      'inventories outlive the rule',
    );
  });

  it("keeps each stack well within CloudFormation's 500 resources", () => {
    const count = (t: Template) => Object.keys(t.toJSON().Resources).length;
    assert.ok(count(template) < 400, `${count(template)} resources in the API stack`);
    assert.ok(count(workersTemplate) < 300, `${count(workersTemplate)} resources in the workers stack`);
    assert.ok(count(functionsTemplate) < 400, `${count(functionsTemplate)} resources in the functions stack`);
  });
});
