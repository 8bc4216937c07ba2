/**
 * The edge, as the stack builds it: the web ACL in front of the API's stage (the stack's own with
 * `webAcl=stack`, logging its requests, or the platform team's by ARN), a production stage refused
 * without one, each route's own throttle, per-method metrics only on the routes the dashboard
 * draws, and a custom domain from context. One stack of its own (the fixture's has no ACL), built once.
 */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import {
  COMMON_RULES_COUNTED,
  EDGE_RATE_LIMITS,
  EdgeProtection,
  guardedPublicRoutes,
  publicRoutePerIp,
  webAclSetting,
} from '../../infra/constructs/edge-protection';
import { HotelMappingApi, STAGE_THROTTLE } from '../../infra/constructs/hotel-mapping-api';
import { awsSolutionsFindings, describeViolations } from '../../infra/nag';
import { ROUTES_DRAWN_ONE_BY_ONE } from '../../infra/observability';
import { HotelMappingStack } from '../../infra/stack';
import { errorBody } from '../../shared/platform/http/errors';
import { functionName } from '../../shared/platform/http/route';
import { routeList } from '../../shared/routes';

const PLATFORM_WEB_ACL = 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/platform/a1b2c3d4-5678-90ab-cdef-111122223333';
const CERTIFICATE_ARN = 'arn:aws:acm:eu-west-1:123456789012:certificate/0f2c8a4e-1b7d-4c3e-9a5f-6d8e7b9c0a1b';
const STAGE_PRICE_IDS = {
  SUBSCRIPTION: 'price_sub_prod',
  ENTERPRISE: 'price_ent_prod',
  creditsProduct: 'prod_credits',
  creditsPrice: 'price_credits_prod',
};

const appWith = (context: Record<string, unknown>) => new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });

const app = appWith({ webAcl: 'stack', domainName: 'api.example.com', certificateArn: CERTIFICATE_ARN });
const stack = new HotelMappingStack(app, 'Edge', { stage: 'edge' });
const template = Template.fromStack(stack);
const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: any }>;
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const idOf = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as never);
const stageId = idOf(stack.api.deploymentStage);
const stageSettings = resources[stageId]!.Properties.MethodSettings as any[];
/** A method's resource path as a stage's method settings spell it: every slash escaped, `/~1api~1v1~1…`. */
const resourcePathOf = (path: string) => `/${path.replaceAll('/', '~1')}`;
const settingOf = (route: { path: string; method: string }) =>
  stageSettings.find((setting) => setting.ResourcePath === resourcePathOf(route.path) && setting.HttpMethod === route.method);

describe('the web ACL a stage must have', () => {
  const prodStack = (id: string, context: Record<string, unknown>) =>
    new HotelMappingStack(appWith({ production: 'true', retainData: 'true', alarmEmail: 'ops@example.com', ...context }), id, {
      stage: 'prod',
      priceIds: STAGE_PRICE_IDS,
    });

  it('refuses to synthesize a production stage without -c webAcl, saying how', () => {
    assert.throws(
      () => prodStack('Unguarded', {}),
      /The production stage "prod" needs a web ACL in front of its API: deploy it with -c webAcl=stack .* or -c webAcl=<the ARN of a regional web ACL>/,
    );
  });

  it('refuses a webAcl that is neither "stack" nor a regional web ACL ARN', () => {
    for (const value of [
      'yes',
      'true',
      PLATFORM_WEB_ACL.replace('regional', 'global'),
      PLATFORM_WEB_ACL.replace('wafv2', 'waf-regional'),
      `${PLATFORM_WEB_ACL} `,
    ]) {
      assert.throws(
        () => webAclSetting(value),
        /webAcl must be "stack" \(the stack creates its own web ACL\) or the ARN of a regional WAFv2 web ACL/,
        value,
      );
    }
    assert.throws(() => prodStack('Garbled', { webAcl: 'yes' }), /webAcl must be "stack"/);
    assert.equal(webAclSetting(undefined), undefined);
    assert.equal(webAclSetting(PLATFORM_WEB_ACL), PLATFORM_WEB_ACL);
  });
});

