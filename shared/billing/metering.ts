/**
 * Metering: reserve a job's mappings before it runs and settle the real count when it ends, or
 * charge mappings done within a request at once. Reads only plan a reservation; the ledger's conditional writes decide it, so parallel
 * jobs never spend the same allowance or credits twice.
 */
import type { Clock } from '../platform/clock';
import { forbidden } from '../platform/errors';
import { recordCount } from '../platform/metrics';
import type { TransactItem } from '../platform/table';
import { PLAN_LIMITS, type PlanType } from '../organizations';
import type { Charge, Reservation, Settlement, SupplierRef, UsageLedger } from './model';
import { billingMonth, utcDay } from './periods';
import { fundReservation, settle } from './quota';

/** What metering counts (the dashboard reads these names: infra/observability.ts). */
export const BILLING_METRICS = { reservationsSettled: 'ReservationsSettled', mappingsReleased: 'MappingsReleased' } as const;

export interface PlanLookup {
  /** The organization's current plan. */
  planOf(organizationId: string): Promise<PlanType>;
}

/** Attempts before giving up under contention (each lost race re-reads and tries again). */
const MAX_ATTEMPTS = 25;

export class Metering {
  constructor(
    private readonly ledger: UsageLedger,
    private readonly plans: PlanLookup,
    private readonly clock: Clock,
  ) {}

