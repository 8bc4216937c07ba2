import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { RemovalPolicy } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { routeList } from '../../../shared/routes';
import type { RouteDefinition } from '../../../shared/platform/http/route';
import { RouteFunction } from '../../../infra/constructs/route-function';
import { RouteRoles, type RouteRolesOptions } from '../../../infra/constructs/route-roles';
import { actionsOfRole, bareStack, idOf, resourceOf, statementsOfRole } from './bare-stack';

/** A route of the table (its handler file exists), with what a test sets. */
const route = (index: number, overrides: Partial<RouteDefinition>): RouteDefinition => ({ ...routeList[index]!, ...overrides });

function routed(routes: readonly RouteDefinition[], options: RouteRolesOptions = {}) {
  const fixture = bareStack();
  const api = new apigateway.RestApi(fixture.stack, 'Api');
  const roles = new RouteRoles(fixture.stack, fixture.resources, options);
  const functions = routes.map(
    (r) => new RouteFunction(fixture.stack, { route: r, api, roles, resources: fixture.resources, removalPolicy: RemovalPolicy.DESTROY }),
  );
  return { ...fixture, api, functions, template: Template.fromStack(fixture.stack) };
}

const roleIdOf = (template: Template, fn: RouteFunction): string => resourceOf(template, fn).Properties.Role['Fn::GetAtt'][0];

