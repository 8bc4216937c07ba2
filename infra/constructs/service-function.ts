/**
 * A Lambda function of the service, built from its file under functions/: Node.js 22 on arm64,
 * active tracing, JSON logs into a log group of its own kept a month, bundled by esbuild with the
 * AWS SDK inside.
 *
 * Its construct id is its handler's function name (`mapping-jobs/chunk` → MappingJobsChunk), which
 * infra/synth.ts finds bundles by. Its log group is its sibling, `<name>Logs`, not its child: a
 * resource's logical id follows its construct path, and one that changes makes CloudFormation
 * replace the log group, and its logs with it. Without a shared role it runs with one of its own,
 * `<name>Role`, which may write to its log group and to no other (CDK's default role would carry
 * AWSLambdaBasicExecutionRole, which writes to every log group of the account); whoever shares a
 * role grants it each sharing function's log group.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DEFAULT_LAMBDA, functionName } from '../../shared/platform/http/route';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

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

export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, { handler, description, sizing, environment, removalPolicy, role }: ServiceFunctionProps) {
    const name = functionName({ handler });
    const logGroup = new logs.LogGroup(scope, `${name}Logs`, { retention: logs.RetentionDays.ONE_MONTH, removalPolicy });
    const ownRole = role ? undefined : new iam.Role(scope, `${name}Role`, { assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'), description: `Runs ${handler}` });
    super(scope, name, {
      entry: join(ROOT, 'functions', `${handler}.ts`),
      handler: 'handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: sizing?.memoryMb ?? DEFAULT_LAMBDA.memoryMb,
      timeout: Duration.seconds(sizing?.timeoutSeconds ?? DEFAULT_LAMBDA.timeoutSeconds),
      reservedConcurrentExecutions: sizing?.reservedConcurrency,
      description,
      environment,
      role: role ?? ownRole,
      tracing: lambda.Tracing.ACTIVE,
      loggingFormat: lambda.LoggingFormat.JSON,
      logGroup,
      depsLockFilePath: join(ROOT, 'package-lock.json'),
      projectRoot: ROOT,
      bundling: {
        minify: true,
        sourceMap: true,
        target: 'node22',
        format: OutputFormat.CJS,
        // Prefer a package's ES module build: esbuild follows its static imports into the bundle, where
        // a UMD build's requires inside its factory are left for run time, when no node_modules exist.
        mainFields: ['module', 'main'],
        // Bundle the AWS SDK too: pinned versions, and a smaller cold start than the runtime's copy.
        externalModules: [],
        commandHooks: ASSET_COPIES[handler],
      },
    });
    ownRole?.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...LOG_WRITING_ACTIONS], resources: [logGroup.logGroupArn] }));
  }
}

/** Functions that serve files from beside their bundle: the commands that copy the files there. */
const ASSET_COPIES: Record<string, { beforeBundling(): string[]; beforeInstall(): string[]; afterBundling(inputDir: string, outputDir: string): string[] }> = {
  // swagger-ui's files.
  'docs/asset': {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) =>
      ['swagger-ui-bundle.js', 'swagger-ui.css'].map((file) => `cp "${inputDir}/node_modules/swagger-ui-dist/${file}" "${outputDir}/${file}"`),
  },
  // The review console's page files, as shared/console/endpoints.ts finds them in Lambda.
  'console/asset': {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => [`mkdir -p "${outputDir}/console"`, `cp "${inputDir}"/shared/console/page/*.js "${inputDir}"/shared/console/page/*.css "${outputDir}/console/"`],
  },
};
