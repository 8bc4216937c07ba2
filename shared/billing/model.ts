/**
 * Billing state and the ports the billing domain works through. Counts are integers: credits in
 * credit units (1 credit = 1 mapping), money in cents; timestamps are ISO strings, provider
 * event times epoch seconds.
 */
import type { PlanType } from '../organizations';
import type { TransactItem } from '../platform/table';

/** A paid subscription as the payment provider reports it. */
export interface SubscriptionState {
  /** The payment provider's subscription id. */
  id: string;
  /** active, trialing, past_due, canceled, or another provider status. */
  status: string;
  planType: PlanType;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
}

/** An organization's billing record: its provider customer, credits and subscriptions. */
export interface BillingAccount {
  customerId?: string;
  creditsRemaining: number;
  creditsUsed: number;
  /** Paid for credits, all purchases together. */
  totalSpentCents: number;
  /** The subscription the organization is on (or the last one it had): what `subscription` shows. */
  subscription?: SubscriptionState;
  /** Every subscription its events recorded, by id (subscriptions.ts). */
  subscriptions?: Record<string, RecordedSubscription>;
  /** The plan it has apart from subscriptions (subscriptions.ts). */
  basePlan?: PlanType;
  subscriptionsVersion?: number;
  /** Written before `subscriptions` existed: the time of the event behind `subscription`. */
  subscriptionEventAt?: number;
}

/** What a provider event means for billing, whatever provider sent it. */
export type BillingEvent = {
  /** The provider's event id: each is applied once. */
  id: string;
  /** When the provider created the event, epoch seconds: orders subscription changes. */
  createdAt: number;
  customerId: string;
  /** Known when the checkout carried it; otherwise found from the customer. */
  organizationId?: string;
} & (
  | { kind: 'subscription_changed'; subscription: SubscriptionState }
  | { kind: 'credits_purchased'; millions: number; amountPaidCents: number }
  | { kind: 'payment_failed'; subscriptionId: string }
);

export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'unknown_customer';

/** Where paid state is written; only provider events reach these writers. */
export interface BillingLedger {
  account(organizationId: string): Promise<BillingAccount>;
  /** Stores the organization's provider customer unless one is stored already; returns the stored one. */
  attachCustomer(organizationId: string, customerId: string): Promise<string>;
  organizationOfCustomer(customerId: string): Promise<string | undefined>;
  /** The organization's subscriptions and its plan now (undefined when it no longer exists). */
  subscriptions(organizationId: string): Promise<{ book: SubscriptionBook; organizationPlan?: PlanType }>;
  /**
   * Writes a subscription change with the event's processed marker, only if neither the book nor
   * the organization's plan changed since they were read: `changed_meanwhile` asks to decide again.
   */
  recordSubscriptions(
    organizationId: string,
    change: {
      eventId: string;
      read: { version: number; organizationPlan: PlanType };
      book: SubscriptionBook;
      shown: SubscriptionState;
      planType: PlanType;
    },
  ): Promise<'applied' | 'duplicate' | 'changed_meanwhile'>;
  /** Marks an event that changes nothing as processed: `stale`, or `duplicate` if it was already. */
  markEventProcessed(organizationId: string, eventId: string): Promise<'stale' | 'duplicate'>;
  /** Adds a purchase; refuses (invalid_input) one that would take a count past Number.MAX_SAFE_INTEGER. */
  recordCreditPurchase(
    organizationId: string,
    purchase: { eventId: string; credits: number; amountPaidCents: number },
  ): Promise<EventOutcome>;
}

// --- metering ------------------------------------------------------------------------------------

export interface SupplierRef {
  id: string;
  code: string;
  name: string;
}

/** Mappings set aside for one job: taken from the day's allowance first, then from credits. */
export interface Reservation {
  jobId: string;
  /** UTC day and billing month the job is counted in (when it was reserved). */
  day: string;
  month: string;
  fromAllowance: number;
  fromCredits: number;
  supplier?: SupplierRef;
  reservedAt: string;
  status: 'reserved' | 'settled';
  /** Mappings actually processed, once settled. */
  processed?: number;
}

/** How a settled job's reservation is split between what it used and what goes back. */
export interface Settlement {
  processed: number;
  allowanceUsed: number;
  creditsUsed: number;
  allowanceRefund: number;
  creditsRefund: number;
}

/** Mappings done and counted at once, funded as a reservation is. */
export interface Charge {
  day: string;
  month: string;
  fromAllowance: number;
  fromCredits: number;
  supplier?: SupplierRef;
  /** Names the request charged: the same receipt is charged once (kept CHARGE_RECEIPT_HOURS). */
  receiptId?: string;
}