describe("the stack's own web ACL (webAcl=stack)", () => {
  const [aclId, acl] = ofType('AWS::WAFv2::WebACL')[0]!;
  const rules = acl.Properties.Rules as any[];
  const ruleNamed = (name: string) => rules.find((rule) => rule.Name === name);

  it('is regional, allows by default, and holds exactly the IP reputation list, the rate rules and the two baseline rule groups, in that order', () => {
    assert.equal(acl.Properties.Scope, 'REGIONAL');
    assert.deepEqual(acl.Properties.DefaultAction, { Allow: {} });
    assert.deepEqual(
      rules.map((rule) => [rule.Priority, rule.Name]),
      [
        [0, 'AWSManagedRulesAmazonIpReputationList'],
        [1, 'RatePerIp'],
        [2, 'RatePerApiKey'],
        [3, 'RatePerAuthorization'],
        [4, 'RatePerIpOnApiKeysToken'],
        [5, 'RatePerIpOnBillingStripeWebhook'],
        [6, 'AWSManagedRulesCommonRuleSet'],
        [7, 'AWSManagedRulesKnownBadInputsRuleSet'],
      ],
    );
    for (const name of ['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesKnownBadInputsRuleSet']) {
      assert.deepEqual(ruleNamed(name).Statement, { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: name } }, name);
      assert.deepEqual(ruleNamed(name).OverrideAction, { None: {} }, name);
    }
  });

  it('counts, not blocks, large bodies (uploads are up to 4 MiB) and a missing User-Agent, and applies the rest of the common rule set', () => {
    assert.deepEqual(ruleNamed('AWSManagedRulesCommonRuleSet').Statement.ManagedRuleGroupStatement, {
      VendorName: 'AWS',
      Name: 'AWSManagedRulesCommonRuleSet',
      RuleActionOverrides: [
        { Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } },
        { Name: 'NoUserAgent_HEADER', ActionToUse: { Count: {} } },
      ],
    });
    assert.deepEqual(COMMON_RULES_COUNTED, ['SizeRestrictions_BODY', 'NoUserAgent_HEADER']);
  });

  it('limits each client IP, each X-API-Key and each Authorization value over one minute', () => {
    const window = EDGE_RATE_LIMITS.windowSeconds;
    assert.equal(window, 60);
    assert.deepEqual(ruleNamed('RatePerIp').Statement, {
      RateBasedStatement: { Limit: EDGE_RATE_LIMITS.perIp, EvaluationWindowSec: window, AggregateKeyType: 'IP' },
    });
    const byHeader = (name: string, limit: number) => ({
      RateBasedStatement: {
        Limit: limit,
        EvaluationWindowSec: window,
        AggregateKeyType: 'CUSTOM_KEYS',
        CustomKeys: [{ Header: { Name: name, TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }],
      },
    });
    assert.deepEqual(ruleNamed('RatePerApiKey').Statement, byHeader('x-api-key', EDGE_RATE_LIMITS.perApiKey));
    assert.deepEqual(ruleNamed('RatePerAuthorization').Statement, byHeader('authorization', EDGE_RATE_LIMITS.perAuthorization));
    assert.ok(
      EDGE_RATE_LIMITS.perIp > EDGE_RATE_LIMITS.perApiKey,
      "an address's limit is above a credential's: a partner's keys may share one address",
    );
  });

  it("lets one client IP take at most a quarter of a public route's own throttle (the token exchange, the Stripe webhook): no address can lock every partner out", () => {
    const publicRoutes = guardedPublicRoutes(routeList);
    assert.deepEqual(publicRoutes.map((route) => route.path).sort(), ['/api/v1/auth/token', '/api/v1/billing/stripe/webhook']);
    for (const route of publicRoutes) {
      const { Statement } = ruleNamed(`RatePerIpOn${functionName(route)}`);
      assert.deepEqual(Statement, {
        RateBasedStatement: {
          Limit: publicRoutePerIp(route.throttle!),
          EvaluationWindowSec: EDGE_RATE_LIMITS.windowSeconds,
          AggregateKeyType: 'IP',
          ScopeDownStatement: {
            ByteMatchStatement: {
              FieldToMatch: { UriPath: {} },
              PositionalConstraint: 'ENDS_WITH',
              SearchString: route.path,
              TextTransformations: [{ Priority: 0, Type: 'NONE' }],
            },
          },
        },
      });
      // Over the window, one address reaches a quarter of what the route takes from everyone.
      assert.equal(Statement.RateBasedStatement.Limit, (route.throttle!.ratePerSecond * EDGE_RATE_LIMITS.windowSeconds) / 4, route.path);
    }
  });

  it("answers a rate-limited request 429 with the service's {error, message} body and Retry-After", () => {
    const expected = {
      Block: {
        CustomResponse: {
          ResponseCode: 429,
          CustomResponseBodyKey: 'TooManyRequests',
          ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }],
        },
      },
    };
    for (const name of ['RatePerIp', 'RatePerApiKey', 'RatePerAuthorization', 'RatePerIpOnApiKeysToken', 'RatePerIpOnBillingStripeWebhook'])
      assert.deepEqual(ruleNamed(name).Action, expected, name);
    const body = acl.Properties.CustomResponseBodies.TooManyRequests;
    assert.equal(body.ContentType, 'APPLICATION_JSON');
    assert.deepEqual(
      JSON.parse(body.Content),
      errorBody(429, 'Too many requests from this address or credential. Retry after 60 seconds.'),
    );
  });

  it('publishes metrics and sampled requests for each rule and for the ACL', () => {
    for (const rule of rules) {
      assert.deepEqual(
        rule.VisibilityConfig,
        { CloudWatchMetricsEnabled: true, MetricName: `hotel-mapping-edge-${rule.Name}`, SampledRequestsEnabled: true },
        rule.Name,
      );
    }
    assert.deepEqual(acl.Properties.VisibilityConfig, {
      CloudWatchMetricsEnabled: true,
      MetricName: 'hotel-mapping-edge-WebAcl',
      SampledRequestsEnabled: true,
    });
  });

  it('logs every request it inspects to aws-waf-logs-<name>, kept a month, its credential headers redacted', () => {
    const configurations = ofType('AWS::WAFv2::LoggingConfiguration');
    assert.equal(configurations.length, 1);
    const [, logging] = configurations[0]!;
    assert.deepEqual(logging.Properties.ResourceArn, { 'Fn::GetAtt': [aclId, 'Arn'] });
    assert.deepEqual(logging.Properties.RedactedFields, [
      { SingleHeader: { Name: 'authorization' } },
      { SingleHeader: { Name: 'x-api-key' } },
    ]);
    assert.equal(logging.Properties.LoggingFilter, undefined, 'every request, not only the blocked ones');
    const logGroupId = idOf(stack.edgeProtection!.logGroup!);
    const logGroup = resources[logGroupId]!.Properties;
    assert.equal(logGroup.LogGroupName, 'aws-waf-logs-hotel-mapping-edge');
    assert.equal(logGroup.RetentionInDays, 30);
    // The log group's ARN without the `:*` of its Arn attribute.
    const [destination] = logging.Properties.LogDestinationConfigs;
    assert.deepEqual(destination['Fn::Join'][1].slice(-2), [':log-group:', { Ref: logGroupId }]);
  });

  it("is associated with the API's stage", () => {
    const associations = ofType('AWS::WAFv2::WebACLAssociation');
    assert.equal(associations.length, 1);
    const { ResourceArn, WebACLArn } = associations[0]![1].Properties;
    assert.deepEqual(WebACLArn, { 'Fn::GetAtt': [aclId, 'Arn'] });
    const arn = JSON.stringify(ResourceArn);
    assert.ok(arn.includes(JSON.stringify({ Ref: idOf(stack.api) })) && arn.includes(JSON.stringify({ Ref: stageId })), arn);
  });

  it("satisfies cdk-nag's APIG3 without its acknowledgement, and the edge's resources leave cdk-nag nothing to report", () => {
    const { errors, warnings } = awsSolutionsFindings(app);
    const atTheEdge = [...errors, ...warnings].filter(
      (violation) =>
        violation.ruleName === 'AwsSolutions-APIG3' ||
        violation.violatingResources.some((r) => /^Edge\/(EdgeProtection|Api)\//.test(r.constructPath ?? '')),
    );
    assert.deepEqual(atTheEdge, [], describeViolations(atTheEdge));
    const acknowledged = stack.node
      .findAll()
      .flatMap((construct) => construct.node.metadata)
      .filter((entry) => entry.type === 'aws:cdk:acknowledged-rules')
      .flatMap((entry) => Object.keys(entry.data as Record<string, string>));
    assert.ok(acknowledged.length > 0);
    assert.ok(!acknowledged.some((id) => id.startsWith('AwsSolutions-APIG3')), acknowledged.join(', '));
  });
});

