/**
 * Events the service emits for webhook subscriptions. Producers record them in the transaction of
 * the change they tell of (outbox.ts); the webhook capability delivers them.
 */
export const EVENT_TYPES = ['MAPPING_COMPLETED', 'MAPPING_ERROR_RESOLVED', 'INVENTORY_DUPLICATE_RESOLVED'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface DomainEvent {
  id: string;
  type: EventType;
  /** The organization the event is delivered to. */
  organizationId: string;
  occurredAt: string;
  data: Record<string, unknown>;
}
