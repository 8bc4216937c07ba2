/**
 * The resources a function of the service may be given, and the one place where a route's or a
 * queue's declared ResourceAccess (shared/platform/access.ts) becomes IAM grants and the settings
 * that name those resources. Not a construct: it adds statements to the roles it is handed, and to
 * the scheduler's role for the queues a function schedules to.
 */
import { Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as scheduler from 'aws-cdk-lib/aws-scheduler';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PAYMENT_SETTINGS, PRICE_ID_SETTINGS, type ProviderPriceIds } from '../../shared/billing';
import {
  OBJECT_USES,
  objectPrefixes,
  touchesObjects,
  type BucketAccess,
  type ObjectUse,
  type ResourceAccess,
  type TableUse,
  type TableUses,
} from '../../shared/platform/access';
import type { TokenKeyUse } from '../../shared/platform/http/route';
import { PLATFORM_SETTINGS, queueArnVariable, queueDeadLetterArnVariable, queueUrlVariable } from '../../shared/platform/config';
import { SERVICE_NAME } from '../../shared/platform/metrics';
import { TABLE_KEYS } from '../../shared/platform/table';
import { acknowledgeObjectPrefixes, acknowledgePartnerRoles, acknowledgeScheduleGroup } from '../nag-acknowledgements';

export interface ServiceResourcesProps {
  stage: string;
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  /** A job's results and exports: kept weeks at most, not backed up (ResourceAccess.resultObjects). */
  resultsBucket: s3.IBucket;
  /** Encrypts partner secrets kept in the table. */
  secretsKey: kms.IKey;
  /** The asymmetric key bearer tokens are signed with: the token endpoint signs, every credentialed route reads its public half. */
  tokenSigningKey: kms.IKey;
  /** The payment provider's keys: the secret API key, and what the webhook verifies and reads with. */
  paymentSecrets: { api: secretsmanager.ISecret; events: secretsmanager.ISecret };
  /** The stage's payment-provider price ids. */
  priceIds: ProviderPriceIds;
  /** The queues of the queue table, by name. */
  queues: ReadonlyMap<string, { queue: sqs.IQueue; deadLetters: sqs.IQueue }>;
  scheduleGroup: scheduler.IScheduleGroup;
  /** The schedule group's name as text: the grant to create schedules names it without a cross-stack reference. */
  scheduleGroupName: string;
  /** The role EventBridge Scheduler sends one-time deliveries with. */
  schedulerRole: iam.IRole;
}

/** What a function declared it may touch, and what it does with the bearer-token key. */
export interface FunctionAccess {
  access: ResourceAccess;
  /** sign: kms:Sign (the token endpoint alone); verify: kms:GetPublicKey; none: neither. */
  tokenKey?: TokenKeyUse;
}

/** The actions of each use of the table's items by key (ResourceAccess.tableUses). */
export const TABLE_USE_ACTIONS: Record<TableUse, readonly string[]> = {
  get: ['dynamodb:GetItem'],
  put: ['dynamodb:PutItem'],
  update: ['dynamodb:UpdateItem'],
  delete: ['dynamodb:DeleteItem'],
};

/**
 * What the code does with the table, and nothing else: items by key and by Query (transactions
 * need the same actions). The CDK's grants would add Scan, which nothing does, DescribeTable and
 * the stream's reads, which only the relay needs (its own grant).
 */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'],
  readwrite: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:ConditionCheckItem',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
  ],
} as const;

/**
 * What each declared use of objects may do, on the objects under its prefixes only. Writing is
 * PutObject alone (the CDK's grantPut adds tagging, retention, legal holds and Abort*).
 */
export const OBJECT_ACTIONS: Record<ObjectUse, readonly string[]> = {
  read: ['s3:GetObject'],
  write: ['s3:PutObject'],
  delete: ['s3:DeleteObject'],
  expire: ['s3:PutObjectTagging'],
};