describe("the platform team's web ACL, by ARN", () => {
  const bareApi = (withAcl: boolean) => {
    const bare = new Stack(appWith({}), 'Bare');
    const api = new HotelMappingApi(bare, 'Api', { stage: 'bare', removalPolicy: RemovalPolicy.DESTROY, routes: [], measuredRoutes: [] });
    api.root.addMethod('GET', new apigateway.MockIntegration());
    if (withAcl)
      new EdgeProtection(bare, 'EdgeProtection', {
        webAcl: PLATFORM_WEB_ACL,
        stage: api.deploymentStage,
        name: 'bare',
        removalPolicy: RemovalPolicy.DESTROY,
        routes: [],
      });
    return bare;
  };
  const bare = bareApi(true);
  const bareTemplate = Template.fromStack(bare);

  it("is associated with the stage, and no web ACL is created (nor its logging: the platform team's ACL logs where they say)", () => {
    assert.deepEqual(Object.keys(bareTemplate.findResources('AWS::WAFv2::WebACL')), []);
    assert.deepEqual(Object.keys(bareTemplate.findResources('AWS::WAFv2::LoggingConfiguration')), []);
    const [association] = Object.values(bareTemplate.findResources('AWS::WAFv2::WebACLAssociation')) as any[];
    assert.equal(association.Properties.WebACLArn, PLATFORM_WEB_ACL);
    const stageId = Object.keys(bareTemplate.findResources('AWS::ApiGateway::Stage'))[0]!;
    assert.ok(JSON.stringify(association.Properties.ResourceArn).includes(JSON.stringify({ Ref: stageId })));
  });

  it("satisfies cdk-nag's APIG3 (stage associated with a WAFv2 web ACL)", () => {
    // APIG3 is a warning, which the app reports and the tests accept none of.
    const apig3 = (scope: Stack) => {
      const { errors, warnings } = awsSolutionsFindings(scope);
      return [...errors, ...warnings].filter((violation) => violation.ruleName === 'AwsSolutions-APIG3');
    };
    assert.deepEqual(apig3(bare), []);
    assert.equal(apig3(bareApi(false)).length, 1, 'without the association, APIG3 is reported');
  });
});

