import type { BookEntry } from './entries';

export function entryView(entry: BookEntry) {
  return {
    source: entry.source,
    partnerHotelId: entry.partnerHotelId,
    partner: entry.partner,
    status: entry.status,
    method: entry.method,
    referenceHotelId: entry.referenceHotelId,
    referenceHotelName: entry.referenceHotelName,
    score: entry.score,
    reason: entry.reason,
    changedAt: entry.changedAt,
    cause: entry.cause,
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
