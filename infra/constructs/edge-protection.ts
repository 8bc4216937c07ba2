/**
 * The web ACL in front of the API's stage: an existing one the platform team runs (its ARN), or one
 * of the stack's own (`stack`): AWS's IP reputation list, its common and known-bad-inputs rule
 * groups, and rate-based rules per client IP and per credential. A rate-based block answers 429
 * with the service's {error, message} body and Retry-After; any other block answers 403 through the
 * API's WAF_FILTERED gateway response. The stack's own ACL logs every request it inspects to a log
 * group of its own, the credential headers redacted.
 */
import { ArnFormat, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { errorBody } from '../../shared/platform/http/errors';
import { functionName, type MethodThrottle, type RouteDefinition } from '../../shared/platform/http/route';

/** Context `webAcl=stack`: the stack creates its own web ACL. */
export const STACK_WEB_ACL = 'stack';

/** A regional web ACL's ARN: only a regional ACL can be associated with an API Gateway stage. */
const REGIONAL_WEB_ACL_ARN = /^arn:aws[a-z-]*:wafv2:[a-z0-9-]+:\d{12}:regional\/webacl\/[A-Za-z0-9_-]{1,128}\/[0-9a-f-]{36}$/;

/**
 * Context `webAcl`: `stack`, or the ARN of a regional web ACL; undefined when not given. Anything
 * else is refused with what to give.
 */
export function webAclSetting(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === STACK_WEB_ACL || (typeof value === 'string' && REGIONAL_WEB_ACL_ARN.test(value))) return value;
  throw new Error(
    `webAcl must be "${STACK_WEB_ACL}" (the stack creates its own web ACL) or the ARN of a regional WAFv2 web ACL ` +
      `(arn:aws:wafv2:<region>:<account>:regional/webacl/<name>/<id>), not ${JSON.stringify(value)}.`,
  );
}

/**
 * The stack's own ACL's rate-based rules: requests counted over a one-minute window, per key; past
 * the limit, that key's requests are refused until its rate falls below it again.
 */
export const EDGE_RATE_LIMITS = {
  /** The window each rate is counted over, in seconds; a refused caller is told to retry after it. */
  windowSeconds: 60,
  /** Requests from one client IP address, whatever they carry: floods, key guessing, the public routes. Above a credential's, since a partner's credentials may share one address. */
  perIp: 1_200,
  /** Requests carrying one X-API-Key value. */
  perApiKey: 600,
  /** Requests carrying one Authorization value: one bearer token, or one key as Basic credentials at the token exchange. */
  perAuthorization: 600,
  /**
   * A public route with a throttle of its own (the token exchange, the Stripe webhook) takes from
   * one client IP at most this share of it: no one address can lock every partner out of it.
   */
  publicRouteShareOfOneIp: 0.25,
} as const;

/** The per-IP limit, over the rate rules' window, on a public route of this throttle. */
export function publicRoutePerIp(throttle: MethodThrottle): number {
  // WAF's least rate limit is 10 a window.
  return Math.max(10, Math.floor(throttle.ratePerSecond * EDGE_RATE_LIMITS.windowSeconds * EDGE_RATE_LIMITS.publicRouteShareOfOneIp));
}

/** The public routes the per-IP share guards: those without a credential that have a throttle of their own. */
export const guardedPublicRoutes = (routes: readonly RouteDefinition[]) =>
  routes.filter((route) => route.auth === 'none' && route.throttle !== undefined);

/**
 * Rules of AWS's common rule set that only count, not block. SizeRestrictions_BODY blocks bodies over
 * 8 KB, but uploads are multipart files up to 4 MiB and JSON bodies up to 256 KB (each route's limit
 * is enforced by its function, 413); NoUserAgent_HEADER blocks requests without a User-Agent, which
 * .NET's HttpClient, among partners' clients, sends none of by default.
 */
export const COMMON_RULES_COUNTED = ['SizeRestrictions_BODY', 'NoUserAgent_HEADER'] as const;

const TOO_MANY_REQUESTS_BODY = 'TooManyRequests';

/** What WAF requires a log group it logs to to be named with. */
export const WAF_LOG_GROUP_PREFIX = 'aws-waf-logs-';

/** The headers that carry credentials (API keys, bearer tokens, keys as Basic credentials): never logged. */
export const REDACTED_HEADERS = ['authorization', 'x-api-key'] as const;

export interface EdgeProtectionProps {
  /** `stack`, or the ARN of a regional web ACL (webAclSetting). */
  webAcl: string;
  /** The stage the ACL guards. */
  stage: apigateway.Stage;
  /** Names the stack's own ACL, its metrics and its log group (`aws-waf-logs-<name>`). */
  name: string;
  /** What deleting the stack does to the stack's own ACL's log group. */
  removalPolicy: RemovalPolicy;
  /** The API's routes: the public ones with a throttle get a per-IP share of it. */
  routes: readonly RouteDefinition[];
}

