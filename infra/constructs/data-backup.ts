/**
 * The daily AWS Backup plan of a stage that retains its data: the table and the files bucket, kept
 * BACKUP_RETENTION_DAYS in a vault of their own, encrypted with a key of its own, and copied as
 * well, when a vault elsewhere is named, to that vault (another region or account: a copy outlives
 * this account's or region's loss). Point-in-time recovery covers the table's last 35 days only
 * while the table and its PITR setting live; the vault's recovery points outlive both, and hold
 * the bucket's objects, which S3 versioning alone keeps only as long as the bucket. A backup or
 * copy job that fails, is aborted or expires is told to the alarm topic.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

/** How long each daily recovery point is kept, and its copy elsewhere. */
export const BACKUP_RETENTION_DAYS = 35;

/** AWS Backup's managed policies for S3, which its default backup and restore policies leave out. */
export const S3_BACKUP_POLICIES = ['AWSBackupServiceRolePolicyForS3Backup', 'AWSBackupServiceRolePolicyForS3Restore'];

/** The job states that mean a recovery point or its copy is missing. */
export const FAILED_BACKUP_JOB_STATES = ['FAILED', 'ABORTED', 'EXPIRED'] as const;

/** A backup vault's ARN, in any region and account (AWS Backup names vaults with letters, digits, - and _). */
const BACKUP_VAULT_ARN = /^arn:aws[a-z-]*:backup:[a-z0-9-]+:\d{12}:backup-vault:[A-Za-z0-9_-]{2,50}$/;

/** Context `backupCopyVaultArn`: a backup vault's ARN; undefined when not given. Anything else is refused with what to give. */
export function backupCopyVaultSetting(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && BACKUP_VAULT_ARN.test(value)) return value;
  throw new Error(
    `backupCopyVaultArn must be the ARN of a backup vault in another region or account (arn:aws:backup:<region>:<account>:backup-vault:<name>), not ${JSON.stringify(value)}.`,
  );
}

export interface DataBackupProps {
  /** Names the plan: `hotel-mapping-<stage>`. */
  stage: string;
  table: dynamodb.ITable;
  /** Must be versioned: AWS Backup refuses an unversioned bucket. */
  bucket: s3.IBucket;
  /** Told of every backup or copy job that fails. */
  alarmTopic: sns.ITopic;
  /** A vault elsewhere (backupCopyVaultSetting) each daily recovery point is copied to, kept as long; none, no copy. */
  copyVaultArn?: string;
}

export class DataBackup extends Construct {
  /** Encrypts the vault's recovery points; kept with them. */
  readonly vaultKey: kms.Key;
  readonly vault: backup.BackupVault;
  readonly plan: backup.BackupPlan;
  /** The role AWS Backup backs up and restores with. */
  readonly role: iam.Role;
  /** Sends failed backup and copy jobs to the alarm topic. */
  readonly jobFailures: events.Rule;

  constructor(scope: Construct, id: string, { stage, table, bucket, alarmTopic, copyVaultArn }: DataBackupProps) {
    super(scope, id);
    this.vaultKey = new kms.Key(this, 'VaultKey', {
      description: 'Encrypts the backups of the table and the files bucket in their backup vault',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Its id makes its name: a vault's key cannot change in place, so a new key needs a new id.
    this.vault = new backup.BackupVault(this, 'KeyedVault', {
      encryptionKey: this.vaultKey,
      // Its recovery points must outlive the stack; governance mode still lets an administrator
      // with backup:DeleteBackupVaultLockConfiguration lift the lock on purpose.
      removalPolicy: RemovalPolicy.RETAIN,
      lockConfiguration: { minRetention: Duration.days(BACKUP_RETENTION_DAYS) },
    });
    const retention = Duration.days(BACKUP_RETENTION_DAYS);
    this.plan = new backup.BackupPlan(this, 'Plan', {
      backupPlanName: `hotel-mapping-${stage}`,
      backupVault: this.vault,
      backupPlanRules: [
        new backup.BackupPlanRule({
          ruleName: 'Daily',
          scheduleExpression: events.Schedule.cron({ hour: '3', minute: '0' }),
          deleteAfter: retention,
          copyActions: copyVaultArn
            ? [{ destinationBackupVault: backup.BackupVault.fromBackupVaultArn(this, 'CopyVault', copyVaultArn), deleteAfter: retention }]
            : undefined,
        }),
      ],
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('backup.amazonaws.com'),
      description: 'AWS Backup backs up and restores the table and the files bucket with this role',
      managedPolicies: S3_BACKUP_POLICIES.map((name) => iam.ManagedPolicy.fromAwsManagedPolicyName(name)),
    });
    // Said here, not left to the managed policies' conditions: without the vault key, an S3 backup
    // job succeeds but holds no object.
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['kms:Decrypt', 'kms:GenerateDataKey', 'kms:DescribeKey'], resources: [this.vaultKey.keyArn] }),
    );
    this.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['kms:CreateGrant'],
        resources: [this.vaultKey.keyArn],
        conditions: { Bool: { 'kms:GrantIsForAWSResource': 'true' } },
      }),
    );
    this.plan.addSelection('TableAndFiles', {
      resources: [backup.BackupResource.fromDynamoDbTable(table), backup.BackupResource.fromArn(bucket.bucketArn)],
      role: this.role,
      allowRestores: true,
    });
    // AWS Backup tells EventBridge, not CloudWatch metrics an alarm could watch per job.
    this.jobFailures = new events.Rule(this, 'JobFailures', {
      description: "AWS Backup's backup and copy jobs that failed, were aborted or expired: a day's recovery point or its copy is missing",
      eventPattern: {
        source: ['aws.backup'],
        detailType: ['Backup Job State Change', 'Copy Job State Change'],
        detail: { state: [...FAILED_BACKUP_JOB_STATES] },
      },
      targets: [new targets.SnsTopic(alarmTopic)],
    });
  }
}