/** How long a charge's receipt is kept: as long as an Idempotency-Key's answer, so a retry with the key finds it. */
export const CHARGE_RECEIPT_HOURS = 24;

/** What charging came to: counted now, counted already under the same receipt, or a condition lost to a concurrent writer. */
export type ChargeOutcome = 'charged' | 'charged_before' | 'contended';

export interface DailyUsage {
  day: string;
  /** Mappings counted against the day's allowance, running jobs' reservations included. */
  allowanceUsed: number;
  /** Mappings processed (settled) by jobs reserved that day. */
  mappings: number;
}

export interface MonthlyUsage {
  month: string;
  mappings: number;
  /** Credits consumed: the month's cost, in credit units. */
  costCredits: number;
}

export interface SupplierUsage extends MonthlyUsage {
  supplierId: string;
  supplierCode: string;
  supplierName: string;
}

export type ReserveOutcome = 'reserved' | 'already_reserved' | 'contended';

/** Where usage is counted. Every write is conditional, so concurrent jobs never overspend. */
export interface UsageLedger {
  allowanceUsed(organizationId: string, day: string): Promise<number>;
  creditsRemaining(organizationId: string): Promise<number>;
  /**
   * Writes the reservation and takes its parts from the day's allowance (only while at most
   * `dailyLimit` is used) and from credits (only while the balance covers them), all or nothing.
   */
  reserve(organizationId: string, reservation: Reservation, dailyLimit: number): Promise<ReserveOutcome>;
  reservation(organizationId: string, jobId: string): Promise<Reservation | undefined>;
  /** Settles a reserved job once: false when it was settled already. */
  settle(organizationId: string, reservation: Reservation, settlement: Settlement): Promise<boolean>;
  /**
   * Counts mappings done at once (no reservation): takes its parts from the day's allowance (only
   * while at most `dailyLimit` is used) and from credits (only while the balance covers them), adds
   * them to the usage counters and writes the receipt, with `writes`, all or nothing.
   */
  charge(organizationId: string, charge: Charge, dailyLimit: number, writes?: readonly TransactItem[]): Promise<ChargeOutcome>;
  /** Whether a charge under this receipt was counted (and its receipt still kept). */
  charged(organizationId: string, receiptId: string): Promise<boolean>;
  day(organizationId: string, day: string): Promise<DailyUsage>;
  month(organizationId: string, month: string): Promise<MonthlyUsage>;
  /** Months from `from` to `to` inclusive that have usage. */
  months(organizationId: string, from: string, to: string): Promise<MonthlyUsage[]>;
  suppliers(organizationId: string, month: string): Promise<SupplierUsage[]>;
}

/** The payment provider: hosted pages, customers, live subscription state. */
export interface PaymentProvider {
  /** Creates the organization's customer; the same organization always gets the same customer. */
  createCustomer(organization: { id: string; name: string }): Promise<string>;
  /** A hosted checkout page (absolute URL, or a path on this API's host for the local provider). */
  createCheckout(checkout: CheckoutRequest): Promise<string>;
  createPortal(portal: { customerId: string; returnUrl: string }): Promise<string>;
  /** Live state; undefined when the provider does not know the subscription. */
  subscription(subscriptionId: string): Promise<SubscriptionState | undefined>;
}

export type CheckoutRequest = {
  organizationId: string;
  customerId: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
} & ({ mode: 'subscription'; planType: PlanType } | { mode: 'payment'; minimumQuantity: number; maximumQuantity: number });

/** Turns a provider's signed webhook delivery into a billing event (or nothing to act on). */
export interface PaymentEventReader {
  /** Throws DomainError invalid_input when the signature does not verify. */
  read(rawBody: string, signature: string | undefined, receivedAt: Date): Promise<BillingEvent | { ignored: string }>;
}

export interface RecordedSubscription extends SubscriptionState {
  /** `created` (epoch seconds) of the newest event applied to it: its events apply in order. */
  eventAt: number;
  /** `created` of the first event recorded about it: of two live ones granting a plan, the older is shown. */
  firstEventAt: number;
}

/** An organization's subscriptions, as the billing account stores them. */
export interface SubscriptionBook {
  subscriptions: Record<string, RecordedSubscription>;
  /**
   * The plan the organization has apart from subscriptions: the one it was created with or an
   * admin gave it. Subscriptions can lift the plan above it, never take it below.
   */
  basePlan: PlanType;
  /** Bumped by every change; a write expects the version it read (0: never written). */
  version: number;
}
