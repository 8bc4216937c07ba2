/**
 * The roles of the route functions. Routes that declare the same access (and the same use of the
 * bearer-token key) share one role with exactly that access: least privilege per function, in
 * a stack that stays within CloudFormation's 500 resources. Not a construct: the roles are made in
 * the scope it is given, `RouteRole1`, `RouteRole2`, … in the order their profiles first appear.
 * The role that signs tokens may carry a name known at synth time (tokenSignerRoleName), which the
 * token key's policy names without a reference into this stack.
 */
import { Aws } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { tokenKeyUse, type RouteDefinition } from '../../shared/platform/http/route';
import { acknowledgeTracing } from '../nag-acknowledgements';
import { LOG_WRITING_ACTIONS } from './service-function';
import type { ServiceResources } from './service-resources';

/** The longest AWS region name (ap-southeast-5 and the like): the signer's role name holds it. */
const LONGEST_REGION_NAME = 14;
/** IAM's longest role name. */
const ROLE_NAME_MAX = 64;

/**
 * The name of the role that signs bearer tokens: per stage and region, since role names are
 * unique across an account's regions.
 */
export function tokenSignerRoleName(stage: string): string {
  const prefix = `hotel-mapping-${stage}-token-signer-`;
  if (!/^[\w+=,.@-]+$/.test(stage) || prefix.length + LONGEST_REGION_NAME > ROLE_NAME_MAX) {
    const longest = ROLE_NAME_MAX - LONGEST_REGION_NAME - 'hotel-mapping--token-signer-'.length;
    throw new Error(
      `The stage name "${stage}" must be at most ${longest} letters, digits or -_+=,.@ characters: it names the token signer's IAM role.`,
    );
  }
  return `${prefix}${Aws.REGION}`;
}

export interface RouteRolesOptions {
  /** The name of the one role that signs tokens; none, a generated one. */
  tokenSignerRoleName?: string;
}

export class RouteRoles {
  private readonly byProfile = new Map<string, iam.Role>();
  /** Each role's one statement writing to its functions' log groups, which every function sharing it adds its own to. */
  private readonly logWriting = new Map<iam.Role, iam.PolicyStatement>();
  private signer?: iam.Role;

  constructor(
    private readonly scope: Construct,
    private readonly resources: ServiceResources,
    private readonly options: RouteRolesOptions = {},
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
      if (tokenKey === 'sign' && this.signer) throw new Error(`${route.handler}: only one role signs tokens, the token endpoint's.`);
      role = new iam.Role(this.scope, `RouteRole${this.byProfile.size + 1}`, {
        assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
        description: `Functions of routes that may touch: ${profile}`,
        roleName: tokenKey === 'sign' ? this.options.tokenSignerRoleName : undefined,
      });
      this.resources.grant(role, { access: route.access, tokenKey });
      acknowledgeTracing(role);
      this.byProfile.set(profile, role);
      if (tokenKey === 'sign') this.signer = role;
    }
    return role;
  }

  /** Lets the role of this route's functions write to one more of their log groups, and to no other. */
  grantLogWriting(route: RouteDefinition, logGroup: logs.ILogGroup): void {
    const role = this.roleFor(route);
    const statement = this.logWriting.get(role);
    if (statement) {
      statement.addResources(logGroup.logGroupArn);
      return;
    }
    const created = new iam.PolicyStatement({ actions: [...LOG_WRITING_ACTIONS], resources: [logGroup.logGroupArn] });
    role.addToPrincipalPolicy(created);
    this.logWriting.set(role, created);
  }
}
