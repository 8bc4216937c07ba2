import { confidenceOf, reasonCodeOf, type ReasonCode } from '../mapping';
import { entrySummary, type BookEntry } from './entries';

export function entryView(entry: BookEntry) {
  return {
    ...entrySummary(entry),
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
    decision: entry.decision,
    history: entry.history,
  };
}

/**
 * Why a REVIEW or UNMATCHED entry is so, for a machine: a person's NO_MATCH, a decision to take again
 * (the partner's hotel changed since), or the engine's reason for its answer.
 */
function entryReasonCode(entry: BookEntry): ReasonCode | undefined {
  if (entry.status === 'DELETED') return undefined;
  if (entry.status === 'REVIEW' && entry.decision) return 'PARTNER_HOTEL_CHANGED';
  return reasonCodeOf({ status: entry.status, method: entry.method, score: entry.score, reason: entry.engine.reason, candidates: entry.candidates });
}