describe('per-method throttles and metrics', () => {
  it('sets a throttle of its own, below the stage ceiling, on the token, search, export, upload and Stripe webhook routes', () => {
    const throttled = routeList.filter((route) => route.throttle).map((route) => `${route.method} ${route.path}`);
    assert.deepEqual(throttled.sort(), [
      'GET /api/v1/reference/search',
      'GET /api/v1/reference/search/advanced',
      'POST /api/v1/auth/token',
      'POST /api/v1/billing/stripe/webhook',
      'POST /api/v1/mapping-book/export',
      'POST /api/v1/mapping/{jobId}/export',
      'POST /api/v1/partner-inventories',
      'POST /api/v1/partner-inventories/uploads',
      'POST /api/v1/partner-inventories/{partnerInventoryId}/complete',
      'POST /api/v1/suppliers/request',
    ]);
    for (const route of routeList.filter((r) => r.throttle)) {
      const setting = settingOf(route);
      assert.ok(setting, `${route.method} ${route.path}`);
      assert.equal(setting.ThrottlingRateLimit, route.throttle!.ratePerSecond);
      assert.equal(setting.ThrottlingBurstLimit, route.throttle!.burst);
      assert.ok(route.throttle!.ratePerSecond < STAGE_THROTTLE.ratePerSecond && route.throttle!.burst < STAGE_THROTTLE.burst);
      assert.equal(setting.LoggingLevel, 'ERROR');
    }
    assert.deepEqual(settingOf({ method: 'POST', path: '/api/v1/auth/token' }), {
      DataTraceEnabled: false,
      HttpMethod: 'POST',
      LoggingLevel: 'ERROR',
      MetricsEnabled: true,
      ResourcePath: '/~1api~1v1~1auth~1token',
      ThrottlingBurstLimit: 20,
      ThrottlingRateLimit: 10,
    });
  });

  it('publishes per-method metrics only for the routes the dashboard draws one by one', () => {
    const stageWide = stageSettings.find((setting) => setting.ResourcePath === '/*');
    assert.equal(stageWide.MetricsEnabled, false);
    assert.equal(stageWide.ThrottlingRateLimit, STAGE_THROTTLE.ratePerSecond);
    const measured = stageSettings.filter((setting) => setting.MetricsEnabled).map((s) => `${s.HttpMethod} ${s.ResourcePath}`);
    assert.deepEqual(measured.sort(), ROUTES_DRAWN_ONE_BY_ONE.map((route) => `${route.method} ${resourcePathOf(route.path)}`).sort());
    assert.equal(stageSettings.length, 1 + new Set([...ROUTES_DRAWN_ONE_BY_ONE, ...routeList.filter((route) => route.throttle)]).size);
  });

  it('draws on the dashboard, by route, exactly the routes that publish per-method metrics; the alarms use the API totals only', () => {
    const observability = Template.fromStack(stack.observability).toJSON().Resources as Record<string, { Type: string; Properties: any }>;
    const body = JSON.stringify(
      Object.values(observability).find((r) => r.Type === 'AWS::CloudWatch::Dashboard')!.Properties.DashboardBody,
    );
    const drawn = [...body.matchAll(/\\"Method\\",\\"([A-Z]+)\\",\\"Resource\\",\\"([^\\]+)\\"/g)].map(
      ([, method, path]) => `${method} ${path}`,
    );
    assert.deepEqual([...new Set(drawn)].sort(), ROUTES_DRAWN_ONE_BY_ONE.map((route) => `${route.method} ${route.path}`).sort());
    const apiAlarms = Object.entries(observability).filter(
      ([, r]) => r.Type === 'AWS::CloudWatch::Alarm' && JSON.stringify(r.Properties).includes('AWS/ApiGateway'),
    );
    assert.ok(apiAlarms.length >= 3);
    for (const [id, alarm] of apiAlarms) {
      const dimensionNames = JSON.stringify(alarm.Properties).match(/"Name":"[A-Za-z]+"/g) ?? [];
      assert.deepEqual([...new Set(dimensionNames)].sort(), ['"Name":"ApiName"', '"Name":"Stage"'], id);
    }
  });
});

