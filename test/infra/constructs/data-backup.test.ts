import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import { BACKUP_RETENTION_DAYS, backupCopyVaultSetting, DataBackup } from '../../../infra/constructs/data-backup';
import { idOf, resourceOf, statementsOfRole } from './bare-stack';

const COPY_VAULT_ARN = 'arn:aws:backup:eu-central-1:210987654321:backup-vault:hotel-mapping-dr';

function backedUp(copyVaultArn?: string) {
  const stack = new Stack(new App(), 'Backed');
  const table = new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING } });
  const bucket = new s3.Bucket(stack, 'Bucket', { versioned: true });
  const alarmTopic = new sns.Topic(stack, 'Alarms');
  const dataBackup = new DataBackup(stack, 'DataBackup', { stage: 'bare', table, bucket, alarmTopic, copyVaultArn });
  return { table, bucket, alarmTopic, dataBackup, template: Template.fromStack(stack) };
}

describe('DataBackup', () => {
  const { table, bucket, alarmTopic, dataBackup, template } = backedUp();
  const [selection] = Object.values(template.findResources('AWS::Backup::BackupSelection')) as any[];

  it(`backs up daily, each recovery point kept ${BACKUP_RETENTION_DAYS} days, in a vault that outlives the stack and locks that long`, () => {
    const plan = resourceOf(template, dataBackup.plan).Properties.BackupPlan;
    assert.equal(plan.BackupPlanName, 'hotel-mapping-bare');
    assert.equal(plan.BackupPlanRule.length, 1);
    const [rule] = plan.BackupPlanRule;
    assert.equal(rule.ScheduleExpression, 'cron(0 3 * * ? *)');
    assert.deepEqual(rule.Lifecycle, { DeleteAfterDays: BACKUP_RETENTION_DAYS });
    assert.deepEqual(rule.TargetBackupVault, { 'Fn::GetAtt': [idOf(dataBackup.vault), 'BackupVaultName'] });
    assert.equal(rule.CopyActions, undefined, 'no copy unless a vault elsewhere is named');
    const vault = resourceOf(template, dataBackup.vault);
    assert.equal(vault.DeletionPolicy, 'Retain');
    assert.deepEqual(vault.Properties.LockConfiguration, { MinRetentionDays: BACKUP_RETENTION_DAYS });
  });

  it('encrypts the vault with a key of its own, rotated and kept with the recovery points, which the backup role may use', () => {
    const vault = resourceOf(template, dataBackup.vault);
    assert.deepEqual(vault.Properties.EncryptionKeyArn, { 'Fn::GetAtt': [idOf(dataBackup.vaultKey), 'Arn'] });
    const key = resourceOf(template, dataBackup.vaultKey);
    assert.equal(key.Properties.EnableKeyRotation, true);
    assert.equal(key.DeletionPolicy, 'Retain');
    const keyArn = { 'Fn::GetAtt': [idOf(dataBackup.vaultKey), 'Arn'] };
    const onKey = statementsOfRole(template, idOf(dataBackup.role)).filter(
      (statement) => JSON.stringify(statement.Resource) === JSON.stringify(keyArn),
    );
    assert.deepEqual(onKey.flatMap((statement) => [statement.Action].flat()).sort(), [
      'kms:CreateGrant',
      'kms:Decrypt',
      'kms:DescribeKey',
      'kms:GenerateDataKey',
    ]);
  });

  it('selects exactly the table and the bucket', () => {
    assert.deepEqual(selection.Properties.BackupSelection.Resources, [
      { 'Fn::GetAtt': [idOf(table), 'Arn'] },
      { 'Fn::GetAtt': [idOf(bucket), 'Arn'] },
    ]);
  });

  it('backs up and restores with a role AWS Backup assumes, given the S3 policies the default ones leave out', () => {
    assert.deepEqual(selection.Properties.BackupSelection.IamRoleArn, { 'Fn::GetAtt': [idOf(dataBackup.role), 'Arn'] });
    const role = resourceOf(template, dataBackup.role).Properties;
    assert.deepEqual(role.AssumeRolePolicyDocument.Statement[0].Principal, { Service: 'backup.amazonaws.com' });
    const policies = (role.ManagedPolicyArns as { 'Fn::Join': [string, unknown[]] }[])
      .map((arn) => String(arn['Fn::Join'][1].at(-1)).replace(/^:iam::aws:policy\//, ''))
      .sort();
    assert.deepEqual(policies, [
      'AWSBackupServiceRolePolicyForS3Backup',
      'AWSBackupServiceRolePolicyForS3Restore',
      'service-role/AWSBackupServiceRolePolicyForBackup',
      'service-role/AWSBackupServiceRolePolicyForRestores',
    ]);
  });

  it('tells the alarm topic of every backup or copy job that failed, was aborted or expired', () => {
    const rule = resourceOf(template, dataBackup.jobFailures).Properties;
    assert.deepEqual(rule.EventPattern, {
      source: ['aws.backup'],
      'detail-type': ['Backup Job State Change', 'Copy Job State Change'],
      detail: { state: ['FAILED', 'ABORTED', 'EXPIRED'] },
    });
    assert.equal(rule.State, 'ENABLED');
    assert.deepEqual(
      rule.Targets.map((target: { Arn: unknown }) => target.Arn),
      [{ Ref: idOf(alarmTopic) }],
    );
    const [topicPolicy] = Object.values(template.findResources('AWS::SNS::TopicPolicy')) as any[];
    assert.ok(
      topicPolicy.Properties.PolicyDocument.Statement.some(
        (s: any) => s.Principal?.Service === 'events.amazonaws.com' && s.Action === 'sns:Publish',
      ),
      'EventBridge may publish to the topic',
    );
  });

  it(`copies each recovery point to the vault elsewhere it is given, kept ${BACKUP_RETENTION_DAYS} days there too`, () => {
    const copied = backedUp(COPY_VAULT_ARN);
    const [rule] = resourceOf(copied.template, copied.dataBackup.plan).Properties.BackupPlan.BackupPlanRule;
    assert.deepEqual(rule.CopyActions, [
      { DestinationBackupVaultArn: COPY_VAULT_ARN, Lifecycle: { DeleteAfterDays: BACKUP_RETENTION_DAYS } },
    ]);
  });

  it('takes a backup vault ARN for the copy, and refuses anything else saying what to give', () => {
    assert.equal(backupCopyVaultSetting(undefined), undefined);
    assert.equal(backupCopyVaultSetting(COPY_VAULT_ARN), COPY_VAULT_ARN);
    assert.equal(
      backupCopyVaultSetting('arn:aws-us-gov:backup:us-gov-west-1:210987654321:backup-vault:dr_1'),
      'arn:aws-us-gov:backup:us-gov-west-1:210987654321:backup-vault:dr_1',
    );
    for (const value of [
      'hotel-mapping-dr',
      'arn:aws:backup:eu-central-1:2109876543:backup-vault:dr',
      'arn:aws:s3:::bucket',
      `${COPY_VAULT_ARN}/x`,
      'arn:aws:backup:eu-central-1:210987654321:backup-plan:dr',
      true,
    ]) {
      assert.throws(
        () => backupCopyVaultSetting(value),
        /backupCopyVaultArn must be the ARN of a backup vault in another region or account \(arn:aws:backup:<region>:<account>:backup-vault:<name>\)/,
        String(value),
      );
    }
  });
});
