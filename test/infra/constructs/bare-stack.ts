/**
 * A bare stack for testing one construct of infra/constructs at a time (bundling skipped): the
 * resources a function may be granted, each queue given, as DeadLetteredQueue, and the alarm
 * topic. Helpers read the template by construct.
 */
import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { IConstruct } from 'constructs';
import { LOCAL_PRICE_IDS } from '../../../shared/billing';
import type { QueueDefinition } from '../../../shared/platform/queue/queue';
import { DeadLetteredQueue } from '../../../infra/constructs/dead-lettered-queue';
import { ServiceResources } from '../../../infra/constructs/service-resources';

export const SCHEDULE_GROUP_NAME = 'bare-schedules';

export function bareStack(queueDefinitions: readonly QueueDefinition[] = []) {
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Bare');
  const table = new dynamodb.Table(stack, 'Table', {
    partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING },
    stream: dynamodb.StreamViewType.NEW_IMAGE,
  });
  const bucket = new s3.Bucket(stack, 'Bucket');
  const resultsBucket = new s3.Bucket(stack, 'ResultsBucket');
  const secretsKey = new kms.Key(stack, 'SecretsKey');
  const tokenSigningKey = new kms.Key(stack, 'TokenSigningKey', { keySpec: kms.KeySpec.ECC_NIST_P256, keyUsage: kms.KeyUsage.SIGN_VERIFY });
  const paymentSecrets = {
    api: new secretsmanager.Secret(stack, 'StripeApiKey'),
    events: new secretsmanager.Secret(stack, 'StripeWebhook'),
  };
  const scheduleGroup = new scheduler.ScheduleGroup(stack, 'Schedules', { scheduleGroupName: SCHEDULE_GROUP_NAME });
  const schedulerRole = new iam.Role(stack, 'SchedulerRole', { assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com') });
  const alarmTopic = new sns.Topic(stack, 'Alarms');
  const queues = new Map(queueDefinitions.map((definition) => [definition.name, new DeadLetteredQueue(stack, { definition, alarmTopic })]));
  const resources = new ServiceResources({
    stage: 'bare',
    table,
    bucket,
    resultsBucket,
    secretsKey,
    tokenSigningKey,
    paymentSecrets,
    priceIds: LOCAL_PRICE_IDS,
    queues: new Map([...queues].map(([name, queue]) => [name, { queue, deadLetters: queue.deadLetters }])),
    scheduleGroup,
    scheduleGroupName: SCHEDULE_GROUP_NAME,
    schedulerRole,
  });
  return { stack, table, bucket, resultsBucket, secretsKey, tokenSigningKey, paymentSecrets, schedulerRole, alarmTopic, queues, resources };
}

/** The logical id of a construct's CloudFormation resource. */
export function idOf(construct: IConstruct): string {
  const resource = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(construct).getLogicalId(resource);
}

/** A resource of the template, by the construct that made it. */
export function resourceOf(template: Template, construct: IConstruct): { Type: string; Properties: any; DeletionPolicy?: string } {
  return template.toJSON().Resources[idOf(construct)];
}

/** Every statement of the policies attached to a role (given by logical id). */
export function statementsOfRole(template: Template, roleId: string): { Action: string | string[]; Resource: unknown; Effect: string }[] {
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((policy: any) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap((policy: any) => policy.Properties.PolicyDocument.Statement);
}

/** Whether an alarm watches a queue (by logical id), in its one metric or in its metric math. */
export function watchesQueue(alarm: Record<string, any>, queueId: string): boolean {
  const metrics = JSON.stringify(alarm.Properties.Dimensions ?? alarm.Properties.Metrics ?? []);
  return metrics.includes(JSON.stringify({ 'Fn::GetAtt': [queueId, 'QueueName'] }));
}

/** The metrics of a metric-math alarm, by id: name, statistic and dimensions. */
export function metricsOf(alarm: { Properties: any }): Record<string, { name: string; stat: string; dimensions: unknown }> {
  return Object.fromEntries(
    (alarm.Properties.Metrics as any[])
      .filter((m) => m.MetricStat)
      .map((m) => [m.Id, { name: m.MetricStat.Metric.MetricName, stat: m.MetricStat.Stat, dimensions: m.MetricStat.Metric.Dimensions }]),
  );
}

/** The expression of a metric-math alarm. */
export function expressionOf(alarm: { Properties: any }): string {
  return (alarm.Properties.Metrics as any[]).find((m) => m.Expression).Expression;
}

/** Every action granted to a role. */
export function actionsOfRole(template: Template, roleId: string): string[] {
  return statementsOfRole(template, roleId).flatMap((statement) => [statement.Action].flat());
}
