/**
 * The service's REST API: access logs kept a month, X-Ray, a stage-wide throttle with lower ones on
 * the methods that are dear to answer, answers compressed for clients that accept it, per-method metrics only where the dashboard draws them,
 * multipart and other binary bodies passed as binary, and API Gateway's own errors answering
 * {error, message} like every handler. Routes add their methods (RouteFunction); then
 * answerOtherMethods makes each routed path answer 405 to any other method; serveAt adds a custom
 * domain. Its access log group is its sibling, `<id>AccessLogs`.
 */
import { Size, type RemovalPolicy } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as xray from 'aws-cdk-lib/aws-xray';
import type { Construct } from 'constructs';
import { errorBody } from '../../shared/platform/http/errors';
import {
  BINARY_MEDIA_TYPES,
  MINIMUM_COMPRESSION_BYTES,
  ORGANIZATION_SHARE_OF_A_ROUTE,
  organizationShareOfRoute,
  type MethodThrottle,
  type RouteDefinition,
} from '../../shared/platform/http/route';

export interface HotelMappingApiProps {
  /** The API stage, and part of the API's name. */
  stage: string;
  /** What deleting the stack does to the access logs. */
  removalPolicy: RemovalPolicy;
  /** Every route: one with a `throttle` gets its own limit on the stage. */
  routes: readonly RouteDefinition[];
  /** The routes whose methods publish API Gateway's per-method metrics (the dashboard draws them). */
  measuredRoutes: readonly Pick<RouteDefinition, 'method' | 'path'>[];
}

/**
 * Every method's limit, over all callers together, unless its route sets a lower one: the account's
 * ceiling, far above one organization's share a second (ORGANIZATION_REQUESTS_PER_SECOND), so that
 * tenants meet their own limits, not each other's.
 */
export const STAGE_THROTTLE: MethodThrottle = { ratePerSecond: 1_000, burst: 2_000 };

/** The stage's logging level, on every method. */
const LOGGING_LEVEL = apigateway.MethodLoggingLevel.ERROR;

/** A custom domain name the API answers on, with its certificate (ACM, in the stack's region). */
export interface CustomDomain {
  domainName: string;
  certificateArn: string;
}

/**
 * The TLS the API and its custom domain accept: TLS 1.3, and TLS 1.2 with forward-secret ciphers
 * only, with post-quantum key exchange offered; the newest regional policy that still admits TLS
 * 1.2 clients. Strict: a connection must name the host it asks for (SNI).
 */
/**
 * Which API requests X-Ray traces: the gateway decides at the entry and the functions follow it. A
 * reservoir of one request a second keeps a trace of every route that is used, and 1 % of the rest
 * (X-Ray's default is 5 %) is enough to see latency by route: at 5 USD a million traces recorded,
 * 0.05 USD a million requests. (Queue workers are sampled by Lambda at its own fixed rate: one
 * invocation a second and 5 % of the rest; it takes no rule.)
 */
export const API_TRACE_SAMPLING = { reservoirPerSecond: 1, fixedRate: 0.01 } as const;

export const SECURITY_POLICY = apigateway.SecurityPolicy.TLS13_1_2_PFS_PQ_2025_09;
const ENDPOINT_ACCESS_MODE = apigateway.EndpointAccessMode.STRICT;

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]+$/;

/**
 * Context `domainName` and `certificateArn`: both or neither. Undefined when neither is given; a
 * half or a malformed value is refused with what to give.
 */
export function customDomainSetting(domainName: unknown, certificateArn: unknown): CustomDomain | undefined {
  if (domainName === undefined && certificateArn === undefined) return undefined;
  if (domainName === undefined || certificateArn === undefined) {
    throw new Error(
      "A custom domain needs both -c domainName=api.example.com and -c certificateArn=arn:aws:acm:<region>:<account>:certificate/<id> (a certificate for that name in the stack's region), or neither.",
    );
  }
  if (typeof domainName !== 'string' || !HOSTNAME.test(domainName)) {
    throw new Error(`domainName must be a lower-case host name such as api.example.com, not ${JSON.stringify(domainName)}.`);
  }
  if (typeof certificateArn !== 'string' || !CERTIFICATE_ARN.test(certificateArn)) {
    throw new Error(
      `certificateArn must be an ACM certificate ARN (arn:aws:acm:<region>:<account>:certificate/<id>), not ${JSON.stringify(certificateArn)}.`,
    );
  }
  return { domainName, certificateArn };
}

/**
 * The stage's per-method settings: a route's own throttle, and metrics on the measured ones. Each
 * entry states every setting, so that a method never depends on what API Gateway fills in.
 */