describe('RouteFunction', () => {
  it('is described by its route, traced, and logs JSON to its own log group kept a month', () => {
    const { template, functions } = routed([route(0, { method: 'GET', path: '/things', lambda: { memoryMb: 512 } })]);
    const { Properties } = resourceOf(template, functions[0]!);
    assert.equal(Properties.Description, 'GET /things');
    assert.equal(Properties.MemorySize, 512);
    assert.deepEqual(Properties.TracingConfig, { Mode: 'Active' });
    assert.equal(Properties.LoggingConfig.LogFormat, 'JSON');
    assert.equal(template.toJSON().Resources[Properties.LoggingConfig.LogGroup.Ref].Properties.RetentionInDays, 30);
  });

  it('answers its method and path on the API through a Lambda proxy integration, with one invoke permission', () => {
    const { template, functions } = routed([route(0, { method: 'POST', path: '/things/{thingId}/parts' })]);
    const [fn] = functions;
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method')) as any[];
    assert.equal(methods.length, 1);
    const [method] = methods;
    assert.equal(method.Properties.HttpMethod, 'POST');
    assert.equal(method.Properties.Integration.Type, 'AWS_PROXY');
    assert.ok(JSON.stringify(method.Properties.Integration.Uri).includes(`"${idOf(fn!)}","Arn"`));
    const pathParts = Object.values(template.findResources('AWS::ApiGateway::Resource')).map((r: any) => r.Properties.PathPart);
    assert.deepEqual(pathParts.sort(), ['parts', 'things', '{thingId}']);
    // No test-invoke permission: one per method.
    template.resourceCountIs('AWS::Lambda::Permission', 1);
  });

  it('signs bearer tokens only when its route issues them, reads the public key only when its route takes a credential', () => {
    const { template, functions, tokenSigningKey } = routed([
      route(0, { path: '/public', auth: 'none', access: { table: 'none' } }),
      route(1, { path: '/private', auth: 'required', access: { table: 'none' } }),
      route(2, { path: '/token', auth: 'none', access: { table: 'none', signsTokens: true } }),
    ]);
    const keyArn = { 'Fn::GetAtt': [idOf(tokenSigningKey), 'Arn'] };
    const [open, credentialed, issuing] = functions.map((fn) => resourceOf(template, fn).Properties.Environment.Variables);
    assert.ok(!('TOKEN_SIGNING_KEY_ARN' in open));
    assert.deepEqual(credentialed.TOKEN_SIGNING_KEY_ARN, keyArn);
    assert.deepEqual(issuing.TOKEN_SIGNING_KEY_ARN, keyArn);
    const kmsStatements = (fn: RouteFunction) =>
      statementsOfRole(template, roleIdOf(template, fn)).filter((s) => [s.Action].flat().some((action) => action.startsWith('kms:')));
    assert.deepEqual(kmsStatements(functions[0]!), []);
    assert.deepEqual(
      kmsStatements(functions[1]!).map((s) => [s.Action, s.Resource]),
      [['kms:GetPublicKey', keyArn]],
    );
    assert.deepEqual(
      kmsStatements(functions[2]!).map((s) => [s.Action, s.Resource]),
      [['kms:Sign', keyArn]],
    );
  });

  it('shares one role among routes that declare the same access, and only among them', () => {
    const { template, functions } = routed([
      route(0, { path: '/a', auth: 'required', access: { table: 'read' } }),
      route(1, { path: '/b', auth: 'required', access: { table: 'read' } }),
      route(2, { path: '/c', auth: 'required', access: { table: 'readwrite' } }),
    ]);
    const [a, b, c] = functions.map((fn) => roleIdOf(template, fn));
    assert.equal(a, b);
    assert.notEqual(a, c);
    assert.match(a!, /^RouteRole1[0-9A-F]{8}$/);
    assert.match(c!, /^RouteRole2[0-9A-F]{8}$/);
    assert.ok(!actionsOfRole(template, a!).includes('dynamodb:PutItem'));
    assert.ok(actionsOfRole(template, c!).includes('dynamodb:PutItem'));
    const description = template.toJSON().Resources[a!].Properties.Description;
    assert.equal(description, `Functions of routes that may touch: ${JSON.stringify({ table: 'read', tokenKey: 'verify' })}`);
  });

  it('lets a shared role write to the log groups of the functions that share it, in one statement, and to no other', () => {
    const { template, functions } = routed([
      route(0, { path: '/a', auth: 'required', access: { table: 'read' } }),
      route(1, { path: '/b', auth: 'required', access: { table: 'read' } }),
      route(2, { path: '/c', auth: 'required', access: { table: 'readwrite' } }),
    ]);
    const logGroupArn = (fn: RouteFunction) => ({ 'Fn::GetAtt': [resourceOf(template, fn).Properties.LoggingConfig.LogGroup.Ref, 'Arn'] });
    const logging = (fn: RouteFunction) =>
      statementsOfRole(template, roleIdOf(template, fn))
        .filter((s) => [s.Action].flat().some((action) => action.startsWith('logs:')))
        .map((s) => [s.Action, s.Resource]);
    const [a, b, c] = functions as [RouteFunction, RouteFunction, RouteFunction];
    assert.deepEqual(logging(a), [
      [
        ['logs:CreateLogStream', 'logs:PutLogEvents'],
        [logGroupArn(a), logGroupArn(b)],
      ],
    ]);
    assert.deepEqual(logging(c), [[['logs:CreateLogStream', 'logs:PutLogEvents'], logGroupArn(c)]]);
    for (const fn of functions) assert.equal(template.toJSON().Resources[roleIdOf(template, fn)].Properties.ManagedPolicyArns, undefined);
  });

  it('names the one role that signs tokens as it is told, and refuses a second signer', () => {
    const signing = route(2, { path: '/token', auth: 'none', access: { table: 'none', signsTokens: true } });
    const { template, functions } = routed([signing, route(1, { path: '/private', auth: 'required', access: { table: 'none' } })], {
      tokenSignerRoleName: 'test-signer',
    });
    const [signer, verifier] = functions.map((fn) => template.toJSON().Resources[roleIdOf(template, fn)].Properties.RoleName);
    assert.deepEqual([signer, verifier], ['test-signer', undefined]);
    const otherSigning = route(3, {
      path: '/token2',
      auth: 'none',
      access: { table: 'read', partitions: ['APIKEY#*'], signsTokens: true },
    });
    assert.throws(() => routed([signing, otherSigning]), /only one role signs tokens/);
  });
});
