/**
 * The roles of the route functions. Routes that declare the same access (and the same use of the
 * bearer-token key) share one role with exactly that access: least privilege per function, in
 * a stack that stays within CloudFormation's 500 resources. Not a construct: the roles are made in
 * the scope it is given, `RouteRole1`, `RouteRole2`, … in the order their profiles first appear.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { tokenKeyUse, type RouteDefinition } from '../../shared/platform/http/route';
import { acknowledgeTracing } from '../nag-acknowledgements';
import type { ServiceResources } from './service-resources';

export class RouteRoles {
  private readonly byProfile = new Map<string, iam.Role>();

  constructor(
    private readonly scope: Construct,
    private readonly resources: ServiceResources,
  ) {}

  /** The role of the routes with this route's access, made and granted the first time it is asked for. */
  roleFor(route: RouteDefinition): iam.Role {
    // Anyone can call a public route: its function may reach only the partitions it names.
    if (route.auth === 'none' && route.access.table !== 'none' && !route.access.partitions?.length) {
      throw new Error(`${route.handler}: a public route that touches the table names its partitions (access.partitions).`);
    }
    const tokenKey = tokenKeyUse(route);
    const profile = JSON.stringify({ ...route.access, tokenKey });
    let role = this.byProfile.get(profile);
    if (!role) {
      role = new iam.Role(this.scope, `RouteRole${this.byProfile.size + 1}`, {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        description: `Functions of routes that may touch: ${profile}`,
        managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
      });
      this.resources.grant(role, { access: route.access, tokenKey });
      acknowledgeTracing(role);
      this.byProfile.set(profile, role);
    }
    return role;
  }
}
