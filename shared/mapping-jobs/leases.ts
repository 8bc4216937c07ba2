/**
 * Row leases: several people work one job's queue without meeting on a row. A reviewer (a holder: a
 * name its client makes up, one per person and screen) asks for the rows it is about to show; each
 * is leased to it for a short while unless another holder's lease stands, and renewed by asking
 * again. Asking releases the holder's other rows; leaving releases them all. A decision on a row
 * leased to another holder is refused (the review's transaction checks the lease).
 */
import type { Clock } from '../platform/clock';
import { conflict } from '../platform/errors';
import type { MappingJob } from './job';
import type { RowLease, RowLeaseStore } from './lease-store';

/** How long a lease lasts unless renewed, and the bounds a client may ask for. */
export const LEASE_SECONDS = { default: 90, min: 15, max: 300 } as const;
/** Rows one holder leases at once at most: the row shown and the ones read ahead. */
export const LEASED_ROWS_MAX = 20;

export interface LeasePorts {
  leases: Pick<RowLeaseStore, 'take' | 'heldBy' | 'release'>;
  /** When each row was last decided (null: no decision stands), in the order asked. */
  decidedAt(job: MappingJob, partnerHotelIds: readonly string[]): Promise<(string | null)[]>;
  clock: Clock;
}

/** What a holder holds after asking: the rows leased to it, with when each was last decided, and the ones another holder has. */
export interface HeldRows {
  leased: { partnerHotelId: string; expiresAt: string; decidedAt: string | null }[];
  taken: { partnerHotelId: string; expiresAt: string }[];
}

/**
 * Leases these rows of a completed job to `holder` for `seconds` (new ones, and its own renewed once
 * half their time is gone) where no other holder's lease stands, and releases its other rows.
 */
export async function holdRows(
  ports: LeasePorts,
  job: MappingJob,
  holder: string,
  partnerHotelIds: readonly string[],
  seconds: number,
): Promise<HeldRows> {
  if (job.status !== 'COMPLETED') throw conflict(`The job is ${job.status}; its rows are leased for review once it is COMPLETED.`);
  const wanted = [...new Set(partnerHotelIds)];
  const now = ports.clock.now();
  const until = new Date(now.getTime() + seconds * 1000);
  const before = new Map((await ports.leases.heldBy(job.id, holder)).map((lease) => [lease.partnerHotelId, lease]));
  const kept = new Set(wanted);
  await ports.leases.release(
    job.id,
    holder,
    [...before.keys()].filter((id) => !kept.has(id)),
  );
  // A row held with more than half its time left stands as it is: asked again as the reviewer moves on, it is not written again.
  const fresh = (lease: RowLease | undefined): lease is RowLease =>
    lease !== undefined && Date.parse(lease.expiresAt) - now.getTime() > (seconds * 1000) / 2;
  const leases = await Promise.all(
    wanted.map(async (id) => {
      const held = before.get(id);
      return fresh(held) ? held : ports.leases.take(job.id, id, holder, now, until);
    }),
  );
  const mine = leases.filter((lease) => lease.holder === holder);
  const decided = await ports.decidedAt(
    job,
    mine.map((lease) => lease.partnerHotelId),
  );
  return {
    leased: mine.map((lease, i) => ({ partnerHotelId: lease.partnerHotelId, expiresAt: lease.expiresAt, decidedAt: decided[i]! })),
    taken: leases.filter((lease) => lease.holder !== holder).map(({ partnerHotelId, expiresAt }) => ({ partnerHotelId, expiresAt })),
  };
}

/** Releases every row leased to `holder`: it left the queue. */
export async function leaveRows(ports: Pick<LeasePorts, 'leases'>, job: MappingJob, holder: string): Promise<void> {
  await ports.leases.release(
    job.id,
    holder,
    (await ports.leases.heldBy(job.id, holder)).map((lease) => lease.partnerHotelId),
  );
}
