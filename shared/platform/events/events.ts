/**
 * An event: a change that someone outside is told of. Producers record it in the transaction of
 * the change (outbox.ts); which events there are and what they carry is the business's
 * (shared/events), not the platform's.
 */
export interface DomainEvent {
  id: string;
  type: string;
  /** The organization the event is delivered to. */
  organizationId: string;
  occurredAt: string;
  data: Record<string, unknown>;
  /** The work that caused it (correlation.ts): recorded with it, carried to its deliveries. */
  correlationId?: string;
}