/** Exactly Encrypt or Decrypt on the one key: the CDK's key grants would add ReEncrypt* and GenerateDataKey*. */
const KMS_ACTIONS = { seal: ['kms:Encrypt'], open: ['kms:Decrypt'], both: ['kms:Encrypt', 'kms:Decrypt'] } as const;
/** A verifier gets only the public half: with kms:Sign, any credentialed function could mint any organization's token. */
const TOKEN_KEY_ACTIONS = { sign: ['kms:Sign'], verify: ['kms:GetPublicKey'], none: [] } as const;

export class ServiceResources {
  constructor(private readonly resources: ServiceResourcesProps) {}

  /** The settings of a function: the stage, logging, and exactly the resources its access names (shared/platform/config.ts). */
  environmentFor({ access, tokenKey = 'none' }: FunctionAccess): Record<string, string> {
    const { stage, table, bucket, resultsBucket, secretsKey, tokenSigningKey, paymentSecrets, scheduleGroup, schedulerRole, priceIds } =
      this.resources;
    const schedules = access.schedules ?? [];
    return {
      LOG_LEVEL: 'info',
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      NODE_OPTIONS: '--enable-source-maps',
      ...PLATFORM_SETTINGS.environment({
        stage,
        tableName: access.table !== 'none' ? table.tableName : undefined,
        bucketName: touchesObjects(access) ? bucket.bucketName : undefined,
        resultsBucketName: touchesObjects(access, 'resultObjects') ? resultsBucket.bucketName : undefined,
        schedulerGroupName: schedules.length ? scheduleGroup.scheduleGroupName : undefined,
        schedulerRoleArn: schedules.length ? schedulerRole.roleArn : undefined,
        secretsKeyArn: access.secrets ? secretsKey.keyArn : undefined,
        accountId: access.partnerRoles ? Stack.of(table).account : undefined,
        tokenSigningKeyArn: tokenKey !== 'none' ? tokenSigningKey.keyArn : undefined,
      }),
      ...Object.fromEntries((access.sendsTo ?? []).map((name) => [queueUrlVariable(name), this.queueNamed(name).queueUrl])),
      ...Object.fromEntries(schedules.map((name) => [queueArnVariable(name), this.queueNamed(name).queueArn])),
      ...Object.fromEntries(schedules.map((name) => [queueDeadLetterArnVariable(name), this.deadLettersOf(name).queueArn])),
      ...(access.providerKeys === 'api' && PAYMENT_SETTINGS.environment({ stripeApiKeySecretArn: paymentSecrets.api.secretArn })),
      ...(access.providerKeys === 'events' && PAYMENT_SETTINGS.environment({ stripeWebhookSecretArn: paymentSecrets.events.secretArn })),
      ...((access.providerKeys || access.providerIds) && PRICE_ID_SETTINGS.environment(priceIds)),
    };
  }

