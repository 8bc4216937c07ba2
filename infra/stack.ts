/**
 * The whole service as one stack: the single table, the private bucket, the token signing secret,
 * the REST API with one Lambda function per route of the route table, and for each queue of the
 * queue table an SQS queue, its dead-letter queue, an alarm on it, and the worker functions; the
 * table's stream feeds the outbox relay.
 * Environment-agnostic (no account, region or lookups), so `cdk synth` needs no credentials.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, Duration, NestedStack, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { EXPORTS_PREFIX, mappingChunkQueue } from '../shared/mapping-jobs';
import type { ResourceAccess } from '../shared/platform/access';
import { EVENT_RELAY } from '../shared/platform/events/relay';
import { EXPIRE_TAG } from '../shared/platform/objects/s3-object-store';
import { queueArnVariable, queueUrlVariable, settingsEnvironment } from '../shared/platform/config';
import { visibilityTimeoutSeconds, type QueueDefinition } from '../shared/platform/queue/queue';
import { queueList } from '../shared/queues';
import { routeList } from '../shared/routes';
import { errorBody } from '../shared/platform/http/errors';
import {
  BINARY_MEDIA_TYPES,
  DEFAULT_LAMBDA,
  functionName,
  needsSigningSecret,
  type RouteDefinition,
} from '../shared/platform/http/route';
import { TABLE_KEYS } from '../shared/platform/table';
import { SERVICE_NAME } from '../shared/platform/metrics';
import { acknowledgeAcceptedFindings } from './nag-acknowledgements';
import { alarmTopic, notify, Observability } from './observability';
import { LOCAL_PRICE_IDS, priceIdEnvironment, type ProviderPriceIds } from '../shared/billing';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface HotelMappingStackProps extends StackProps {
  /** Stage name: the API stage and part of resource names. */
  stage: string;
  /** Keep the table and bucket when the stack is deleted (production). */
  retainData?: boolean;
  /**
   * The stage's Stripe price and product ids. Default: context `stripePriceIds.<stage>`
   * (cdk.json or -c), else the local placeholders (README, Billing).
   */
  priceIds?: ProviderPriceIds;
  /** Where alarms are sent. Default: context `alarmEmail` (`cdk deploy -c alarmEmail=…`); none, no subscription. */
  alarmEmail?: string;
}

