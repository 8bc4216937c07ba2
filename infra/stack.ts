/**
 * The whole service as one stack: the single table, the private bucket, the token signing key,
 * the REST API with one Lambda function per route of the route table, and for each queue of the
 * queue table an SQS queue, its dead-letter queue, an alarm on it, and the worker functions; the
 * table's stream feeds the outbox relay. The parts are the constructs of infra/constructs/.
 * Environment-agnostic (no account, region or lookups), so `cdk synth` needs no credentials.
 */
import { CfnOutput, Duration, NestedStack, RemovalPolicies, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as cxapi from 'aws-cdk-lib/cx-api';
import type { Construct } from 'constructs';
import { LOCAL_PRICE_IDS, type ProviderPriceIds } from '../shared/billing';
import { EXPORTS_PREFIX } from '../shared/export-format';
import { JOB_RESULTS_PREFIX, mappingJobRoutes, RESULTS_RETENTION_DAYS } from '../shared/mapping-jobs';
import { BOOK_CHANGES_PREFIX, BOOK_EXPORTS_PREFIX, CHANGES_RETENTION_DAYS, EXPORT_KEPT_DAYS } from '../shared/mapping-book';
import { INVENTORY_UPLOADS_PREFIX, UPLOAD_STAGING_DAYS } from '../shared/partner-inventories';
import { EVENT_RELAY } from '../shared/platform/events/relay';
import { EXPIRE_TAG } from '../shared/platform/objects/s3-object-store';
import { TABLE_KEYS } from '../shared/platform/table';
import { queueList, relayedQueues } from '../shared/queues';
import { routeList } from '../shared/routes';
import { backupCopyVaultSetting, DataBackup } from './constructs/data-backup';
import { DeadLetteredQueue } from './constructs/dead-lettered-queue';
import { EventRelay } from './constructs/event-relay';
import { EdgeProtection, STACK_WEB_ACL, webAclSetting } from './constructs/edge-protection';
import { customDomainSetting, HotelMappingApi, type CustomDomain } from './constructs/hotel-mapping-api';
import { QueueWorker } from './constructs/queue-worker';
import { RouteFunction } from './constructs/route-function';
import { RouteRoles, tokenSignerRoleName } from './constructs/route-roles';
import { ServiceResources } from './constructs/service-resources';
import { StripeSecrets } from './constructs/stripe-secrets';
import { acknowledgeAcceptedFindings } from './nag-acknowledgements';
import {
  alarmTopic,
  DEFAULT_ACCOUNT_CONCURRENCY,
  DEFAULT_MONTHLY_BUDGET_USD,
  Observability,
  ROUTES_DRAWN_ONE_BY_ONE,
} from './observability';

/**
 * A stage name that reads as production (prod, Prod, production, prod-eu): such a stage must say
 * whether it is one, so that a spelling of the name never turns the production guards off.
 */
export const PRODUCTION_LIKE_NAME = /^prod/i;

/** How long the files bucket keeps an overwritten or deleted object's previous version. */
export const NONCURRENT_VERSION_DAYS = 30;

/** A true-or-false context setting: `-c name=true` arrives as text, cdk.json may hold a boolean; undefined when not given. */
export function flagSetting(name: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`${name} must be true or false, not ${JSON.stringify(value)}.`);
}

/** Whether the stage serves partners, as said; a stage named like production must say it either way. */
export function productionSetting(stage: string, said: boolean | undefined): boolean {
  if (said !== undefined) return said;
  if (PRODUCTION_LIKE_NAME.test(stage)) {
    throw new Error(
      `The stage "${stage}" is named like production: say whether it is one with -c production=true (it then needs -c alarmEmail, -c webAcl, ` +
        '-c retainData and its Stripe price ids) or -c production=false (a stage that serves no partners).',
    );
  }
  return false;
}

/** A production stage charges real money: each of its Stripe ids must be given, none left at its local placeholder. */
function refusePlaceholderPriceIds(stage: string, priceIds: ProviderPriceIds): void {
  const placeholders = (Object.keys(LOCAL_PRICE_IDS) as (keyof ProviderPriceIds)[]).filter(
    (name) => !priceIds[name] || priceIds[name] === LOCAL_PRICE_IDS[name],
  );
  if (placeholders.length === 0) return;
  throw new Error(
    `The production stage "${stage}" has no real Stripe id for ${placeholders.join(', ')}: put the stage's ids in cdk.json's context, ` +
      `"stripePriceIds": {"${stage}": {"SUBSCRIPTION": "price_…", "ENTERPRISE": "price_…", "creditsProduct": "prod_…", "creditsPrice": "price_…"}} (operator's guide, The payment provider).`,
  );
}

