/** The ports the webhook rules work through, as each function builds them from its runtime. */
import { randomUUID } from 'node:crypto';
import type { EventType } from '../events';
import { organizationStoreOf } from '../organizations';
import { queueOf, schedulerOf } from '../platform/queue/services';
import type { Runtime } from '../platform/runtime';
import { service } from '../platform/runtime';
import { secretBoxOf } from '../platform/secrets/services';
import type { DeliveryPorts, StartPorts } from './dispatch';
import { destinationPolicyOf, reachableUrlProblem } from '../platform/network/destinations';
import type { ManagePorts } from './manage';
import { webhookDeliveryQueue } from './queues';
import { HttpWebhookSender } from './sender';
import { deliveryStoreOf, webhookStoreOf } from './store';

function policyOf(runtime: Runtime) {
  return destinationPolicyOf(runtime.config);
}

const senderOf = /* @__PURE__ */ service((runtime) => new HttpWebhookSender({ policy: policyOf(runtime) }));

export function managePorts(runtime: Runtime): ManagePorts {
  return {
    webhooks: webhookStoreOf(runtime),
    get secrets() {
      return secretBoxOf(runtime);
    },
    destinationProblem: (url) => reachableUrlProblem(url, policyOf(runtime)),
    planOf: async (organizationId) => (await organizationStoreOf(runtime).require(organizationId)).planType,
    clock: runtime.clock,
    newId: randomUUID,
  };
}

/** Whether an active webhook of the organization takes events of this type (its plan aside). */
export async function receivesEvent(runtime: Runtime, organizationId: string, type: EventType): Promise<boolean> {
  return (await webhookStoreOf(runtime).list(organizationId)).some(
    (webhook) => webhook.status === 'ACTIVE' && webhook.events.includes(type),
  );
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
