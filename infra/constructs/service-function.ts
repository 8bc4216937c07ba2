/**
 * A Lambda function of the service, built from its file under functions/: Node.js 22 on arm64,
 * active tracing, JSON logs into a log group of its own kept a month, its code the bundle esbuild
 * made of it with every other function's (function-bundles.ts), the AWS SDK inside.
 *
 * Its construct id is its handler's function name (`mapping-jobs/chunk` → MappingJobsChunk), which
 * infra/synth.ts finds bundles by. Its log group is its sibling, `<name>Logs`, not its child: a
 * resource's logical id follows its construct path, and one that changes makes CloudFormation
 * replace the log group, and its logs with it. Without a shared role it runs with one of its own,
 * `<name>Role`, which may write to its log group and to no other (CDK's default role would carry
 * AWSLambdaBasicExecutionRole, which writes to every log group of the account); whoever shares a
 * role grants it each sharing function's log group.
 */
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DEFAULT_LAMBDA, functionName } from '../../shared/platform/http/route';
import { functionCode } from './function-bundles';

/** What a function needs of its log group: its log group exists already, so no CreateLogGroup. */
export const LOG_WRITING_ACTIONS = ['logs:CreateLogStream', 'logs:PutLogEvents'] as const;

export interface ServiceFunctionProps {
  /** The function file under functions/, without extension. */
  handler: string;
  description: string;
  /** Memory, timeout and reserved concurrency; unset ones take DEFAULT_LAMBDA's (none reserved). */
  sizing: { memoryMb?: number; timeoutSeconds?: number; reservedConcurrency?: number } | undefined;
  environment: Record<string, string>;
  /** What deleting the stack does to the function's log group. */
  removalPolicy: RemovalPolicy;
  /** A shared role, which its sharer lets write to this function's log group; none: the function gets a role of its own. */
  role?: iam.IRole;
}

export class ServiceFunction extends lambda.Function {
  constructor(scope: Construct, { handler, description, sizing, environment, removalPolicy, role }: ServiceFunctionProps) {
    const name = functionName({ handler });
    const logGroup = new logs.LogGroup(scope, `${name}Logs`, { retention: logs.RetentionDays.ONE_MONTH, removalPolicy });
    const ownRole = role
      ? undefined
      : new iam.Role(scope, `${name}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description: `Runs ${handler}` });
    super(scope, name, {
      code: functionCode(handler),
      handler: 'index.handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: sizing?.memoryMb ?? DEFAULT_LAMBDA.memoryMb,
      timeout: Duration.seconds(sizing?.timeoutSeconds ?? DEFAULT_LAMBDA.timeoutSeconds),
      reservedConcurrentExecutions: sizing?.reservedConcurrency,
      description,
      // Stack traces name the source files and lines, through the bundle's source map.
      environment: { ...environment, NODE_OPTIONS: '--enable-source-maps' },
      role: role ?? ownRole,
      tracing: lambda.Tracing.ACTIVE,
      loggingFormat: lambda.LoggingFormat.JSON,
      logGroup,
    });
    ownRole?.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...LOG_WRITING_ACTIONS], resources: [logGroup.logGroupArn] }));
  }
}
