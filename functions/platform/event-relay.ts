import { eventRelayFunction } from '../../shared/platform/events/relay';
import { relayedQueues } from '../../shared/queues';

export const handler = eventRelayFunction(relayedQueues);
