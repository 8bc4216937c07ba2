/**
 * The life of an export a worker prepares, one at a time per holder (a job; a book's source):
 *   (none) --request--> PREPARING --worker--> READY
 * A READY export is handed out again while it is current (the holder says what that means: the same
 * format, nothing changed since, its file still kept). Otherwise, or when a PREPARING one is overdue
 * (its worker failed, or its message was lost), the next request prepares a new one. Of two requests
 * that read the same export, one claims the new one and the other answers what it claimed. A claim
 * whose message could not be sent is given up, so that the next request prepares one at once.
 */

/** What the lifecycle reads of a held export. */
export interface HeldExport {
  status: 'PREPARING' | 'READY';
  requestedAt: string;
}

/** Where a holder keeps its one export, and how it tells one current. */
export interface ExportHolder<E extends HeldExport> {
  /** The export held now; none before the first request. */
  held(): Promise<E | undefined>;
  idOf(held: E): string;
  /** Whether a READY export may be handed out again. */
  isCurrent(ready: E): boolean;
  /** A PREPARING export older than this is prepared again. */
  overdueSeconds: number;
  /** The export to prepare next. May refuse (throw) before anything is claimed. */
  next(): Promise<E>;
  /** Puts `next` in place of `replaced` (none: the first); false when another request replaced it first. */
  claim(next: E, replaced: E | undefined): Promise<boolean>;
  /** Hands the claimed export to the worker. */
  send(next: E): Promise<void>;
  /** Gives a claimed export up, unless another request has replaced it. */
  release(next: E): Promise<void>;
  now(): Date;
}

export type ExportRequest<E> = { status: 'READY'; held: E } | { status: 'PREPARING'; held: E };

/** The export a request answers: the ready one while it is current, else the one prepared (claimed now, if none is under way). */
export async function requestPreparedExport<E extends HeldExport>(holder: ExportHolder<E>): Promise<ExportRequest<E>> {
  for (;;) {
    const held = await holder.held();
    if (held?.status === 'READY' && holder.isCurrent(held)) return { status: 'READY', held };
    if (held?.status === 'PREPARING' && !isOverdue(holder, held)) return { status: 'PREPARING', held };
    const next = await holder.next();
    // Another request changed the export since it was read: answer what it did.
    if (!(await holder.claim(next, held))) continue;
    try {
      await holder.send(next);
    } catch (error) {
      await holder.release(next);
      throw error;
    }
    return { status: 'PREPARING', held: next };
  }
}

/** The worker's side: prepares the export a message names, unless it was replaced or is ready already. */
export async function prepareNamedExport<E extends HeldExport>(
  holder: Pick<ExportHolder<E>, 'held' | 'idOf'>,
  exportId: string,
  prepare: (held: E) => Promise<void>,
): Promise<void> {
  const held = await holder.held();
  if (held === undefined || holder.idOf(held) !== exportId || held.status !== 'PREPARING') return;
  await prepare(held);
}

function isOverdue(holder: Pick<ExportHolder<HeldExport>, 'overdueSeconds' | 'now'>, held: HeldExport): boolean {
  return holder.now().getTime() - Date.parse(held.requestedAt) > holder.overdueSeconds * 1000;
}
