/** The ports the file delivery rules work through, as each function builds them from its runtime. */
import { randomUUID } from 'node:crypto';
import { STSClient } from '@aws-sdk/client-sts';
import { requireSetting } from '../platform/config';
import { destinationPolicyOf, reachableHostProblem, reachableUrlProblem } from '../platform/network/destinations';
import { resultObjectStoreOf } from '../platform/objects/services';
import { queueOf, schedulerOf } from '../platform/queue/services';
import { service, type Runtime } from '../platform/runtime';
import { secretBoxOf } from '../platform/secrets/services';
import { traced } from '../platform/tracing';
import type { DeliveryDestination } from './destination';
import type { DispatchPorts, StartPorts } from './dispatch';
import type { ManagePorts } from './manage';
import { fileDeliveryQueue } from './queues';
import { S3Transfer, stsAssumeRole, type AssumeRole } from './s3-transfer';
import { SftpTransfer } from './sftp-transfer';
import { destinationStoreOf, fileDeliveryStoreOf } from './store';
import type { FileTransfer } from './transfer';

/** The account partners' roles trust, as their trust policies name it. */
export function serviceAccountOf(runtime: Runtime): string {
  return requireSetting(runtime.config, 'accountId');
}

/**
 * STS AssumeRole in AWS. On the local runtime (its s3Endpoint set) there is no STS: the stand-in
 * answers s3rver's credentials, so an S3 destination writes to the local bucket of that name.
 */
const assumeRoleOf = /* @__PURE__ */ service((runtime): AssumeRole => {
  if (runtime.config.s3Endpoint) return async () => ({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', sessionToken: 'local' });
  return stsAssumeRole(traced(new STSClient({ region: runtime.config.region })));
});

const transfersOf = /* @__PURE__ */ service((runtime) => {
  const policy = destinationPolicyOf(runtime.config);
  const s3 = new S3Transfer({ policy, assumeRole: assumeRoleOf(runtime), s3Endpoint: runtime.config.s3Endpoint });
  const sftp = new SftpTransfer({ policy });
  return (destination: DeliveryDestination): FileTransfer => (destination.type === 'SFTP' ? sftp : s3);
});

export function managePorts(runtime: Runtime): ManagePorts {
  const policy = destinationPolicyOf(runtime.config);
  return {
    destinations: destinationStoreOf(runtime),
    get secrets() {
      return secretBoxOf(runtime);
    },
    hostProblem: (host) => reachableHostProblem(host, policy),
    urlProblem: (url) => reachableUrlProblem(url, policy),
    get transfers() {
      return transfersOf(runtime);
    },
    clock: runtime.clock,
    newId: randomUUID,
  };
}

/** Whether the organization has a destination files are delivered to now. */
export async function deliversFiles(runtime: Runtime, organizationId: string): Promise<boolean> {
  return (await destinationStoreOf(runtime).list(organizationId)).some((destination) => destination.status === 'ACTIVE');
}

/** What starting a job's deliveries needs: the function that does it bundles no transfer. */
export function startPorts(runtime: Runtime): StartPorts {
  return {
    destinations: destinationStoreOf(runtime),
    deliveries: fileDeliveryStoreOf(runtime),
    queue: queueOf(runtime, fileDeliveryQueue),
    clock: runtime.clock,
  };
}

export function dispatchPorts(runtime: Runtime): DispatchPorts {
  return {
    destinations: destinationStoreOf(runtime),
    deliveries: fileDeliveryStoreOf(runtime),
    get files() {
      return resultObjectStoreOf(runtime);
    },
    get secrets() {
      return secretBoxOf(runtime);
    },
    get transfers() {
      return transfersOf(runtime);
    },
    get queue() {
      return queueOf(runtime, fileDeliveryQueue);
    },
    get scheduler() {
      return schedulerOf(runtime);
    },
    clock: runtime.clock,
  };
}
