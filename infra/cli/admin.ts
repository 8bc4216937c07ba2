/**
 * `npm run admin -- <command>`: back-office management of organizations and API keys, printing
 * JSON. Works on the running local stack (`npm start`), or on a deployed table when TABLE_NAME
 * (and AWS credentials, AWS_REGION) are set.
 *
 *   create-org --name <name> [--plan FREE|SUBSCRIPTION|ENTERPRISE]
 *   create-key --org <organizationId> [--name <label>] [--admin]
 *   revoke-key --org <organizationId> --key <keyId>
 *   list [--org <organizationId>]
 */
import { parseArgs } from 'node:util';
import { apiKeyStoreOf, createOrganizationKey } from '../../shared/api-keys';
import { createOrganization, isPlanType, organizationStoreOf } from '../../shared/organizations';
import { createRuntime } from '../../shared/platform/runtime';
import { runCommand, targetConfig, UsageError } from './target';

const USAGE = `Usage: npm run admin -- <command> [options]
  create-org --name <name> [--plan FREE|SUBSCRIPTION|ENTERPRISE]   (default FREE)
  create-key --org <organizationId> [--name <label>] [--admin]      prints the key once
  revoke-key --org <organizationId> --key <keyId>
  list [--org <organizationId>]                                     organizations, or one organization's keys
Targets the running local stack (npm start), or a deployed table when TABLE_NAME is set.`;

async function main(): Promise<unknown> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      plan: { type: 'string', default: 'FREE' },
      org: { type: 'string' },
      key: { type: 'string' },
      admin: { type: 'boolean', default: false },
    },
  });
  const runtime = createRuntime(targetConfig({ needsBucket: false }));
  const organizations = organizationStoreOf(runtime);
  const apiKeys = apiKeyStoreOf(runtime);
  const required = (name: keyof typeof values) => {
    const value = values[name];
    if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required for ${command}.`);
    return value;
  };

  switch (command) {
    case 'create-org': {
      const plan = values.plan.toUpperCase();
      if (!isPlanType(plan)) throw new UsageError(`--plan must be FREE, SUBSCRIPTION or ENTERPRISE, not ${values.plan}.`);
      return createOrganization(runtime, { name: required('name'), planType: plan });
    }
    case 'create-key': {
      const issued = await createOrganizationKey(runtime, {
        organizationId: required('org'),
        name: values.name ?? (values.admin ? 'admin key' : 'partner key'),
        role: values.admin ? 'admin' : 'partner',
      });
      const { secretHash: _hash, ...record } = issued.record;
      return { ...record, apiKey: issued.plaintext };
    }
    case 'revoke-key': {
      const revoked = await apiKeys.revoke(required('org'), required('key'), runtime.clock.now());
      if (!revoked) throw new UsageError(`Organization ${values.org} has no key ${values.key}.`);
      const { secretHash: _hash, ...record } = revoked;
      return record;
    }
    case 'list': {
      if (!values.org) return organizations.list();
      const keys = await apiKeys.listForOrganization(values.org);
      return {
        organization: await organizations.get(values.org),
        apiKeys: keys.map(({ secretHash: _hash, ...record }) => record),
      };
    }
    default:
      throw new UsageError(command ? `Unknown command ${command}.` : 'No command given.');
  }
}

runCommand(main, USAGE);