export function methodOptions(
  routes: readonly RouteDefinition[],
  measuredRoutes: readonly Pick<RouteDefinition, 'method' | 'path'>[],
): Record<string, apigateway.MethodDeploymentOptions> {
  const keyOf = ({ path, method }: Pick<RouteDefinition, 'method' | 'path'>) => `${path}/${method}`;
  const measured = new Set(measuredRoutes.map(keyOf));
  const options: Record<string, apigateway.MethodDeploymentOptions> = {};
  for (const route of routes) {
    const { throttle } = route;
    if (throttle && (throttle.ratePerSecond > STAGE_THROTTLE.ratePerSecond || throttle.burst > STAGE_THROTTLE.burst)) {
      throw new Error(
        `${route.method} ${route.path}: its throttle (${throttle.ratePerSecond}/s, burst ${throttle.burst}) is above the stage's, which is the ceiling.`,
      );
    }
    if (throttle && route.auth !== 'none' && organizationShareOfRoute(throttle) > throttle.ratePerSecond * ORGANIZATION_SHARE_OF_A_ROUTE) {
      throw new Error(
        `${route.method} ${route.path}: its throttle (${throttle.ratePerSecond}/s) is too low for one organization's share of it (one request a second, at most ${ORGANIZATION_SHARE_OF_A_ROUTE} of it).`,
      );
    }
    if (!throttle && !measured.has(keyOf(route))) continue;
    const { ratePerSecond, burst } = throttle ?? STAGE_THROTTLE;
    options[keyOf(route)] = {
      loggingLevel: LOGGING_LEVEL,
      dataTraceEnabled: false,
      metricsEnabled: measured.has(keyOf(route)),
      throttlingRateLimit: ratePerSecond,
      throttlingBurstLimit: burst,
    };
  }
  return options;
}

/**
 * The gateway's own answers carry its request id as X-Request-Id, as a function answers it when the
 * caller sent none (platform/correlation.ts): a gateway response cannot choose between the two.
 */
const REQUEST_ID_RESPONSE_HEADER = 'X-Request-Id';
const GATEWAY_REQUEST_ID = 'context.requestId';

/** API Gateway's own errors, each with its status and message. */
const GATEWAY_ERRORS: readonly { id: string; type: apigateway.ResponseType; status: number; message: string }[] = [
  { id: 'UnknownRoute', type: apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN, status: 404, message: 'No endpoint at this path.' },
  { id: 'Unauthorized', type: apigateway.ResponseType.UNAUTHORIZED, status: 401, message: 'Missing or invalid credential.' },
  { id: 'AccessDenied', type: apigateway.ResponseType.ACCESS_DENIED, status: 403, message: 'This credential may not do this.' },
  {
    id: 'FirewallRefused',
    type: apigateway.ResponseType.WAF_FILTERED,
    status: 403,
    message: "The request was refused by the API's web application firewall.",
  },
  { id: 'Throttled', type: apigateway.ResponseType.THROTTLED, status: 429, message: 'Too many requests. Slow down and retry shortly.' },
  { id: 'QuotaExceeded', type: apigateway.ResponseType.QUOTA_EXCEEDED, status: 429, message: 'The request quota is used up. Retry later.' },
  { id: 'TooLarge', type: apigateway.ResponseType.REQUEST_TOO_LARGE, status: 413, message: 'The request body exceeds 10 MB.' },
  { id: 'UnsupportedType', type: apigateway.ResponseType.UNSUPPORTED_MEDIA_TYPE, status: 415, message: 'Unsupported content type.' },
  { id: 'Timeout', type: apigateway.ResponseType.INTEGRATION_TIMEOUT, status: 504, message: 'The request took too long. Retry shortly.' },
  { id: 'Default4xx', type: apigateway.ResponseType.DEFAULT_4XX, status: 400, message: 'The request could not be processed.' },
  { id: 'Default5xx', type: apigateway.ResponseType.DEFAULT_5XX, status: 500, message: 'An unexpected error occurred.' },
];

