import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { routeList } from '../../../shared/routes';
import { errorBody } from '../../../shared/platform/http/errors';
import type { RouteDefinition } from '../../../shared/platform/http/route';
import { HotelMappingApi } from '../../../infra/constructs/hotel-mapping-api';

describe('HotelMappingApi', () => {
  const stack = new Stack(new App(), 'Bare');
  const api = new HotelMappingApi(stack, 'Api', { stage: 'bare', removalPolicy: RemovalPolicy.RETAIN });
  // Two methods on one path, one on another; mock integrations stand for the route functions.
  const routes: RouteDefinition[] = [
    { ...routeList[0]!, method: 'GET', path: '/things' },
    { ...routeList[0]!, method: 'POST', path: '/things' },
    { ...routeList[0]!, method: 'DELETE', path: '/things/{id}' },
  ];
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
      THROTTLED: '429',
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
    assert.deepEqual(JSON.parse(things.ResponseTemplates['application/json']), errorBody(405, 'This method is not allowed here. Allowed: GET, POST.'));
    assert.equal(allowedByPath['/things/{id}'].ResponseParameters['method.response.header.Allow'], "'DELETE'");
  });

  it('logs access to a log group kept a month, and traces and throttles its stage', () => {
    const stage = Object.values(template.findResources('AWS::ApiGateway::Stage'))[0] as any;
    assert.equal(stage.Properties.StageName, 'bare');
    assert.equal(stage.Properties.TracingEnabled, true);
    assert.deepEqual(stage.Properties.MethodSettings[0], {
      DataTraceEnabled: false,
      HttpMethod: '*',
      LoggingLevel: 'ERROR',
      MetricsEnabled: true,
      ResourcePath: '/*',
      ThrottlingBurstLimit: 200,
      ThrottlingRateLimit: 100,
    });
    const logGroupId = stage.Properties.AccessLogSetting.DestinationArn['Fn::GetAtt'][0];
    assert.match(logGroupId, /^ApiAccessLogs[0-9A-F]{8}$/);
    assert.equal(resources[logGroupId].Properties.RetentionInDays, 30);
    assert.equal(resources[logGroupId].DeletionPolicy, 'Retain');
  });
});
