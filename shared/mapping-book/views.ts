import { entrySummary, type BookEntry } from './entries';

export function entryView(entry: BookEntry) {
  return {
    ...entrySummary(entry),
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
