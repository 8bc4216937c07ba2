/** The ports the webhook rules work through, as each function builds them from its runtime. */
import { randomUUID } from 'node:crypto';
import { organizationStoreOf } from '../organizations';
import { queueOf, schedulerOf } from '../platform/queue/services';
import type { AppConfig } from '../platform/config';
import type { Runtime } from '../platform/runtime';
import { service } from '../platform/runtime';
import { secretBoxOf } from '../platform/secrets/services';
import type { DeliveryPorts, StartPorts } from './dispatch';
import { destinationProblem, type DestinationPolicy } from './destination';
import type { ManagePorts } from './manage';
import { webhookDeliveryQueue } from './queues';
import { HttpWebhookSender } from './sender';
import { deliveryStoreOf, webhookStoreOf } from './store';

/**
 * The local allowance that lets webhooks go to loopback receivers (http://127.0.0.1, localhost):
 * given only by the local runtime (`WEBHOOKS_ALLOW_LOOPBACK=true npm start`) and tests.
 */
export const LOOPBACK_RECEIVERS = 'webhooks-to-loopback-receivers';

export function allowsLoopbackReceivers(config: Pick<AppConfig, 'localAllowances'>): boolean {
  return config.localAllowances?.includes(LOOPBACK_RECEIVERS) === true;
}

function policyOf(runtime: Runtime): DestinationPolicy {
  return { allowLoopback: allowsLoopbackReceivers(runtime.config) };
}

const senderOf = /* @__PURE__ */ service((runtime) => new HttpWebhookSender({ policy: policyOf(runtime) }));

export function managePorts(runtime: Runtime): ManagePorts {
  return {
    webhooks: webhookStoreOf(runtime),
    get secrets() {
      return secretBoxOf(runtime);
    },
    destinationProblem: (url) => destinationProblem(url, policyOf(runtime)),
    planOf: async (organizationId) => (await organizationStoreOf(runtime).require(organizationId)).planType,
    clock: runtime.clock,
    newId: randomUUID,
  };
}

/** What creating and redelivering a delivery needs: the routes that do it bundle no sender, key or scheduler. */
export function startPorts(runtime: Runtime): StartPorts {
  return { deliveries: deliveryStoreOf(runtime), queue: queueOf(runtime, webhookDeliveryQueue), clock: runtime.clock };
}

/** Built on use: each function touches only what its work needs (and is configured for). */
export function deliveryPorts(runtime: Runtime): DeliveryPorts {
  return {
    webhooks: webhookStoreOf(runtime),
    deliveries: deliveryStoreOf(runtime),
    get secrets() {
      return secretBoxOf(runtime);
    },
    get sender() {
      return senderOf(runtime);
    },
    get queue() {
      return queueOf(runtime, webhookDeliveryQueue);
    },
    get scheduler() {
      return schedulerOf(runtime);
    },
    planOf: async (organizationId) => (await organizationStoreOf(runtime).get(organizationId))?.planType,
    clock: runtime.clock,
  };
}