  /**
   * Sets aside `mappings` for a job, or throws DomainError 'forbidden' when neither the day's
   * allowance nor the credits cover it. Reserving the same job again returns its reservation.
   */
  async reserve(request: { organizationId: string; jobId: string; mappings: number; supplier?: SupplierRef }): Promise<Reservation> {
    const { organizationId, jobId } = request;
    if (!Number.isSafeInteger(request.mappings) || request.mappings < 0) throw new Error('mappings must be a whole number');
    const existing = await this.ledger.reservation(organizationId, jobId);
    if (existing) return existing;
    const dailyLimit = PLAN_LIMITS[await this.plans.planOf(organizationId)].mappingsPerDay;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      const day = utcDay(now);
      const [allowanceUsed, creditsRemaining] = await Promise.all([
        this.ledger.allowanceUsed(organizationId, day),
        this.ledger.creditsRemaining(organizationId),
      ]);
      const funding = fundReservation({ requested: request.mappings, dailyLimit, allowanceUsed, creditsRemaining });
      if (!funding) throw notEnoughQuota(request.mappings, dailyLimit, allowanceUsed, creditsRemaining);
      const reservation: Reservation = {
        jobId,
        day,
        month: billingMonth(now),
        ...funding,
        ...(request.supplier && { supplier: request.supplier }),
        reservedAt: now.toISOString(),
        status: 'reserved',
      };
      const outcome = await this.ledger.reserve(organizationId, reservation, dailyLimit);
      if (outcome === 'reserved') return reservation;
      if (outcome === 'already_reserved') return (await this.ledger.reservation(organizationId, jobId))!;
      await pause(attempt);
    }
    throw new Error(`Could not reserve mappings for job ${jobId}: too much contention.`);
  }

  /**
   * Records what the job processed and gives back the rest (allowance to the day it came from,
   * credits to the balance). Settling twice changes nothing and returns the first settlement.
   */
  async settle(request: { organizationId: string; jobId: string; processed: number }): Promise<Settlement> {
    const { organizationId, jobId } = request;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const reservation = await this.ledger.reservation(organizationId, jobId);
      if (!reservation) throw new Error(`No reservation for job ${jobId}.`);
      if (reservation.status === 'settled') return settle(reservation, reservation.processed ?? 0);
      const settlement = settle(reservation, request.processed);
      if (await this.ledger.settle(organizationId, reservation, settlement)) {
        recordCount(BILLING_METRICS.reservationsSettled);
        recordCount(BILLING_METRICS.mappingsReleased, settlement.allowanceRefund + settlement.creditsRefund);
        return settlement;
      }
      await pause(attempt);
    }
    throw new Error(`Could not settle job ${jobId}: too much contention.`);
  }

  /**
   * What a charge is planned on, read now: the plan's daily limit, today's allowance used and the
   * credits, and whether the receipt named was charged already.
   */
  async standing(organizationId: string, receiptId?: string): Promise<Standing> {
    const now = this.clock.now();
    const day = utcDay(now);
    const [planType, allowanceUsed, creditsRemaining, chargedBefore] = await Promise.all([
      this.plans.planOf(organizationId),
      this.ledger.allowanceUsed(organizationId, day),
      this.ledger.creditsRemaining(organizationId),
      receiptId === undefined ? false : this.ledger.charged(organizationId, receiptId),
    ]);
    return {
      day,
      month: billingMonth(now),
      dailyLimit: PLAN_LIMITS[planType].mappingsPerDay,
      allowanceUsed,
      creditsRemaining,
      chargedBefore,
    };
  }

  /**
   * Counts mappings done within a request at once, in one transaction with `writes` and with no
   * reservation to settle: today's allowance first, then credits; DomainError 'forbidden' when they
   * do not cover them. Under a receipt, a request is charged once: a request charged before (its
   * first attempt died before it answered) answers 'charged_before' and writes nothing, `writes`
   * included. Planned on `standing` (read beside the caller's other reads), read again after a lost race.
   */
  async charge(request: ChargeRequest, standing?: Standing): Promise<Pick<Charge, 'fromAllowance' | 'fromCredits'> | 'charged_before'> {
    const { organizationId, receiptId } = request;
    if (!Number.isSafeInteger(request.mappings) || request.mappings < 1) throw new Error('mappings must be a whole number above 0');
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const { day, month, dailyLimit, allowanceUsed, creditsRemaining, chargedBefore } =
        attempt === 1 && standing ? standing : await this.standing(organizationId, receiptId);
      if (chargedBefore) return 'charged_before';
      const funding = fundReservation({ requested: request.mappings, dailyLimit, allowanceUsed, creditsRemaining });
      if (!funding) throw notEnoughQuota(request.mappings, dailyLimit, allowanceUsed, creditsRemaining);
      const charge: Charge = {
        day,
        month,
        ...funding,
        ...(request.supplier && { supplier: request.supplier }),
        ...(receiptId !== undefined && { receiptId }),
      };
      const outcome = await this.ledger.charge(organizationId, charge, dailyLimit, request.writes);
      if (outcome !== 'contended') return outcome === 'charged' ? funding : 'charged_before';
      await pause(attempt);
    }
    throw new Error(`Could not charge ${request.mappings} mappings: too much contention.`);
  }
}

export interface ChargeRequest {
  organizationId: string;
  mappings: number;
  supplier?: SupplierRef;
  /** Names the request (its Idempotency-Key and body): charged once, however often it is sent again. */
  receiptId?: string;
  /** Made in the charge's transaction: what the charge pays for, recorded only if it is counted. */
  writes?: readonly TransactItem[];
}

/** An organization's quota as read at one moment, for the day and month it was read in. */
export interface Standing {
  day: string;
  month: string;
  dailyLimit: number;
  allowanceUsed: number;
  creditsRemaining: number;
  /** The receipt the standing was read for was charged already. */
  chargedBefore: boolean;
}

/** What reserve and charge answer when the day's allowance and the credits do not cover the mappings. */
function notEnoughQuota(requested: number, dailyLimit: number, allowanceUsed: number, creditsRemaining: number): Error {
  return forbidden(
    `Not enough quota: ${requested.toLocaleString('en-US')} mappings requested, ` +
      `${Math.max(0, dailyLimit - allowanceUsed).toLocaleString('en-US')} left in today's allowance and ` +
      `${creditsRemaining.toLocaleString('en-US')} credits. Buy credits or upgrade the plan.`,
  );
}

/** A short random wait that grows with the attempt, so racing writers spread out. */
function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 5 * 2 ** attempt)));
}
