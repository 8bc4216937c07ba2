import { eventRelayFunction } from '../../shared/platform/events/relay';
import { referenceChangeMessages } from '../../shared/reference';

export const handler = eventRelayFunction([referenceChangeMessages]);
