/**
 * One route of the route table: its function, with the settings its access names, running with
 * the role its access profile shares (RouteRoles), which may write to its log group, and its
 * method on the API as a Lambda proxy integration (of its alias `live` when instances are kept warm).
 */
import type { RemovalPolicy } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { tokenKeyUse, type RouteDefinition } from '../../shared/platform/http/route';
import type { RouteRoles } from './route-roles';
import { ServiceFunction } from './service-function';
import type { ServiceResources } from './service-resources';

export interface RouteFunctionProps {
  route: RouteDefinition;
  api: apigateway.RestApi;
  roles: RouteRoles;
  resources: ServiceResources;
  /** What deleting the stack does to the function's log group. */
  removalPolicy: RemovalPolicy;
  /** Instances kept initialized (provisioned concurrency on the alias `live`, which the API calls); 0 for none. */
  provisionedInstances?: number;
}

export class RouteFunction extends ServiceFunction {
  constructor(scope: Construct, { route, api, roles, resources, removalPolicy, provisionedInstances = 0 }: RouteFunctionProps) {
    super(scope, {
      handler: route.handler,
      description: `${route.method} ${route.path}`,
      sizing: route.lambda,
      environment: resources.environmentFor({ access: route.access, tokenKey: tokenKeyUse(route) }),
      removalPolicy,
      role: roles.roleFor(route),
    });
    roles.grantLogWriting(route, this.logGroup);
    // Provisioned concurrency needs a version: the API then calls the alias, never $LATEST.
    const target =
      provisionedInstances > 0
        ? new lambda.Alias(this, 'Live', {
            aliasName: 'live',
            version: this.currentVersion,
            provisionedConcurrentExecutions: provisionedInstances,
          })
        : this;
    // No test-invoke permission: one Lambda permission per method, not two.
    api.root.resourceForPath(route.path).addMethod(route.method, new apigateway.LambdaIntegration(target, { allowTestInvoke: false }));
  }
}