export class EdgeProtection extends Construct {
  /** The stack's own web ACL, when `webAcl` is `stack`. */
  readonly webAcl?: wafv2.CfnWebACL;
  /** Where the stack's own ACL logs the requests it inspects. */
  readonly logGroup?: logs.LogGroup;
  readonly association: wafv2.CfnWebACLAssociation;

  constructor(scope: Construct, id: string, { webAcl, stage, name, removalPolicy, routes }: EdgeProtectionProps) {
    super(scope, id);
    if (webAcl === STACK_WEB_ACL) {
      this.webAcl = this.createWebAcl(name, guardedPublicRoutes(routes));
      this.logGroup = this.logRequests(this.webAcl, name, removalPolicy);
    }
    this.association = new wafv2.CfnWebACLAssociation(this, 'Association', {
      resourceArn: stage.stageArn,
      webAclArn: this.webAcl?.attrArn ?? webAcl,
    });
  }

  /** Every request the ACL inspects, kept a month, its credentials redacted: secrets are never logged. */
  private logRequests(webAcl: wafv2.CfnWebACL, name: string, removalPolicy: RemovalPolicy): logs.LogGroup {
    const logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: `${WAF_LOG_GROUP_PREFIX}${name}`,
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy,
    });
    new wafv2.CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: webAcl.attrArn,
      // The log group's ARN as WAF takes it: without the `:*` its Arn attribute ends with.
      logDestinationConfigs: [
        Stack.of(this).formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: logGroup.logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      // Typed loosely by the CDK: given as CloudFormation spells it.
      redactedFields: REDACTED_HEADERS.map((header) => ({ singleHeader: { Name: header } })),
    });
    return logGroup;
  }

  private createWebAcl(name: string, publicRoutes: readonly RouteDefinition[]): wafv2.CfnWebACL {
    const visibility = (rule: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName: `${name}-${rule}`,
      sampledRequestsEnabled: true,
    });
    const managed = (ruleGroup: string, countedRules: readonly string[] = []) => ({
      name: ruleGroup,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name: ruleGroup,
          ...(countedRules.length > 0 && { ruleActionOverrides: countedRules.map((rule) => ({ name: rule, actionToUse: { count: {} } })) }),
        },
      },
      visibilityConfig: visibility(ruleGroup),
    });
    const tooManyRequests = {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: TOO_MANY_REQUESTS_BODY,
          responseHeaders: [{ name: 'Retry-After', value: String(EDGE_RATE_LIMITS.windowSeconds) }],
        },
      },
    };
    const rateRule = (
      rule: string,
      limit: number,
      key: Pick<wafv2.CfnWebACL.RateBasedStatementProperty, 'aggregateKeyType' | 'customKeys' | 'scopeDownStatement'>,
    ) => ({
      name: rule,
      action: tooManyRequests,
      statement: { rateBasedStatement: { limit, evaluationWindowSec: EDGE_RATE_LIMITS.windowSeconds, ...key } },
      visibilityConfig: visibility(rule),
    });
    // The path as the stage or the custom domain serves it, whatever the prefix before it.
    const onPath = (path: string) => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'ENDS_WITH',
        searchString: path,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    });
    const perHeader = (header: string) => ({
      aggregateKeyType: 'CUSTOM_KEYS',
      customKeys: [{ header: { name: header, textTransformations: [{ priority: 0, type: 'NONE' }] } }],
    });
    // Cheapest first: known-bad addresses and floods are refused before the rule groups read the body.
    const rules = [
      managed('AWSManagedRulesAmazonIpReputationList'),
      rateRule('RatePerIp', EDGE_RATE_LIMITS.perIp, { aggregateKeyType: 'IP' }),
      rateRule('RatePerApiKey', EDGE_RATE_LIMITS.perApiKey, perHeader('x-api-key')),
      rateRule('RatePerAuthorization', EDGE_RATE_LIMITS.perAuthorization, perHeader('authorization')),
      ...publicRoutes.map((route) =>
        rateRule(`RatePerIpOn${functionName(route)}`, publicRoutePerIp(route.throttle!), {
          aggregateKeyType: 'IP',
          scopeDownStatement: onPath(route.path),
        }),
      ),
      managed('AWSManagedRulesCommonRuleSet', COMMON_RULES_COUNTED),
      managed('AWSManagedRulesKnownBadInputsRuleSet'),
    ];
    return new wafv2.CfnWebACL(this, 'WebAcl', {
      name,
      description: 'Guards the hotel mapping API: AWS managed rule groups and rate limits per client IP and per credential',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [TOO_MANY_REQUESTS_BODY]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify(
            errorBody(429, `Too many requests from this address or credential. Retry after ${EDGE_RATE_LIMITS.windowSeconds} seconds.`),
          ),
        },
      },
      rules: rules.map((rule, priority) => ({ ...rule, priority })),
      visibilityConfig: visibility('WebAcl'),
    });
  }
}
