import { eventRelayFunction } from '../../shared/platform/events/relay';

export const handler = eventRelayFunction();
