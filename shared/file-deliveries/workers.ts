/** The workers of the file-deliveries queue and its dead letters. */
import type { Runtime } from '../platform/runtime';
import { abandonFileDelivery, attemptFileDelivery } from './dispatch';
import type { FileDeliveryMessage } from './queues';
import { dispatchPorts } from './services';

export function deliverFile(message: FileDeliveryMessage, runtime: Runtime): Promise<void> {
  return attemptFileDelivery(dispatchPorts(runtime), message);
}

export function abandonFileAttempt(message: FileDeliveryMessage, runtime: Runtime): Promise<void> {
  return abandonFileDelivery(dispatchPorts(runtime), message);
}