export interface HotelMappingStackProps extends StackProps {
  /** Stage name: the API stage and part of resource names. */
  stage: string;
  /**
   * The stage serves partners: it refuses to synthesize with nobody told of its alarms, without a
   * web ACL, without retainData said either way, or with placeholder Stripe price ids. Default:
   * context `production` (`-c production=true|false`); a stage named like production
   * (PRODUCTION_LIKE_NAME) refuses to synthesize without it, every other stage defaults to false.
   */
  production?: boolean;
  /**
   * Protect the stage's data from a mistake: the table (deletion-protected), the buckets, the
   * partner secrets key and the secrets outlive the stack's deletion or their replacement; the
   * files bucket is versioned and backed up daily with the table (DataBackup); the stack is
   * termination-protected. Default: context `retainData` (`-c retainData=true|false`); a
   * production stage refuses to synthesize without it, every other stage defaults to false.
   */
  retainData?: boolean;
  /**
   * A backup vault in another region or account (its ARN) that each daily backup of a stage that
   * retains its data is copied to, kept as long. Default: context `backupCopyVaultArn`; none, no copy.
   */
  backupCopyVaultArn?: string;
  /**
   * The stage's Stripe price and product ids. Default: context `stripePriceIds.<stage>`
   * (cdk.json or -c), else the local placeholders (operator's guide, The payment provider), which a production stage refuses.
   */
  priceIds?: ProviderPriceIds;
  /**
   * Where alarms are sent. Default: context `alarmEmail` (`cdk deploy -c alarmEmail=…`); none, no
   * subscription, which a production stage refuses.
   */
  alarmEmail?: string;
  /** The account's monthly cost budget in US dollars. Default: context `monthlyBudgetUsd`, else DEFAULT_MONTHLY_BUDGET_USD. */
  monthlyBudgetUsd?: number;
  /**
   * The account's Lambda concurrency quota in the region, which the claimed-concurrency alarm is
   * measured against. Default: context `accountConcurrency`, else DEFAULT_ACCOUNT_CONCURRENCY.
   */
  accountConcurrency?: number;
  /**
   * The WAFv2 web ACL in front of the API: `stack` (the stack creates its own, EdgeProtection) or
   * the ARN of a regional web ACL the platform team runs. Default: context `webAcl`; none, which a
   * production stage refuses.
   */
  webAcl?: string;
  /**
   * A custom domain the API also answers on. Default: context `domainName` with `certificateArn`
   * (both or neither); none.
   */
  customDomain?: CustomDomain;
  /**
   * Instances of the find-match function kept warm, its matching index loaded (provisioned
   * concurrency on its alias `live`, which the API then calls). Default: context
   * `findMatchInstances`, else 0: none kept, each cold container loads the index on its first request.
   */
  findMatchInstances?: number;
}

/** The find-match function's instances kept warm, as said (a whole number, 0 for none, at most the instances it may run). */
function findMatchInstancesSetting(value: unknown): number {
  const instances = Number(value ?? 0);
  const most = mappingJobRoutes.findMatch.lambda.reservedConcurrency;
  if (!Number.isSafeInteger(instances) || instances < 0 || instances > most) {
    throw new Error(
      `findMatchInstances must be a whole number of instances from 0 (none) to ${most} (the most find-match may run at once), not ${JSON.stringify(value)}.`,
    );
  }
  return instances;
}

export class HotelMappingStack extends Stack {
  /** Whether the stage serves partners (HotelMappingStackProps.production). */
  readonly production: boolean;
  readonly table: dynamodb.Table;
  readonly bucket: s3.Bucket;
  /**
   * A job's results, their views and exports: made from the files bucket's inventories and kept a
   * few weeks at most, so neither versioned nor backed up (operator's guide, "Unit cost").
   */
  readonly resultsBucket: s3.Bucket;
  readonly api: HotelMappingApi;
  /** Every function, by its file under functions/: routes, queue workers, dead-letter handlers, the relay. */
  readonly functions = new Map<string, lambda.Function>();
  readonly queues = new Map<string, { queue: sqs.Queue; deadLetters: sqs.Queue }>();
  /**
   * The queues, their workers, alarms and the scheduler, in a nested stack: the API's functions
   * alone fill most of CloudFormation's 500 resources a stack may hold.
   */
  readonly workers: NestedStack;
  /** The route functions, their roles and log groups: a nested stack, so the API stack keeps room to grow. */
  readonly routeFunctions: NestedStack;
  readonly schedulerRole: iam.Role;
  /** Encrypts partner secrets (webhook signing secrets, partner API key values) in the table. */
  readonly secretsKey: kms.Key;
  /** Signs bearer tokens (the token endpoint alone); every credentialed function reads its public key. */
  readonly tokenSigningKey: kms.Key;
  readonly scheduleGroup: scheduler.ScheduleGroup;
  /** Named, not referenced: grants in every nested stack name the same ARN. */
  readonly scheduleGroupName: string;
  /** The daily AWS Backup plan of the table and the files bucket, its copy and its failures' alarm; only when the stage retains its data. */
  readonly dataBackup?: DataBackup;
  /** The dashboard, the alarms not beside what they watch, and the monthly budget. */
  readonly observability: Observability;
  /** Every alarm of the service publishes here. */
  readonly alarmTopic: sns.Topic;
  /** The web ACL's association with the API's stage (and the stack's own ACL); none without `webAcl`. */
  readonly edgeProtection?: EdgeProtection;

