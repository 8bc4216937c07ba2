/**
 * The service's REST API: access logs kept a month, X-Ray, per-method metrics, throttling,
 * multipart and other binary bodies passed as binary, and API Gateway's own errors answering
 * {error, message} like every handler. Routes add their methods (RouteFunction); then
 * answerOtherMethods makes each routed path answer 405 to any other method. Its access log group
 * is its sibling, `<id>AccessLogs`.
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { errorBody } from '../../shared/platform/http/errors';
import { BINARY_MEDIA_TYPES, type RouteDefinition } from '../../shared/platform/http/route';

export interface HotelMappingApiProps {
  /** The API stage, and part of the API's name. */
  stage: string;
  /** What deleting the stack does to the access logs. */
  removalPolicy: RemovalPolicy;
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
  { id: 'Throttled', type: apigateway.ResponseType.THROTTLED, status: 429, message: 'Too many requests. Slow down and retry shortly.' },
  { id: 'TooLarge', type: apigateway.ResponseType.REQUEST_TOO_LARGE, status: 413, message: 'The request body exceeds 10 MB.' },
  { id: 'UnsupportedType', type: apigateway.ResponseType.UNSUPPORTED_MEDIA_TYPE, status: 415, message: 'Unsupported content type.' },
  { id: 'Timeout', type: apigateway.ResponseType.INTEGRATION_TIMEOUT, status: 504, message: 'The request took too long. Retry shortly.' },
  { id: 'Default4xx', type: apigateway.ResponseType.DEFAULT_4XX, status: 400, message: 'The request could not be processed.' },
  { id: 'Default5xx', type: apigateway.ResponseType.DEFAULT_5XX, status: 500, message: 'An unexpected error occurred.' },
];

export class HotelMappingApi extends apigateway.RestApi {
  constructor(scope: Construct, id: string, { stage, removalPolicy }: HotelMappingApiProps) {
    const accessLogs = new logs.LogGroup(scope, `${id}AccessLogs`, { retention: logs.RetentionDays.ONE_MONTH, removalPolicy });
    super(scope, id, {
      restApiName: `hotel-mapping-${stage}`,
      description: 'Hotel mapping and billing API',
      binaryMediaTypes: [...BINARY_MEDIA_TYPES],
      deployOptions: {
        stageName: stage,
        accessLogDestination: new apigateway.LogGroupLogDestination(accessLogs),
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
              responseParameters: { 'method.response.header.Allow': `'${allowed}'`, [`method.response.header.${REQUEST_ID_RESPONSE_HEADER}`]: GATEWAY_REQUEST_ID },
            },
          ],
          passthroughBehavior: apigateway.PassthroughBehavior.NEVER,
        }),
        { methodResponses: [{ statusCode: '405', responseParameters: { 'method.response.header.Allow': true, [`method.response.header.${REQUEST_ID_RESPONSE_HEADER}`]: true } }] },
      );
    }
  }
}
