/**
 * An API under test: the local runtime over its own table and bucket on the stand-ins that
 * test/global-setup.js started, with a clock the test controls.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { APIGatewayProxyResult } from 'aws-lambda';
import * as v from 'valibot';
import { touchesObjects } from '../../shared/platform/access';
import { ORGANIZATION_RATE_SETTINGS } from '../../shared/platform/rate-limits';
import type { RouteDefinition } from '../../shared/platform/http/route';
import { documentedResponses } from '../../shared/platform/http/responses';
import type { AddressInfo } from 'node:net';
import { afterAll } from '@jest/globals';
import type { AppConfig } from '../../shared/platform/config';
import { ManualClock } from '../../shared/platform/clock';
import type { KeyRole } from '../../shared/platform/auth/principal';
import type { PlanType } from '../../shared/organizations/plans';
import type { InProcessMessaging } from '../../shared/platform/queue/in-process';
import { createRuntime, type Runtime } from '../../shared/platform/runtime';
import { localRuntime } from '../../infra/local/messaging';
import { seedSuppliers } from '../../infra/local/seed';
import { localPaymentPages } from '../../infra/local/payment-pages';
import { createLocalApi } from '../../infra/local/server';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION, newLocalTokenSigningKey, provisionResources } from '../../infra/local/stack';
import { createOrganizationKey } from '../../shared/api-keys';
import { createOrganization } from '../../shared/organizations';
import { requester, type ApiResponse, type Caller, type RequestOptions } from './requester';

export { requester, type ApiResponse, type Caller, type RequestOptions };

export interface TestApi {
  baseUrl: string;
  runtime: Runtime;
  /** The in-process queues: `await api.messaging.idle()` lets every due message be processed. */
  messaging: InProcessMessaging;
  clock: ManualClock;
  config: AppConfig;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Serves just these routes over a runtime with only the settings their functions are deployed with. */
  serveLean(routes: readonly RouteDefinition[]): Promise<TestApi['request']>;
  newOrganization(options?: { planType?: PlanType; role?: KeyRole }): Promise<Caller>;
}

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const suffix = randomUUID().slice(0, 8);
  const dynamoDbEndpoint = process.env.DYNAMODB_ENDPOINT;
  const s3Endpoint = process.env.S3_ENDPOINT;
  if (!dynamoDbEndpoint || !s3Endpoint)
    throw new Error(
      'Run integration tests through `npm test` (test/global-setup.js starts the stand-ins); `npm run test:unit` starts none.',
    );
  return {
    stage: 'test',
    region: LOCAL_REGION,
    tableName: `test-${suffix}`,
    bucketName: `test-${suffix}`,
    resultsBucketName: `test-${suffix}-results`,
    dynamoDbEndpoint,
    s3Endpoint,
    localTokenSigningKey: newLocalTokenSigningKey(),
    localSecretsKey: randomBytes(32).toString('base64'),
    accountId: LOCAL_ACCOUNT_ID,
    ...overrides,
    // The test's clock stands still, so every request of a file falls in one second: an
    // organization's share a second is lifted, but where a test sets its own.
    variables: { ...ORGANIZATION_RATE_SETTINGS.environment({ requestsPerSecond: String(1_000_000) }), ...overrides.variables },
  };
}

/** The APIs this test file started: they stop when its tests end. */
const servers: Server[] = [];
/** Answers that their route does not document: the file fails if there is any. */
const undocumented: string[] = [];
afterAll(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
  assert.deepEqual(undocumented, [], "every answer matches its route's documented responses (the OpenAPI document)");
});

/** The status must be documented, and a JSON body must match the documented schema. */
function checkAgainstDocumentation(route: RouteDefinition, result: APIGatewayProxyResult): void {
  const documented = documentedResponses(route)[result.statusCode];
  const where = `${route.method} ${route.path} -> ${result.statusCode}`;
  if (!documented) {
    if (result.statusCode !== 500) undocumented.push(`${where}: status not documented`);
    return;
  }
  const isJson = /json/.test(String(result.headers?.['content-type'] ?? ''));
  if (!documented.schema || !isJson || !result.body) return;
  const parsed = v.safeParse(documented.schema, JSON.parse(result.body));
  if (!parsed.success) undocumented.push(`${where}: ${v.getDotPath(parsed.issues[0]) ?? '(body)'} ${parsed.issues[0].message}`);
}

/** Starts an API for the current test file; it stops when the file's tests end. */
export async function startTestApi(options: { provision?: boolean; config?: Partial<AppConfig> } = {}): Promise<TestApi> {
  const config = testConfig(options.config);
  if (options.provision ?? true) await provisionResources(config);
  const clock = new ManualClock(new Date('2026-11-22T10:00:00.000Z'));
  const { runtime, messaging } = localRuntime(config, { clock });
  if (options.provision ?? true) await seedSuppliers(runtime);
  const server = createLocalApi({ runtime, pages: localPaymentPages(runtime), onResponse: checkAgainstDocumentation });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    runtime,
    messaging,
    clock,
    config,
    request: requester(baseUrl),
    async serveLean(routes) {
      // Only the settings these routes' functions are deployed with: a function that reaches for
      // another one (a bucket it does not declare) fails here as it would in AWS.
      const declares = (test: (route: RouteDefinition) => boolean) => routes.some(test);
      const lean = createRuntime(
        {
          ...config,
          tableName: declares((route) => route.access.table !== 'none') ? config.tableName : undefined,
          bucketName: declares((route) => touchesObjects(route.access)) ? config.bucketName : undefined,
          resultsBucketName: declares((route) => touchesObjects(route.access, 'resultObjects')) ? config.resultsBucketName : undefined,
          localSecretsKey: declares((route) => route.access.secrets !== undefined) ? config.localSecretsKey : undefined,
        },
        { clock, messaging },
      );
      const leanServer = createLocalApi({ runtime: lean, routes, onResponse: checkAgainstDocumentation });
      await new Promise<void>((resolve) => leanServer.listen(0, '127.0.0.1', resolve));
      servers.push(leanServer);
      return requester(`http://127.0.0.1:${(leanServer.address() as AddressInfo).port}`);
    },
    async newOrganization({ planType = 'FREE', role = 'partner' } = {}) {
      const organization = await createOrganization(runtime, { name: `Org ${randomUUID().slice(0, 6)}`, planType });
      const key = await createOrganizationKey(runtime, { organizationId: organization.id, name: 'test key', role });
      return { organization, apiKey: key.plaintext, headers: { 'x-api-key': key.plaintext } };
    },
  };
}
