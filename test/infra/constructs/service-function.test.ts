import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { routeList } from '../../../shared/routes';
import { functionName } from '../../../shared/platform/http/route';
import { ServiceFunction } from '../../../infra/constructs/service-function';
import { bareStack, idOf, resourceOf, statementsOfRole } from './bare-stack';

const handler = routeList[0]!.handler;

describe('ServiceFunction', () => {
  it('runs Node.js 22 on arm64, traced, logging JSON to a log group of its own kept a month', () => {
    const { stack } = bareStack();
    const fn = new ServiceFunction(stack, {
      handler,
      description: 'a function',
      sizing: undefined,
      environment: { GREETING: 'hello' },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const template = Template.fromStack(stack);
    const { Properties } = resourceOf(template, fn);
    assert.equal(Properties.Runtime, 'nodejs22.x');
    assert.deepEqual(Properties.Architectures, ['arm64']);
    assert.deepEqual(Properties.TracingConfig, { Mode: 'Active' });
    // Its own environment, and the source maps its stack traces are read through.
    assert.deepEqual(Properties.Environment.Variables, { GREETING: 'hello', NODE_OPTIONS: '--enable-source-maps' });
    assert.equal(Properties.LoggingConfig.LogFormat, 'JSON');
    const logGroupId = Properties.LoggingConfig.LogGroup.Ref;
    const logGroup = template.toJSON().Resources[logGroupId];
    assert.equal(logGroup.Type, 'AWS::Logs::LogGroup');
    assert.equal(logGroup.Properties.RetentionInDays, 30);
    assert.equal(logGroup.DeletionPolicy, 'Delete');
  });

  it('takes its name from its handler, and its log group is named after it, beside it', () => {
    const { stack } = bareStack();
    const fn = new ServiceFunction(stack, {
      handler,
      description: 'a function',
      sizing: undefined,
      environment: {},
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const name = functionName({ handler });
    assert.equal(fn.node.id, name);
    assert.match(idOf(fn), new RegExp(`^${name}[0-9A-F]{8}$`));
    const logGroupId = resourceOf(Template.fromStack(stack), fn).Properties.LoggingConfig.LogGroup.Ref;
    assert.match(logGroupId, new RegExp(`^${name}Logs[0-9A-F]{8}$`));
    assert.equal(Template.fromStack(stack).toJSON().Resources[logGroupId].DeletionPolicy, 'Retain');
  });

  it('is sized as asked, else 256 MB and 10 s', () => {
    const { stack } = bareStack();
    const sized = new ServiceFunction(stack, {
      handler,
      description: 'sized',
      sizing: { memoryMb: 1024, timeoutSeconds: 45, reservedConcurrency: 2 },
      environment: {},
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const unsized = new ServiceFunction(stack, {
      handler: routeList[1]!.handler,
      description: 'default',
      sizing: undefined,
      environment: {},
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const template = Template.fromStack(stack);
    const sizedProperties = resourceOf(template, sized).Properties;
    assert.deepEqual([sizedProperties.MemorySize, sizedProperties.Timeout, sizedProperties.ReservedConcurrentExecutions], [1024, 45, 2]);
    const unsizedProperties = resourceOf(template, unsized).Properties;
    assert.deepEqual(
      [unsizedProperties.MemorySize, unsizedProperties.Timeout, unsizedProperties.ReservedConcurrentExecutions],
      [256, 10, undefined],
    );
  });

  it('runs with a role of its own that may write to its log group and to no other: no AWSLambdaBasicExecutionRole', () => {
    const { stack } = bareStack();
    const fn = new ServiceFunction(stack, {
      handler,
      description: 'own role',
      sizing: undefined,
      environment: {},
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const template = Template.fromStack(stack);
    const { Properties } = resourceOf(template, fn);
    const roleId = Properties.Role['Fn::GetAtt'][0];
    assert.match(roleId, new RegExp(`^${functionName({ handler })}Role[0-9A-F]{8}$`));
    assert.equal(template.toJSON().Resources[roleId].Properties.ManagedPolicyArns, undefined);
    const logging = statementsOfRole(template, roleId).filter((s) => [s.Action].flat().some((action) => action.startsWith('logs:')));
    assert.deepEqual(
      logging.map((s) => [s.Action, s.Resource]),
      [[['logs:CreateLogStream', 'logs:PutLogEvents'], { 'Fn::GetAtt': [Properties.LoggingConfig.LogGroup.Ref, 'Arn'] }]],
    );
  });

  it('runs with the role it is given, making none of its own', () => {
    const { stack } = bareStack();
    const role = new iam.Role(stack, 'Shared', { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    const fn = new ServiceFunction(stack, {
      handler,
      description: 'shared role',
      sizing: undefined,
      environment: {},
      removalPolicy: RemovalPolicy.DESTROY,
      role,
    });
    const template = Template.fromStack(stack);
    assert.deepEqual(resourceOf(template, fn).Properties.Role, { 'Fn::GetAtt': [idOf(role), 'Arn'] });
    const lambdaRoles = Object.values(template.findResources('AWS::IAM::Role')).filter((r: any) =>
      JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
    );
    assert.equal(lambdaRoles.length, 1);
  });
});
