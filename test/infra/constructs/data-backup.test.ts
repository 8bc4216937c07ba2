import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { BACKUP_RETENTION_DAYS, DataBackup } from '../../../infra/constructs/data-backup';
import { idOf, resourceOf } from './bare-stack';

describe('DataBackup', () => {
  const stack = new Stack(new App(), 'Backed');
  const table = new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING } });
  const bucket = new s3.Bucket(stack, 'Bucket', { versioned: true });
  const dataBackup = new DataBackup(stack, 'DataBackup', { stage: 'bare', table, bucket });
  const template = Template.fromStack(stack);
  const [selection] = Object.values(template.findResources('AWS::Backup::BackupSelection')) as any[];

  it(`backs up daily, each recovery point kept ${BACKUP_RETENTION_DAYS} days, in a vault that outlives the stack and locks that long`, () => {
    const plan = resourceOf(template, dataBackup.plan).Properties.BackupPlan;
    assert.equal(plan.BackupPlanName, 'hotel-mapping-bare');
    assert.equal(plan.BackupPlanRule.length, 1);
    const [rule] = plan.BackupPlanRule;
    assert.equal(rule.ScheduleExpression, 'cron(0 3 * * ? *)');
    assert.deepEqual(rule.Lifecycle, { DeleteAfterDays: BACKUP_RETENTION_DAYS });
    assert.deepEqual(rule.TargetBackupVault, { 'Fn::GetAtt': [idOf(dataBackup.vault), 'BackupVaultName'] });
    const vault = resourceOf(template, dataBackup.vault);
    assert.equal(vault.DeletionPolicy, 'Retain');
    assert.deepEqual(vault.Properties.LockConfiguration, { MinRetentionDays: BACKUP_RETENTION_DAYS });
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
    const policies = (role.ManagedPolicyArns as { 'Fn::Join': [string, unknown[]] }[]).map((arn) => String(arn['Fn::Join'][1].at(-1)).replace(/^:iam::aws:policy\//, '')).sort();
    assert.deepEqual(policies, [
      'AWSBackupServiceRolePolicyForS3Backup',
      'AWSBackupServiceRolePolicyForS3Restore',
      'service-role/AWSBackupServiceRolePolicyForBackup',
      'service-role/AWSBackupServiceRolePolicyForRestores',
    ]);
  });
});