  /** Grants exactly the declared access, nothing more. */
  grant(grantee: iam.IGrantable, { access, tokenKey = 'none' }: FunctionAccess): void {
    const { table, bucket, resultsBucket, secretsKey, tokenSigningKey, paymentSecrets, scheduleGroupName, schedulerRole } = this.resources;
    const role = grantee.grantPrincipal;
    // The wildcards a grant names are acknowledged on the role that holds them, nowhere else.
    if (!Construct.isConstruct(role)) throw new Error('Grants go to a role of the stack.');
    const allow = (actions: readonly string[], resource: string) =>
      grantee.grantPrincipal.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...actions], resources: [resource] }));

    if (access.tableUses) {
      for (const [use, partitions] of Object.entries(checkedTableUses(access, access.tableUses))) {
        grantee.grantPrincipal.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: [...TABLE_USE_ACTIONS[use as TableUse]],
            // Items by key: the table alone, not its index.
            resources: [table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...checkedPartitions(partitions)] } },
          }),
        );
      }
    } else if (access.table !== 'none') {
      grantee.grantPrincipal.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: [...TABLE_ACTIONS[access.table]],
          resources: [table.tableArn, `${table.tableArn}/index/${TABLE_KEYS.gsi1.name}`],
          // On the index, the leading key is the index's partition key: the same patterns hold there.
          conditions: access.partitions && {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...checkedPartitions(access.partitions)] },
          },
        }),
      );
    }
    const buckets: [BucketAccess, s3.IBucket][] = [
      ['objects', bucket],
      ['resultObjects', resultsBucket],
    ];
    for (const [declared, granted] of buckets) {
      for (const use of OBJECT_USES) {
        const prefixes = objectPrefixes(access, use, declared);
        if (prefixes.length === 0) continue;
        grantee.grantPrincipal.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: [...OBJECT_ACTIONS[use]],
            resources: prefixes.map((prefix) => granted.arnForObjects(`${checkedPrefix(prefix)}*`)),
          }),
        );
        acknowledgeObjectPrefixes(role, granted, prefixes);
      }
    }
    for (const name of access.sendsTo ?? []) this.queueNamed(name).grantSendMessages(grantee);
    if (access.secrets) allow(KMS_ACTIONS[access.secrets], secretsKey.keyArn);
    if (access.schedules?.length) {
      for (const name of access.schedules) {
        this.queueNamed(name).grantSendMessages(schedulerRole);
        // A delivery the scheduler cannot make ends on the queue's dead-letter queue.
        this.deadLettersOf(name).grantSendMessages(schedulerRole);
      }
      const stack = Stack.of(table);
      allow(
        ['scheduler:CreateSchedule'],
        stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${scheduleGroupName}/*` }),
      );
      acknowledgeScheduleGroup(role, scheduleGroupName);
      // The role may be handed to the scheduler only.
      grantee.grantPrincipal.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['iam:PassRole'],
          resources: [schedulerRole.roleArn],
          conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
        }),
      );
    }
    if (access.partnerRoles === 'assume') {
      // Any account's role: partners create it; only their trust policy, with our external id, lets it be assumed.
      allow(['sts:AssumeRole'], 'arn:aws:iam::*:role/*');
      acknowledgePartnerRoles(role);
    }
    if (tokenKey !== 'none') allow(TOKEN_KEY_ACTIONS[tokenKey], tokenSigningKey.keyArn);
    if (access.providerKeys) paymentSecrets[access.providerKeys].grantRead(grantee);
  }

  private queueNamed(name: string): sqs.IQueue {
    return this.queuesNamed(name).queue;
  }

  private deadLettersOf(name: string): sqs.IQueue {
    return this.queuesNamed(name).deadLetters;
  }

  private queuesNamed(name: string): { queue: sqs.IQueue; deadLetters: sqs.IQueue } {
    const found = this.resources.queues.get(name);
    if (!found) throw new Error(`No queue named ${name} in the queue table.`);
    return found;
  }
}

/** A key prefix names a folder: an empty one, or one without its slash, would reach past it. */
function checkedPrefix(prefix: string): string {
  if (!/^[a-z0-9-]+(\/[a-z0-9-]+)*\/$/.test(prefix))
    throw new Error(`The object prefix "${prefix}" must be folders ending in "/" (e.g. "exports/").`);
  return prefix;
}

/** A narrowed use stays within what the route declares: its partitions, and writes only when it may write. */
function checkedTableUses(access: ResourceAccess, tableUses: TableUses): TableUses {
  const declared = new Set(access.partitions ?? []);
  for (const [use, partitions] of Object.entries(tableUses)) {
    if (access.table === 'none' || (use !== 'get' && access.table !== 'readwrite')) {
      throw new Error(`The table use "${use}" needs more than the table access its route declares (${access.table}).`);
    }
    const undeclared = (partitions ?? []).filter((pattern) => !declared.has(pattern));
    if (undeclared.length > 0) throw new Error(`The table use "${use}" names partitions its access does not: ${undeclared.join(', ')}.`);
  }
  return tableUses;
}

/** A partition pattern that matched every key would limit nothing. */
function checkedPartitions(partitions: readonly string[]): readonly string[] {
  if (partitions.length === 0 || partitions.some((pattern) => pattern === '' || pattern.startsWith('*'))) {
    throw new Error(`Partition patterns must name a partition or a key prefix (got ${JSON.stringify(partitions)}).`);
  }
  return partitions;
}