describe('a custom domain from context', () => {
  it('answers on a regional domain name with the modern TLS policy, mapped at its root to the stage, and says where to point the DNS', () => {
    const [domainId, domain] = ofType('AWS::ApiGateway::DomainName')[0]!;
    assert.deepEqual(domain.Properties, {
      DomainName: 'api.example.com',
      RegionalCertificateArn: CERTIFICATE_ARN,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'SecurityPolicy_TLS13_1_2_PFS_PQ_2025_09',
      EndpointAccessMode: 'STRICT',
    });
    const mappings = ofType('AWS::ApiGateway::BasePathMapping');
    assert.equal(mappings.length, 1);
    assert.deepEqual(mappings[0]![1].Properties, {
      DomainName: { Ref: domainId },
      RestApiId: { Ref: idOf(stack.api) },
      Stage: { Ref: stageId },
    });
    const outputs = template.toJSON().Outputs;
    assert.equal(outputs.CustomDomainUrl.Value, 'https://api.example.com/');
    assert.deepEqual(outputs.CustomDomainTarget.Value, { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
    assert.deepEqual(outputs.CustomDomainHostedZoneId.Value, { 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] });
    assert.deepEqual(ofType('AWS::Route53::RecordSet'), [], "DNS is the zone owner's");
  });

  it('refuses a domain name without its certificate, and a certificate without its name', () => {
    assert.throws(
      () => new HotelMappingStack(appWith({ domainName: 'api.example.com' }), 'HalfName', { stage: 'test' }),
      /A custom domain needs both -c domainName=.* and -c certificateArn=/,
    );
    assert.throws(
      () => new HotelMappingStack(appWith({ certificateArn: CERTIFICATE_ARN }), 'HalfCertificate', { stage: 'test' }),
      /A custom domain needs both/,
    );
  });
});