export class HotelMappingStack extends Stack {
  readonly table: dynamodb.Table;
  readonly bucket: s3.Bucket;
  readonly api: apigateway.RestApi;
  readonly functions = new Map<string, NodejsFunction>();
  readonly queues = new Map<string, { queue: sqs.Queue; deadLetters: sqs.Queue }>();
  /**
   * The queues, their workers, alarms and the scheduler, in a nested stack: the API's functions
   * alone fill most of CloudFormation's 500 resources a stack may hold.
   */
  readonly workers: NestedStack;
  /** The route functions, their roles and log groups: a nested stack, so the API stack keeps room to grow. */
  readonly routeFunctions: NestedStack;
  readonly schedulerRole: iam.Role;
  /** Encrypts partner secrets (webhook signing secrets, partner API key values) in the table. */
  readonly secretsKey: kms.Key;
  readonly scheduleGroup: scheduler.ScheduleGroup;
  /** Named, not referenced: grants in every nested stack name the same ARN. */
  readonly scheduleGroupName: string;
  /** The dashboard and the alarms on the API, the chunk queue and the webhook deliveries. */
  readonly observability: Observability;
  /** Every alarm of the service publishes here. */
  readonly alarmTopic: sns.Topic;
  /** The dead-letter and relay-failure alarms, sent to the alarm topic. */
  private readonly queueAlarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: HotelMappingStackProps) {
    super(scope, id, props);
    const removalPolicy = props.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
      // New event items reach the outbox relay through the stream (shared/platform/events).
      stream: dynamodb.StreamViewType.NEW_IMAGE,
      removalPolicy,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: TABLE_KEYS.gsi1.name,
      partitionKey: { name: TABLE_KEYS.gsi1.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.gsi1.sortKey, type: dynamodb.AttributeType.STRING },
    });

    const accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy,
      autoDeleteObjects: !props.retainData,
    });
    this.bucket = new s3.Bucket(this, 'Files', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'files/',
      lifecycleRules: [
        // Retired matching indexes: mapping jobs that pinned them get a day to finish.
        { id: 'ExpireTagged', tagFilters: { [EXPIRE_TAG.key]: EXPIRE_TAG.value }, expiration: Duration.days(1) },
        { id: 'ExpireExports', prefix: EXPORTS_PREFIX, expiration: Duration.days(7) },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      removalPolicy,
      autoDeleteObjects: !props.retainData,
    });

    this.secretsKey = new kms.Key(this, 'PartnerSecretsKey', {
      description: 'Encrypts partner secrets kept in the table: webhook signing secrets and partner API key values',
      enableKeyRotation: true,
      removalPolicy,
    });

    const signingSecret = new secretsmanager.Secret(this, 'TokenSigningSecret', {
      description: 'HS256 key that signs bearer tokens issued by POST /api/v1/auth/token',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });

    // Filled by the platform team after deploying (README, Billing); read only by the functions
    // that call Stripe or verify its webhooks.
    const paymentSecret = new secretsmanager.Secret(this, 'PaymentProviderSecret', {
      description: 'Stripe keys as JSON {"secretKey": "sk_...", "webhookSecret": "whsec_..."}; set after deploying',
    });
    const stagePriceIds = this.node.tryGetContext('stripePriceIds') as Record<string, ProviderPriceIds> | undefined;
    const priceIds = props.priceIds ?? stagePriceIds?.[props.stage] ?? LOCAL_PRICE_IDS;

    const apiLogs = new logs.LogGroup(this, 'ApiAccessLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy });
    this.api = new apigateway.RestApi(this, 'Api', {
      restApiName: `hotel-mapping-${props.stage}`,
      description: 'Hotel mapping and billing API',
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new apigateway.LogGroupLogDestination(apiLogs),
        accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: apigateway.MethodLoggingLevel.ERROR,
        tracingEnabled: true,
        // Per-method metrics: the dashboard's latency by route group.
        metricsEnabled: true,
        throttlingRateLimit: 100,
        throttlingBurstLimit: 200,
      },
      cloudWatchRole: true,
    });
    this.addGatewayResponses();

    // Queues first: the functions that send to them need their URLs.
    this.workers = new NestedStack(this, 'Workers', { description: 'Queues, dead-letter queues, alarms and queue workers' });
    this.scheduleGroupName = `hotel-mapping-${props.stage}`;
    this.scheduleGroup = new scheduler.ScheduleGroup(this.workers, 'Schedules', { scheduleGroupName: this.scheduleGroupName });
    this.schedulerRole = new iam.Role(this.workers, 'SchedulerRole', {
      assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com'),
      description: 'EventBridge Scheduler sends one-time deliveries to the queues with this role',
    });
    for (const definition of queueList) this.addQueue(definition);

    this.routeFunctions = new NestedStack(this, 'Functions', { description: "One Lambda function per route, with its role and log group" });

    // Each function gets only the settings its route or queue declares (shared/platform/config.ts).
    const environmentOf = (access: ResourceAccess, credentialed: boolean): Record<string, string> => ({
      LOG_LEVEL: 'info',
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      NODE_OPTIONS: '--enable-source-maps',
      ...settingsEnvironment({
        stage: props.stage,
        tableName: access.table !== 'none' ? this.table.tableName : undefined,
        bucketName: access.bucket ? this.bucket.bucketName : undefined,
        schedulerGroupName: access.schedules?.length ? this.scheduleGroup.scheduleGroupName : undefined,
        schedulerRoleArn: access.schedules?.length ? this.schedulerRole.roleArn : undefined,
        secretsKeyArn: access.secrets ? this.secretsKey.keyArn : undefined,
        tokenSigningSecretArn: credentialed ? signingSecret.secretArn : undefined,
        paymentSecretArn: access.paymentSecret ? paymentSecret.secretArn : undefined,
      }),
      ...Object.fromEntries((access.sendsTo ?? []).map((name) => [queueUrlVariable(name), this.queueNamed(name).queue.queueUrl])),
      ...Object.fromEntries((access.schedules ?? []).map((name) => [queueArnVariable(name), this.queueNamed(name).queue.queueArn])),
      ...((access.paymentSecret || access.priceIds) && priceIdEnvironment(priceIds)),
    });
    // Routes that declare the same access share one role with exactly that access: least privilege
    // per function, and a stack that stays within CloudFormation's 500 resources.
    const roles = new Map<string, iam.Role>();
    const roleFor = (route: RouteDefinition): iam.Role => {
      const credentialed = needsSigningSecret(route);
      const profile = JSON.stringify({ ...route.access, credentialed });
      let role = roles.get(profile);
      if (!role) {
        role = new iam.Role(this.routeFunctions, `RouteRole${roles.size + 1}`, {
          assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
          description: `Functions of routes that may touch: ${profile}`,
          managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
        });
        this.grantAccess(role, route.access);
        if (credentialed) signingSecret.grantRead(role);
        if (route.access.paymentSecret) paymentSecret.grantRead(role);
        roles.set(profile, role);
      }
      return role;
    };
    const methodsByPath = new Map<string, Set<string>>();
    for (const route of routeList) {
      const environment = environmentOf(route.access, needsSigningSecret(route));
      const fn = this.lambdaFunction({
        handler: route.handler,
        description: `${route.method} ${route.path}`,
        sizing: route.lambda,
        environment,
        removalPolicy,
        role: roleFor(route),
        scope: this.routeFunctions,
      });
      const resource = this.api.root.resourceForPath(route.path);
      // No test-invoke permission: one Lambda permission per method, not two.
      resource.addMethod(route.method, new apigateway.LambdaIntegration(fn, { allowTestInvoke: false }));
      const methods = methodsByPath.get(route.path) ?? new Set<string>();
      methodsByPath.set(route.path, methods.add(route.method));
    }
    for (const [path, methods] of methodsByPath) this.answerOtherMethods(path, methods);

    for (const definition of queueList) {
      const { queue, deadLetters } = this.queueNamed(definition.name);
      const environment = environmentOf(definition.access, false);
      const worker = this.lambdaFunction({
        handler: definition.handler,
        description: definition.description,
        sizing: definition.lambda,
        environment,
        removalPolicy,
        scope: this.workers,
      });
      this.grantAccess(worker, definition.access);
      worker.addEventSource(
        new SqsEventSource(queue, { batchSize: definition.batchSize, reportBatchItemFailures: true, maxConcurrency: definition.maxConcurrency }),
      );
      if (definition.deadLetterHandler) {
        const deadLetterAccess = definition.deadLetterAccess ?? definition.access;
        const handler = this.lambdaFunction({
          handler: definition.deadLetterHandler,
          description: `Dead letters of ${definition.name}`,
          sizing: { memoryMb: 256, timeoutSeconds: 30 },
          environment: environmentOf(deadLetterAccess, false),
          removalPolicy,
          scope: this.workers,
        });
        this.grantAccess(handler, deadLetterAccess);
        handler.addEventSource(new SqsEventSource(deadLetters, { batchSize: 10, reportBatchItemFailures: true }));
      }
    }

    this.addEventRelay(environmentOf(EVENT_RELAY.access, false), removalPolicy);

    this.alarmTopic = alarmTopic(this, props.stage, props.alarmEmail ?? (this.node.tryGetContext('alarmEmail') as string | undefined));
    for (const alarm of this.queueAlarms) notify(alarm, this.alarmTopic);
    this.observability = new Observability(this, 'Observability', {
      api: this.api,
      stage: props.stage,
      routes: routeList,
      queues: this.queues,
      chunkQueue: mappingChunkQueue.name,
      alarmTopic: this.alarmTopic,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL; endpoints are under api/v1' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'PaymentSecretArn', {
      value: paymentSecret.secretArn,
      description: 'Put the Stripe keys here after deploying (README, Billing)',
    });
    acknowledgeAcceptedFindings({ stack: this, table: this.table, bucket: this.bucket, accessLogs, nestedStacks: [this.workers, this.routeFunctions], stage: props.stage });
  }

  private lambdaFunction({ handler, description, sizing, environment, removalPolicy, role, scope = this }: FunctionSpec) {
    const name = functionName({ handler });
    const fn = new NodejsFunction(scope, name, {
      entry: join(ROOT, 'functions', `${handler}.ts`),
      handler: 'handler',
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: sizing?.memoryMb ?? DEFAULT_LAMBDA.memoryMb,
      timeout: Duration.seconds(sizing?.timeoutSeconds ?? DEFAULT_LAMBDA.timeoutSeconds),
      reservedConcurrentExecutions: sizing?.reservedConcurrency,
      description,
      environment,
      role,
      tracing: lambda.Tracing.ACTIVE,
      loggingFormat: lambda.LoggingFormat.JSON,
      logGroup: new logs.LogGroup(scope, `${name}Logs`, { retention: logs.RetentionDays.ONE_MONTH, removalPolicy }),
      depsLockFilePath: join(ROOT, 'package-lock.json'),
      projectRoot: ROOT,
      bundling: {
        minify: true,
        sourceMap: true,
        target: 'node22',
        format: OutputFormat.CJS,
        // Bundle the AWS SDK too: pinned versions, and a smaller cold start than the runtime's copy.
        externalModules: [],
        commandHooks: handler === 'docs/asset' ? copyDocsAssets : undefined,
      },
    });
    this.functions.set(handler, fn);
    return fn;
  }

  /**
   * A queue of the queue table, with its dead-letter queue (14 days' retention) and an alarm as
   * soon as anything is dead-lettered.
   */
  private addQueue(definition: QueueDefinition) {
    const id = functionName({ handler: definition.name });
    const deadLetters = new sqs.Queue(this.workers, `${id}DeadLetters`, {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    const queue = new sqs.Queue(this.workers, `${id}Queue`, {
      visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(definition)),
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: deadLetters, maxReceiveCount: definition.maxReceiveCount },
    });
    this.alarmOnAnyMessage(`${id}DeadLettersAlarm`, deadLetters, `Messages of ${definition.name} were dead-lettered: ${definition.description}`);
    this.queues.set(definition.name, { queue, deadLetters });
  }

  private queueNamed(name: string) {
    const found = this.queues.get(name);
    if (!found) throw new Error(`No queue named ${name} in the queue table.`);
    return found;
  }

  /** Exactly the access the route or queue declares. */
  private grantAccess(fn: iam.IGrantable, access: ResourceAccess) {
    if (access.table === 'read') this.table.grantReadData(fn);
    if (access.table === 'readwrite') this.table.grantReadWriteData(fn);
    const objects = this.bucket.arnForObjects('*');
    // Objects are only ever fetched by key: no listing, no wildcard actions.
    if (access.bucket === 'read' || access.bucket === 'readwrite') {
      fn.grantPrincipal.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [objects] }));
    }
    if (access.bucket === 'write' || access.bucket === 'readwrite') this.bucket.grantPut(fn);
    if (access.bucket === 'readwrite') {
      fn.grantPrincipal.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:DeleteObject', 's3:PutObjectTagging'], resources: [objects] }));
    }
    for (const name of access.sendsTo ?? []) this.queueNamed(name).queue.grantSendMessages(fn);
    // Exactly Encrypt or Decrypt on the one key: the CDK's grants would add ReEncrypt* and GenerateDataKey*.
    const kmsActions = { seal: ['kms:Encrypt'], open: ['kms:Decrypt'], both: ['kms:Encrypt', 'kms:Decrypt'] } as const;
    if (access.secrets) {
      fn.grantPrincipal.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [...kmsActions[access.secrets]], resources: [this.secretsKey.keyArn] }));
    }
    if (access.schedules?.length) {
      for (const name of access.schedules) this.queueNamed(name).queue.grantSendMessages(this.schedulerRole);
      fn.grantPrincipal.addToPrincipalPolicy(
        new iam.PolicyStatement({
          actions: ['scheduler:CreateSchedule'],
          resources: [this.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${this.scheduleGroupName}/*` })],
        }),
      );
      this.schedulerRole.grantPassRole(fn.grantPrincipal);
    }
  }

  /**
   * The outbox relay: fed by the table's stream, filtered to new event items, in order (no
   * bisecting), retried until the queue takes each event; a batch still failing after a day (the
   * stream's retention) goes to a failure queue, alarmed.
   */
  private addEventRelay(environment: Record<string, string>, removalPolicy: RemovalPolicy) {
    const relay = this.lambdaFunction({
      handler: EVENT_RELAY.handler,
      description: EVENT_RELAY.description,
      sizing: EVENT_RELAY.lambda,
      environment,
      removalPolicy,
      scope: this.workers,
    });
    this.grantAccess(relay, EVENT_RELAY.access);
    const failures = new sqs.Queue(this.workers, 'EventRelayFailures', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    relay.addEventSource(
      new DynamoEventSource(this.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: EVENT_RELAY.batchSize,
        reportBatchItemFailures: true,
        bisectBatchOnError: false,
        retryAttempts: 10_000,
        maxRecordAge: Duration.days(1),
        onFailure: new SqsDlq(failures),
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.isEqual(EVENT_RELAY.filter.eventName),
            dynamodb: { Keys: { SK: { S: lambda.FilterRule.beginsWith(EVENT_RELAY.filter.sortKeyPrefix) } } },
          }),
        ],
      }),
    );
    Validations.of(failures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: "It is the stream event source's failure destination, a dead-letter queue of its own; nothing consumes it but an operator.",
    });
    this.alarmOnAnyMessage('EventRelayFailuresAlarm', failures, 'Events recorded in the table could not be relayed to the domain-events queue for a day');
  }

  /** An alarm as soon as a queue of things that went wrong holds a message. */
  private alarmOnAnyMessage(id: string, queue: sqs.Queue, description: string) {
    this.queueAlarms.push(new cloudwatch.Alarm(this.workers, id, {
      alarmDescription: description,
      metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    }));
  }

  /** A known path with an unknown method answers 405 {error, message}, as the local runtime does. */
  private answerOtherMethods(path: string, methods: Set<string>) {
    const body = JSON.stringify(errorBody(405, `This method is not allowed here. Allowed: ${[...methods].join(', ')}.`));
    this.api.root.resourceForPath(path).addMethod(
      'ANY',
      new apigateway.MockIntegration({
        requestTemplates: { 'application/json': '{"statusCode": 405}' },
        integrationResponses: [
          {
            statusCode: '405',
            responseTemplates: { 'application/json': body },
            responseParameters: { 'method.response.header.Allow': `'${[...methods].join(', ')}'` },
          },
        ],
        passthroughBehavior: apigateway.PassthroughBehavior.NEVER,
      }),
      { methodResponses: [{ statusCode: '405', responseParameters: { 'method.response.header.Allow': true } }] },
    );
  }

  /** API Gateway's own errors answer {error, message} like every handler. */
  private addGatewayResponses() {
    const respond = (id: string, type: apigateway.ResponseType, status: number | undefined, message?: string) =>
      this.api.addGatewayResponse(id, {
        type,
        ...(status && { statusCode: String(status) }),
        responseHeaders: { 'Content-Type': "'application/json'" },
        templates: {
          'application/json': message
            ? JSON.stringify(errorBody(status!, message))
            : `{"error": "$context.error.responseType", "message": $context.error.messageString}`,
        },
      });
    respond('UnknownRoute', apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN, 404, 'No endpoint at this path.');
    respond('Unauthorized', apigateway.ResponseType.UNAUTHORIZED, 401, 'Missing or invalid credential.');
    respond('AccessDenied', apigateway.ResponseType.ACCESS_DENIED, 403, 'This credential may not do this.');
    respond('Throttled', apigateway.ResponseType.THROTTLED, 429, 'Too many requests. Slow down and retry shortly.');
    respond('TooLarge', apigateway.ResponseType.REQUEST_TOO_LARGE, 413, 'The request body exceeds 10 MB.');
    respond('UnsupportedType', apigateway.ResponseType.UNSUPPORTED_MEDIA_TYPE, 415, 'Unsupported content type.');
    respond('Timeout', apigateway.ResponseType.INTEGRATION_TIMEOUT, 504, 'The request took too long. Retry shortly.');
    respond('Default4xx', apigateway.ResponseType.DEFAULT_4XX, 400, 'The request could not be processed.');
    respond('Default5xx', apigateway.ResponseType.DEFAULT_5XX, 500, 'An unexpected error occurred.');
  }
}

/** One function of the stack: its entry under functions/, sizing, settings, role and nested stack. */
interface FunctionSpec {
  /** The function file under functions/, without extension. */
  handler: string;
  description: string;
  sizing: { memoryMb?: number; timeoutSeconds?: number; reservedConcurrency?: number } | undefined;
  environment: Record<string, string>;
  removalPolicy: RemovalPolicy;
  /** A shared role; none: the function gets a role of its own. */
  role?: iam.IRole;
  scope?: Construct;
}

/** The docs/asset function serves swagger-ui's files from beside its bundle. */
const copyDocsAssets = {
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir: string, outputDir: string) =>
    ['swagger-ui-bundle.js', 'swagger-ui.css'].map(
      (file) => `cp "${inputDir}/node_modules/swagger-ui-dist/${file}" "${outputDir}/${file}"`,
    ),
};