  constructor(scope: Construct, id: string, props: HotelMappingStackProps) {
    super(scope, id, props);
    // The access-log bucket takes no ACLs: S3's logging service writes through its policy, which the
    // buckets that log there add with this flag (without it they turn the log-delivery ACL back on).
    this.node.setContext(cxapi.S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);
    this.production = productionSetting(props.stage, props.production ?? flagSetting('production', this.node.tryGetContext('production')));
    const retainDataSaid = props.retainData ?? flagSetting('retainData', this.node.tryGetContext('retainData'));
    if (retainDataSaid === undefined && this.production) {
      throw new Error(
        `The production stage "${props.stage}" must say whether it keeps its data when the stack is deleted: deploy it with -c retainData=true (or false for a disposable copy).`,
      );
    }
    const retainData = retainDataSaid ?? false;
    const removalPolicy = retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.terminationProtection = props.terminationProtection ?? retainData;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
      // New event items reach the outbox relay through the stream (shared/platform/events).
      stream: dynamodb.StreamViewType.NEW_IMAGE,
      deletionProtection: retainData,
      removalPolicy,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: TABLE_KEYS.gsi1.name,
      partitionKey: { name: TABLE_KEYS.gsi1.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.gsi1.sortKey, type: dynamodb.AttributeType.STRING },
    });

    const accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy,
      autoDeleteObjects: !retainData,
    });
    this.bucket = new s3.Bucket(this, 'Files', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'files/',
      // AWS Backup needs versioning; it also undoes an overwrite or a delete.
      versioned: retainData,
      // In a versioned bucket, expiring an object leaves its version behind a delete marker: the
      // noncurrent-version rules end those too (the shorter of two matching rules wins).
      lifecycleRules: [
        // Retired matching indexes: mapping jobs that pinned them get a day to finish.
        {
          id: 'ExpireTagged',
          tagFilters: { [EXPIRE_TAG.key]: EXPIRE_TAG.value },
          expiration: Duration.days(1),
          noncurrentVersionExpiration: Duration.days(1),
        },
        {
          id: 'ExpireNoncurrentVersions',
          noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
          expiredObjectDeleteMarker: true,
        },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy,
      autoDeleteObjects: !retainData,
    });
    this.resultsBucket = new s3.Bucket(this, 'Results', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'results/',
      lifecycleRules: [
        { id: 'ExpireExports', prefix: EXPORTS_PREFIX, expiration: Duration.days(7) },
        // A job's results files and views, past the retention its expiresAt shows (S3 counts whole days from each file's creation).
        { id: 'ExpireJobResults', prefix: JOB_RESULTS_PREFIX, expiration: Duration.days(RESULTS_RETENTION_DAYS + 1) },
        // The mapping book's change feed: its positions are valid as long as its files are kept.
        { id: 'ExpireBookChanges', prefix: BOOK_CHANGES_PREFIX, expiration: Duration.days(CHANGES_RETENTION_DAYS + 1) },
        // A book's export is answered again EXPORT_KEPT_DAYS, then prepared anew.
        { id: 'ExpireBookExports', prefix: BOOK_EXPORTS_PREFIX, expiration: Duration.days(EXPORT_KEPT_DAYS + 1) },
        // Presigned uploads never completed, or refused (the completion copies what it accepts to the files bucket).
        { id: 'ExpireUploads', prefix: INVENTORY_UPLOADS_PREFIX, expiration: Duration.days(UPLOAD_STAGING_DAYS) },
        // A retired book segment's derived files (BOOK_DERIVED_PREFIX), tagged with the segment's own files.
        { id: 'ExpireTagged', tagFilters: { [EXPIRE_TAG.key]: EXPIRE_TAG.value }, expiration: Duration.days(1) },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      // Kept with the stage's data like the rest; its lifecycle rules empty it within a month, but for
      // the book's derived files, which live as long as their segments.
      removalPolicy,
      autoDeleteObjects: !retainData,
    });
    // Every secret of the stack, wherever it is declared, lives and dies with the stage's data.
    RemovalPolicies.of(this).apply(removalPolicy, { applyToResourceTypes: ['AWS::SecretsManager::Secret'] });

    this.secretsKey = new kms.Key(this, 'PartnerSecretsKey', {
      description: 'Encrypts partner secrets kept in the table: webhook signing secrets and partner API key values',
      enableKeyRotation: true,
      removalPolicy,
    });

    // Its private half never leaves KMS. Losing it ends only tokens under an hour old, so it goes
    // with the stack.
    this.tokenSigningKey = new kms.Key(this, 'TokenSigningKey', {
      description:
        'Signs the bearer tokens (ES256) issued by POST /api/v1/auth/token; every credentialed function verifies them with its public key',
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      pendingWindow: Duration.days(7),
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // A signature is a token of any organization: no one signs but the token endpoint's role, not
    // even an administrator whom the key's default policy (kms:* to the account) lets in through
    // IAM. The role is named, not referenced: it lives in the functions' stack, which references this key.
    const tokenSigner = tokenSignerRoleName(props.stage);
    this.tokenSigningKey.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'SignAsTheTokenEndpointOnly',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['kms:Sign'],
        resources: ['*'],
        conditions: {
          ArnNotEquals: { 'aws:PrincipalArn': this.formatArn({ service: 'iam', region: '', resource: 'role', resourceName: tokenSigner }) },
        },
      }),
    );

    const stripeSecrets = new StripeSecrets(this, 'StripeSecrets');
    const stagePriceIds = this.node.tryGetContext('stripePriceIds') as Record<string, ProviderPriceIds> | undefined;
    const priceIds = props.priceIds ?? stagePriceIds?.[props.stage] ?? LOCAL_PRICE_IDS;
    if (this.production) refusePlaceholderPriceIds(props.stage, priceIds);

    this.api = new HotelMappingApi(this, 'Api', {
      stage: props.stage,
      removalPolicy,
      routes: routeList,
      measuredRoutes: ROUTES_DRAWN_ONE_BY_ONE,
    });
    const alarmEmail = props.alarmEmail ?? (this.node.tryGetContext('alarmEmail') as string | undefined);
    if (this.production && !alarmEmail) {
      throw new Error(
        `The production stage "${props.stage}" needs someone to receive its alarms: deploy it with -c alarmEmail=ops@example.com.`,
      );
    }
    this.alarmTopic = alarmTopic(this, props.stage, alarmEmail);
    const copyVaultArn = backupCopyVaultSetting(props.backupCopyVaultArn ?? this.node.tryGetContext('backupCopyVaultArn'));
    if (copyVaultArn && !retainData)
      throw new Error('backupCopyVaultArn copies the backups of a stage that keeps its data: deploy it with -c retainData=true as well.');
    if (retainData) {
      this.dataBackup = new DataBackup(this, 'DataBackup', {
        stage: props.stage,
        table: this.table,
        bucket: this.bucket,
        alarmTopic: this.alarmTopic,
        copyVaultArn,
      });
    }
    const webAcl = webAclSetting(props.webAcl ?? this.node.tryGetContext('webAcl'));
    if (this.production && !webAcl) {
      throw new Error(
        `The production stage "${props.stage}" needs a web ACL in front of its API: deploy it with -c webAcl=${STACK_WEB_ACL} (the stack creates one) or -c webAcl=<the ARN of a regional web ACL>.`,
      );
    }
    if (webAcl)
      this.edgeProtection = new EdgeProtection(this, 'EdgeProtection', {
        webAcl,
        stage: this.api.deploymentStage,
        name: `hotel-mapping-${props.stage}`,
        removalPolicy,
        routes: routeList,
      });
    const customDomain = customDomainSetting(
      props.customDomain?.domainName ?? this.node.tryGetContext('domainName'),
      props.customDomain?.certificateArn ?? this.node.tryGetContext('certificateArn'),
    );

    // Queues first: the functions that send to them need their URLs.
    this.workers = new NestedStack(this, 'Workers', { description: 'Queues, dead-letter queues, alarms and queue workers' });
    this.scheduleGroupName = `hotel-mapping-${props.stage}`;
    this.scheduleGroup = new scheduler.ScheduleGroup(this.workers, 'Schedules', { scheduleGroupName: this.scheduleGroupName });
    this.schedulerRole = new iam.Role(this.workers, 'SchedulerRole', {
      // Only schedules of this account may use it (no confused deputy).
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
      description: 'EventBridge Scheduler sends one-time deliveries to the queues with this role',
    });
    const queues = queueList.map((definition) => new DeadLetteredQueue(this.workers, { definition, alarmTopic: this.alarmTopic }));
    for (const queue of queues) this.queues.set(queue.definition.name, { queue, deadLetters: queue.deadLetters });

    const resources = new ServiceResources({
      stage: props.stage,
      table: this.table,
      bucket: this.bucket,
      resultsBucket: this.resultsBucket,
      secretsKey: this.secretsKey,
      tokenSigningKey: this.tokenSigningKey,
      paymentSecrets: { api: stripeSecrets.apiKey, events: stripeSecrets.webhook },
      priceIds,
      queues: this.queues,
      scheduleGroup: this.scheduleGroup,
      scheduleGroupName: this.scheduleGroupName,
      schedulerRole: this.schedulerRole,
    });

    this.routeFunctions = new NestedStack(this, 'Functions', { description: 'One Lambda function per route, with its role and log group' });
    const roles = new RouteRoles(this.routeFunctions, resources, { tokenSignerRoleName: tokenSigner });
    const findMatchInstances = findMatchInstancesSetting(props.findMatchInstances ?? this.node.tryGetContext('findMatchInstances'));
    for (const route of routeList) {
      const provisionedInstances = route === mappingJobRoutes.findMatch ? findMatchInstances : 0;
      this.functions.set(
        route.handler,
        new RouteFunction(this.routeFunctions, { route, api: this.api, roles, resources, removalPolicy, provisionedInstances }),
      );
    }
    this.api.answerOtherMethods(routeList);

    for (const queue of queues) {
      const worker = new QueueWorker(this.workers, { queue, resources, removalPolicy, alarmTopic: this.alarmTopic });
      this.functions.set(queue.definition.handler, worker);
      const { deadLetterHandler } = queue.definition;
      if (deadLetterHandler && worker.deadLetterHandler) this.functions.set(deadLetterHandler, worker.deadLetterHandler);
    }
    const relay = new EventRelay(this.workers, {
      table: this.table,
      resources,
      alarmTopic: this.alarmTopic,
      removalPolicy,
      relayedQueues: relayedQueues.map((queue) => queue.name),
    });
    this.functions.set(EVENT_RELAY.handler, relay);

    this.observability = new Observability(this, 'Observability', {
      api: this.api,
      stage: props.stage,
      queues,
      table: this.table,
      functions: this.functions,
      alarmTopic: this.alarmTopic,
      accountConcurrency: props.accountConcurrency ?? Number(this.node.tryGetContext('accountConcurrency') ?? DEFAULT_ACCOUNT_CONCURRENCY),
      monthlyBudgetUsd: props.monthlyBudgetUsd ?? Number(this.node.tryGetContext('monthlyBudgetUsd') ?? DEFAULT_MONTHLY_BUDGET_USD),
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL; endpoints are under api/v1' });
    if (customDomain) {
      const domain = this.api.serveAt(customDomain);
      new CfnOutput(this, 'CustomDomainUrl', {
        value: `https://${customDomain.domainName}/`,
        description: 'Base URL on the custom domain; endpoints are under api/v1',
      });
      new CfnOutput(this, 'CustomDomainTarget', {
        value: domain.domainNameAliasDomainName,
        description: "Point the custom domain's DNS record (CNAME, or alias with CustomDomainHostedZoneId) here",
      });
      new CfnOutput(this, 'CustomDomainHostedZoneId', { value: domain.domainNameAliasHostedZoneId });
    }
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'ResultsBucketName', { value: this.resultsBucket.bucketName });
    new CfnOutput(this, 'StripeApiKeySecretArn', {
      value: stripeSecrets.apiKey.secretArn,
      description: 'Put the Stripe secret API key here after deploying (docs/guides/operator.md, The payment provider)',
    });
    new CfnOutput(this, 'StripeWebhookSecretArn', {
      value: stripeSecrets.webhook.secretArn,
      description:
        "Put the Stripe webhook's signing secret and a read-only restricted key here after deploying (operator's guide, The payment provider)",
    });
    acknowledgeAcceptedFindings({
      stack: this,
      accessLogs,
      dataBackup: this.dataBackup,
      webAclAssociated: this.edgeProtection !== undefined,
    });
  }
}