export class HotelMappingApi extends apigateway.RestApi {
  constructor(scope: Construct, id: string, { stage, removalPolicy, routes, measuredRoutes }: HotelMappingApiProps) {
    const accessLogs = new logs.LogGroup(scope, `${id}AccessLogs`, { retention: logs.RetentionDays.ONE_MONTH, removalPolicy });
    super(scope, id, {
      restApiName: `hotel-mapping-${stage}`,
      description: 'Hotel mapping and billing API',
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      minCompressionSize: Size.bytes(MINIMUM_COMPRESSION_BYTES),
      // Regional: the web ACL sees each caller's own address (an edge-optimized API reaches it
      // through CloudFront), and the API and its custom domain share one TLS policy.
      endpointTypes: [apigateway.EndpointType.REGIONAL],
      deployOptions: {
        stageName: stage,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
        accessLogFormat: apigateway.AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: LOGGING_LEVEL,
        tracingEnabled: true,
        // Per-method metrics cost about five custom metrics per method: only the measured routes
        // publish them (methodOptions); the API's own totals need none.
        metricsEnabled: false,
        throttlingRateLimit: STAGE_THROTTLE.ratePerSecond,
        throttlingBurstLimit: STAGE_THROTTLE.burst,
        methodOptions: methodOptions(routes, measuredRoutes),
      },
      cloudWatchRole: true,
    });
    new xray.CfnSamplingRule(this, 'TraceSampling', {
      samplingRule: {
        ruleName: `hotel-mapping-${stage}`.slice(0, 32),
        // Before X-Ray's default rule (10000), which would otherwise sample 5 %.
        priority: 100,
        fixedRate: API_TRACE_SAMPLING.fixedRate,
        reservoirSize: API_TRACE_SAMPLING.reservoirPerSecond,
        serviceName: `hotel-mapping-${stage}/${stage}`,
        serviceType: 'AWS::ApiGateway::Stage',
        host: '*',
        httpMethod: '*',
        urlPath: '*',
        resourceArn: '*',
        version: 1,
      },
    });
    const restApi = this.node.defaultChild as apigateway.CfnRestApi;
    restApi.securityPolicy = SECURITY_POLICY;
    restApi.endpointAccessMode = ENDPOINT_ACCESS_MODE;
    for (const { id: responseId, type, status, message } of GATEWAY_ERRORS) {
      this.addGatewayResponse(responseId, {
        type,
        statusCode: String(status),
        responseHeaders: { 'Content-Type': "'application/json'", [REQUEST_ID_RESPONSE_HEADER]: GATEWAY_REQUEST_ID },
        templates: { 'application/json': JSON.stringify(errorBody(status, message)) },
      });
    }
  }

  /**
   * The API on a custom domain as well, at its root (`https://<domain>/api/v1/…`): a regional
   * domain name with the modern TLS policy. Its DNS record is left to whoever owns the zone: point
   * it at the domain's regional name (the stack's CustomDomainTarget output).
   */
  serveAt({ domainName, certificateArn }: CustomDomain): apigateway.DomainName {
    const domain = new apigateway.DomainName(this, 'CustomDomain', {
      domainName,
      certificate: acm.Certificate.fromCertificateArn(this, 'CustomDomainCertificate', certificateArn),
      endpointType: apigateway.EndpointType.REGIONAL,
      securityPolicy: SECURITY_POLICY,
      endpointAccessMode: ENDPOINT_ACCESS_MODE,
    });
    domain.addBasePathMapping(this, { stage: this.deploymentStage });
    return domain;
  }

  /**
   * A routed path answers 405 {error, message}, with an Allow header, to a method no route has, as
   * the local runtime does. Called once every route has its method.
   */
  answerOtherMethods(routes: readonly RouteDefinition[]): void {
    const methodsByPath = new Map<string, Set<string>>();
    for (const { path, method } of routes) methodsByPath.set(path, (methodsByPath.get(path) ?? new Set<string>()).add(method));
    for (const [path, methods] of methodsByPath) {
      const allowed = [...methods].join(', ');
      const body = JSON.stringify(errorBody(405, `This method is not allowed here. Allowed: ${allowed}.`));
      this.root.resourceForPath(path).addMethod(
        'ANY',
        new apigateway.MockIntegration({
          requestTemplates: { 'application/json': '{"statusCode": 405}' },
          integrationResponses: [
            {
              statusCode: '405',
              responseTemplates: { 'application/json': body },
              responseParameters: {
                'method.response.header.Allow': `'${allowed}'`,
                [`method.response.header.${REQUEST_ID_RESPONSE_HEADER}`]: GATEWAY_REQUEST_ID,
              },
            },
          ],
          passthroughBehavior: apigateway.PassthroughBehavior.NEVER,
        }),
        {
          methodResponses: [
            {
              statusCode: '405',
              responseParameters: { 'method.response.header.Allow': true, [`method.response.header.${REQUEST_ID_RESPONSE_HEADER}`]: true },
            },
          ],
        },
      );
    }
  }
}
