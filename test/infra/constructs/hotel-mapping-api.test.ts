import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { routeList } from '../../../shared/routes';
import { errorBody } from '../../../shared/platform/http/errors';
import { MINIMUM_COMPRESSION_BYTES, type RouteDefinition } from '../../../shared/platform/http/route';
import {
  API_TRACE_SAMPLING,
  customDomainSetting,
  HotelMappingApi,
  methodOptions,
  SECURITY_POLICY,
  STAGE_THROTTLE,
} from '../../../infra/constructs/hotel-mapping-api';

describe('HotelMappingApi', () => {
  const stack = new Stack(new App(), 'Bare');
  // Two methods on one path, one on another; mock integrations stand for the route functions.
  const routes: RouteDefinition[] = [
    { ...routeList[0]!, method: 'GET', path: '/things', throttle: undefined },
    { ...routeList[0]!, method: 'POST', path: '/things', throttle: { ratePerSecond: 5, burst: 10 } },
    { ...routeList[0]!, method: 'DELETE', path: '/things/{id}', throttle: undefined },
  ];
  const measuredRoutes = [routes[1]!, routes[2]!];
  const api = new HotelMappingApi(stack, 'Api', { stage: 'bare', removalPolicy: RemovalPolicy.RETAIN, routes, measuredRoutes });
  for (const route of routes) api.root.resourceForPath(route.path).addMethod(route.method, new apigateway.MockIntegration());
  api.answerOtherMethods(routes);
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources;

  it("answers API Gateway's own errors as {error, message} JSON, with their status", () => {
    const responses = Object.values(template.findResources('AWS::ApiGateway::GatewayResponse')).map((r: any) => r.Properties);
    const statusOf = Object.fromEntries(responses.map((r) => [r.ResponseType, r.StatusCode]));
    assert.deepEqual(statusOf, {
      MISSING_AUTHENTICATION_TOKEN: '404',
      UNAUTHORIZED: '401',
      ACCESS_DENIED: '403',
      WAF_FILTERED: '403',
      THROTTLED: '429',
      QUOTA_EXCEEDED: '429',
      REQUEST_TOO_LARGE: '413',
      UNSUPPORTED_MEDIA_TYPE: '415',
      INTEGRATION_TIMEOUT: '504',
      DEFAULT_4XX: '400',
      DEFAULT_5XX: '500',
    });
    for (const response of responses) {
      // The gateway's request id, as a function answers it when the caller sent no X-Request-Id of its own.
      assert.deepEqual(response.ResponseParameters, {
        'gatewayresponse.header.Content-Type': "'application/json'",
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
      });
      const body = JSON.parse(response.ResponseTemplates['application/json']);
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message']);
    }
  });

  it('answers 405 with the allowed methods to any other method on a routed path', () => {
    const pathOf = (resourceId: string): string => {
      const { ParentId, PathPart } = resources[resourceId].Properties;
      return `${ParentId.Ref ? pathOf(ParentId.Ref) : ''}/${PathPart}`;
    };
    const anyMethods = Object.values(template.findResources('AWS::ApiGateway::Method', { Properties: { HttpMethod: 'ANY' } })) as any[];
    const allowedByPath = Object.fromEntries(
      anyMethods.map((m) => [pathOf(m.Properties.ResourceId.Ref), m.Properties.Integration.IntegrationResponses[0]]),
    );
    assert.deepEqual(Object.keys(allowedByPath).sort(), ['/things', '/things/{id}']);
    const things = allowedByPath['/things'];
    assert.equal(things.StatusCode, '405');
    assert.equal(things.ResponseParameters['method.response.header.Allow'], "'GET, POST'");
    assert.equal(things.ResponseParameters['method.response.header.X-Request-Id'], 'context.requestId');
    for (const method of anyMethods) {
      assert.deepEqual(method.Properties.MethodResponses, [
        { StatusCode: '405', ResponseParameters: { 'method.response.header.Allow': true, 'method.response.header.X-Request-Id': true } },
      ]);
    }
    assert.deepEqual(
      JSON.parse(things.ResponseTemplates['application/json']),
      errorBody(405, 'This method is not allowed here. Allowed: GET, POST.'),
    );
    assert.equal(allowedByPath['/things/{id}'].ResponseParameters['method.response.header.Allow'], "'DELETE'");
  });

  it('answers a firewall block 403 and a used-up quota 429, not the catch-all 400', () => {
    const bodyOf = (type: string) => {
      const [response] = Object.values(
        template.findResources('AWS::ApiGateway::GatewayResponse', { Properties: { ResponseType: type } }),
      ) as any[];
      return JSON.parse(response.Properties.ResponseTemplates['application/json']);
    };
    assert.deepEqual(bodyOf('WAF_FILTERED'), errorBody(403, "The request was refused by the API's web application firewall."));
    assert.deepEqual(bodyOf('QUOTA_EXCEEDED'), errorBody(429, 'The request quota is used up. Retry later.'));
  });

  it('logs access to a log group kept a month, and traces and throttles its stage', () => {
    const stage = Object.values(template.findResources('AWS::ApiGateway::Stage'))[0] as any;
    assert.equal(stage.Properties.StageName, 'bare');
    assert.equal(stage.Properties.TracingEnabled, true);
    assert.deepEqual(stage.Properties.MethodSettings[0], {
      DataTraceEnabled: false,
      HttpMethod: '*',
      LoggingLevel: 'ERROR',
      MetricsEnabled: false,
      ResourcePath: '/*',
      ThrottlingBurstLimit: STAGE_THROTTLE.burst,
      ThrottlingRateLimit: STAGE_THROTTLE.ratePerSecond,
    });
    const logGroupId = stage.Properties.AccessLogSetting.DestinationArn['Fn::GetAtt'][0];
    assert.match(logGroupId, /^ApiAccessLogs[0-9A-F]{8}$/);
    assert.equal(resources[logGroupId].Properties.RetentionInDays, 30);
    assert.equal(resources[logGroupId].DeletionPolicy, 'Retain');
  });

  it('is a regional API with the same strict TLS policy as its custom domain', () => {
    const [restApi] = Object.values(template.findResources('AWS::ApiGateway::RestApi')) as any[];
    assert.deepEqual(restApi.Properties.EndpointConfiguration, { Types: ['REGIONAL'] });
    assert.equal(restApi.Properties.SecurityPolicy, 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09');
    assert.equal(restApi.Properties.EndpointAccessMode, 'STRICT');
  });

  it('compresses answers of a kilobyte or more for clients that accept it, as the local runtime does', () => {
    const [restApi] = Object.values(template.findResources('AWS::ApiGateway::RestApi')) as any[];
    assert.equal(restApi.Properties.MinimumCompressionSize, MINIMUM_COMPRESSION_BYTES);
    assert.equal(MINIMUM_COMPRESSION_BYTES, 1024);
  });

  it("traces the stage's requests by a sampling rule of its own, ahead of X-Ray's default: one a second and 1 % of the rest", () => {
    const [stage] = Object.values(template.findResources('AWS::ApiGateway::Stage')) as any[];
    assert.equal(stage.Properties.TracingEnabled, true);
    const [rule] = Object.values(template.findResources('AWS::XRay::SamplingRule')) as any[];
    assert.deepEqual(rule.Properties.SamplingRule, {
      RuleName: 'hotel-mapping-bare',
      Priority: 100,
      FixedRate: 0.01,
      ReservoirSize: 1,
      ServiceName: `hotel-mapping-bare/${stage.Properties.StageName}`,
      ServiceType: 'AWS::ApiGateway::Stage',
      Host: '*',
      HTTPMethod: '*',
      URLPath: '*',
      ResourceARN: '*',
      Version: 1,
    });
    assert.deepEqual(API_TRACE_SAMPLING, { reservoirPerSecond: 1, fixedRate: 0.01 });
  });
});

describe('HotelMappingApi method settings', () => {
  const stack = new Stack(new App(), 'Bare');
  const routes: RouteDefinition[] = [
    { ...routeList[0]!, method: 'GET', path: '/things', throttle: undefined },
    { ...routeList[0]!, method: 'POST', path: '/things', throttle: { ratePerSecond: 5, burst: 10 } },
    { ...routeList[0]!, method: 'DELETE', path: '/things/{id}', throttle: undefined },
    { ...routeList[0]!, method: 'PUT', path: '/things/{id}', throttle: { ratePerSecond: 4, burst: 8 } },
  ];
  const api = new HotelMappingApi(stack, 'Api', {
    stage: 'bare',
    removalPolicy: RemovalPolicy.DESTROY,
    routes,
    measuredRoutes: [routes[1]!, routes[2]!],
  });
  for (const route of routes) api.root.resourceForPath(route.path).addMethod(route.method, new apigateway.MockIntegration());
  const stage = Object.values(Template.fromStack(stack).findResources('AWS::ApiGateway::Stage'))[0] as any;

  it('gives a throttled route its own limit, and per-method metrics only to the measured routes, each entry stating every setting', () => {
    const setting = (ResourcePath: string, HttpMethod: string, MetricsEnabled: boolean, rate: number, burst: number) => ({
      DataTraceEnabled: false,
      HttpMethod,
      LoggingLevel: 'ERROR',
      MetricsEnabled,
      ResourcePath,
      ThrottlingBurstLimit: burst,
      ThrottlingRateLimit: rate,
    });
    assert.deepEqual(stage.Properties.MethodSettings.slice(1), [
      setting('/~1things', 'POST', true, 5, 10),
      setting('/~1things~1{id}', 'DELETE', true, STAGE_THROTTLE.ratePerSecond, STAGE_THROTTLE.burst),
      setting('/~1things~1{id}', 'PUT', false, 4, 8),
    ]);
  });

  it("refuses a route's throttle above the stage's, which is the ceiling", () => {
    const tooFast = { ...routes[0]!, throttle: { ratePerSecond: STAGE_THROTTLE.ratePerSecond + 1, burst: 10 } };
    assert.throws(
      () => methodOptions([tooFast], []),
      new RegExp(`GET /things: its throttle \\(${STAGE_THROTTLE.ratePerSecond + 1}/s, burst 10\\) is above the stage's`),
    );
  });

  it('refuses a credentialed route a throttle so low that one organization could use up its share of it', () => {
    const credentialed = { ...routes[0]!, auth: 'required' as const, throttle: { ratePerSecond: 2, burst: 4 } };
    assert.throws(
      () => methodOptions([credentialed], []),
      /GET \/things: its throttle \(2\/s\) is too low for one organization's share of it/,
    );
    assert.doesNotThrow(() => methodOptions([{ ...credentialed, auth: 'none' }], []), 'a public route is shared per client IP at the edge');
  });
});

describe('HotelMappingApi on a custom domain', () => {
  const stack = new Stack(new App(), 'Bare');
  const api = new HotelMappingApi(stack, 'Api', { stage: 'bare', removalPolicy: RemovalPolicy.DESTROY, routes: [], measuredRoutes: [] });
  api.root.addMethod('GET', new apigateway.MockIntegration());
  const certificateArn = 'arn:aws:acm:eu-west-1:123456789012:certificate/0f2c8a4e-1b7d-4c3e-9a5f-6d8e7b9c0a1b';
  api.serveAt({ domainName: 'api.example.com', certificateArn });
  const template = Template.fromStack(stack);

  it('is a regional domain name with the TLS 1.3 / forward-secret TLS 1.2 policy, strict, mapped at its root to the stage', () => {
    const [domain] = Object.entries(template.findResources('AWS::ApiGateway::DomainName')) as [string, any][];
    assert.deepEqual(domain![1].Properties, {
      DomainName: 'api.example.com',
      RegionalCertificateArn: certificateArn,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09',
      EndpointAccessMode: 'STRICT',
    });
    assert.equal(SECURITY_POLICY, apigateway.SecurityPolicy.TLS13_1_2_PFS_PQ_2025_09);
    const mappings = Object.values(template.findResources('AWS::ApiGateway::BasePathMapping')) as any[];
    assert.equal(mappings.length, 1);
    const stageId = Object.keys(template.findResources('AWS::ApiGateway::Stage'))[0];
    const apiId = Object.keys(template.findResources('AWS::ApiGateway::RestApi'))[0];
    assert.deepEqual(mappings[0].Properties, { DomainName: { Ref: domain![0] }, RestApiId: { Ref: apiId }, Stage: { Ref: stageId } });
  });

  it('takes context domainName and certificateArn together, and refuses half of them or a malformed one', () => {
    assert.equal(customDomainSetting(undefined, undefined), undefined);
    assert.deepEqual(customDomainSetting('api.example.com', certificateArn), { domainName: 'api.example.com', certificateArn });
    assert.throws(() => customDomainSetting('api.example.com', undefined), /needs both -c domainName=.* and -c certificateArn=/);
    assert.throws(() => customDomainSetting(undefined, certificateArn), /needs both/);
    assert.throws(() => customDomainSetting('API.example.com', certificateArn), /domainName must be a lower-case host name/);
    assert.throws(() => customDomainSetting('https://api.example.com', certificateArn), /domainName must be/);
    assert.throws(
      () => customDomainSetting('api.example.com', 'arn:aws:iam::123456789012:role/x'),
      /certificateArn must be an ACM certificate ARN/,
    );
  });
});
