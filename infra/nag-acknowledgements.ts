/**
 * The cdk-nag AwsSolutions findings the stack accepts on purpose, each with its reason (checked by
 * nag.ts at synth and in the infrastructure tests). A wildcard is acknowledged on the role that
 * holds it, never stack-wide: a new one anywhere else is a finding.
 */
import { CfnElement, Names, Stack, Validations } from 'aws-cdk-lib';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { S3_BACKUP_POLICIES, type DataBackup } from './constructs/data-backup';

export interface AcknowledgedScope {
  stack: Stack;
  accessLogs: s3.Bucket;
  /** The stage's backup plan, when it retains its data. */
  dataBackup?: DataBackup;
  /** Whether a web ACL guards the API's stage. */
  webAclAssociated: boolean;
}

/** Findings of cdk-nag's AwsSolutions pack accepted on purpose in the stack, each with its reason. */
export function acknowledgeAcceptedFindings({ stack, accessLogs, dataBackup, webAclAssociated }: AcknowledgedScope): void {
  Validations.of(stack).acknowledge(
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'Every function authenticates its caller itself (X-API-Key or bearer JWT, shared/platform/auth); public routes are public by contract.',
    },
    { id: 'AwsSolutions-COG4', reason: "Partners authenticate with API keys and the service's own bearer tokens, not Cognito." },
    {
      id: 'AwsSolutions-APIG2',
      reason: "Each function validates its request against the route table's valibot schemas, answering the contract's error bodies.",
    },
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'AWS-managed, logging only.',
    },
    ...(webAclAssociated
      ? []
      : [
          {
            id: 'AwsSolutions-APIG3',
            reason:
              'A stage not declared production may go without a web ACL (-c webAcl adds one); a production stage refuses to synthesize without it.',
          },
        ]),
    { id: 'AwsSolutions-L1', reason: 'nodejs22.x is the runtime the platform standardises on (ARCHITECTURE.md).' },
    {
      id: 'AwsSolutions-SMG4',
      reason:
        'The only secrets are Stripe keys, which are rolled in the Stripe dashboard and stored by hand (docs/guides/operator.md, The payment provider).',
    },
  );
  Validations.of(accessLogs).acknowledge({ id: 'AwsSolutions-S1', reason: 'This is the access-log bucket itself.' });
  if (dataBackup) {
    Validations.of(dataBackup.role).acknowledge(
      ...[
        'service-role/AWSBackupServiceRolePolicyForBackup',
        'service-role/AWSBackupServiceRolePolicyForRestores',
        ...S3_BACKUP_POLICIES,
      ].map((policy) => ({
        id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${policy}]`,
        reason: "AWS Backup's own policies for backing up and restoring DynamoDB and S3, which AWS keeps current as the services change.",
      })),
    );
  }
}

/** The role of traced functions (ServiceFunction): active tracing adds X-Ray's actions, on no resource. */
export function acknowledgeTracing(role: IConstruct): void {
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason: "X-Ray's PutTraceSegments and PutTelemetryRecords, which active tracing adds, take no resource.",
  });
}

/** The file delivery roles' sts:AssumeRole on partners' roles (ServiceResources). */
export function acknowledgePartnerRoles(role: IConstruct): void {
  Validations.of(role).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::arn:aws:iam::*:role/*]',
    reason:
      "Partners' roles are in their own accounts, named at run time; each trusts this account only under the external id issued for it.",
  });
}

/** A role's object grants (ServiceResources): each names the objects under one prefix of the bucket. */
export function acknowledgeObjectPrefixes(role: IConstruct, bucket: s3.IBucket, prefixes: readonly string[]): void {
  const bucketResource = bucket.node.defaultChild;
  if (!CfnElement.isCfnElement(bucketResource)) return;
  // Before synthesis the finding names the bucket; after it, a role in a nested stack names the
  // parameter its stack is handed the bucket's ARN by.
  const bucketArns = [`<${Stack.of(bucket).getLogicalId(bucketResource)}.Arn>`];
  if (Stack.of(role) !== Stack.of(bucket)) bucketArns.push(`<referenceto${Names.uniqueId(bucketResource)}Arn>`);
  Validations.of(role).acknowledge(
    ...bucketArns.flatMap((bucketArn) =>
      prefixes.map((prefix) => ({
        id: `AwsSolutions-IAM5[Resource::${bucketArn}/${prefix}*]`,
        reason: `Objects are keyed by organization and id under ${prefix}, known only at run time; the grant reaches no other prefix.`,
      })),
    ),
  );
}

/** A role's grant to create schedules (ServiceResources): in the stage's group alone. */
export function acknowledgeScheduleGroup(role: IConstruct, scheduleGroupName: string): void {
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/${scheduleGroupName}/*]`,
    reason: "Schedules are named per job or delivery at run time; the grant reaches this stage's schedule group only.",
  });
}
