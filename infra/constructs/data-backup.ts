/**
 * The daily AWS Backup plan of a stage that retains its data: the table and the files bucket, kept
 * BACKUP_RETENTION_DAYS in a vault of their own. Point-in-time recovery covers the table's last 35
 * days only while the table and its PITR setting live; the vault's recovery points outlive both,
 * and hold the bucket's objects, which S3 versioning alone keeps only as long as the bucket.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** How long each daily recovery point is kept. */
export const BACKUP_RETENTION_DAYS = 35;

/** AWS Backup's managed policies for S3, which its default backup and restore policies leave out. */
export const S3_BACKUP_POLICIES = ['AWSBackupServiceRolePolicyForS3Backup', 'AWSBackupServiceRolePolicyForS3Restore'];

export interface DataBackupProps {
  /** Names the plan: `hotel-mapping-<stage>`. */
  stage: string;
  table: dynamodb.ITable;
  /** Must be versioned: AWS Backup refuses an unversioned bucket. */
  bucket: s3.IBucket;
}

export class DataBackup extends Construct {
  readonly vault: backup.BackupVault;
  readonly plan: backup.BackupPlan;
  /** The role AWS Backup backs up and restores with. */
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, { stage, table, bucket }: DataBackupProps) {
    super(scope, id);
    this.vault = new backup.BackupVault(this, 'Vault', {
      // Its recovery points must outlive the stack; governance mode still lets an administrator
      // with backup:DeleteBackupVaultLockConfiguration lift the lock on purpose.
      removalPolicy: RemovalPolicy.RETAIN,
      lockConfiguration: { minRetention: Duration.days(BACKUP_RETENTION_DAYS) },
    });
    this.plan = new backup.BackupPlan(this, 'Plan', {
      backupPlanName: `hotel-mapping-${stage}`,
      backupVault: this.vault,
      backupPlanRules: [
        new backup.BackupPlanRule({
          ruleName: 'Daily',
          scheduleExpression: events.Schedule.cron({ hour: '3', minute: '0' }),
          deleteAfter: Duration.days(BACKUP_RETENTION_DAYS),
        }),
      ],
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('backup.amazonaws.com'),
      description: 'AWS Backup backs up and restores the table and the files bucket with this role',
      managedPolicies: S3_BACKUP_POLICIES.map((name) => iam.ManagedPolicy.fromAwsManagedPolicyName(name)),
    });
    this.plan.addSelection('TableAndFiles', {
      resources: [backup.BackupResource.fromDynamoDbTable(table), backup.BackupResource.fromArn(bucket.bucketArn)],
      role: this.role,
      allowRestores: true,
    });
  }
}
