import { confidenceOf, reasonCodeOf, referenceFactsShown, type ReasonCode } from '../mapping';
import type { BookChange } from './change-log';
import { entrySummary, type BookEntry } from './entries';

/** An entry as the organization reads it: `connected`, the suppliers whose codes it is shown. */
export function entryView(entry: BookEntry, connected: readonly string[]) {
  return {
    ...entrySummary(entry),
    ...referenceFactsShown(entry, connected),
    reasonCode: entryReasonCode(entry),
    ...(entry.status !== 'DELETED' && { confidence: confidenceOf({ status: entry.status, method: entry.method, score: entry.score }) }),
    evidence: entry.evidence,
    candidates: entry.candidates,
    engine: {
      status: entry.engine.status,
      method: entry.engine.method,
      referenceHotelId: entry.engine.referenceHotelId,
      referenceHotelName: entry.engine.referenceHotelName,
      score: entry.engine.score,
    },
    decision: entry.decision && { ...entry.decision, ...referenceFactsShown(entry.decision, connected) },
    history: entry.history,
  };
}

/** A change of the feed as the organization reads it. */
export function changeView(change: BookChange, connected: readonly string[]) {
  return { ...change, ...referenceFactsShown(change, connected) };
}

/**
 * Why a REVIEW or UNMATCHED entry is so, for a machine: a person's NO_MATCH, a decision to take again
 * (the partner's hotel changed since), or the engine's reason for its answer.
 */
function entryReasonCode(entry: BookEntry): ReasonCode | undefined {
  if (entry.status === 'DELETED') return undefined;
  if (entry.status === 'REVIEW' && entry.decision) return 'PARTNER_HOTEL_CHANGED';
  return reasonCodeOf({
    status: entry.status,
    method: entry.method,
    score: entry.score,
    reason: entry.engine.reason,
    candidates: entry.candidates,
  });
}
