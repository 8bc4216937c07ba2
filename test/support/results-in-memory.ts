/** A job's views in memory, as the result-views and result-search tests read them: the bucket and the decisions. */
import type { ObjectStore } from '../../shared/platform/objects/object-store';
import type { ScoreOrder } from '../../shared/mapping';
import type { StoredResult } from '../../shared/mapping-jobs/job';
import type { DecisionReads } from '../../shared/mapping-jobs/result-views';
import { partitionName, resultPartition, resultSortKey, sortKeyBytes } from '../../shared/mapping-jobs/store';

/** The bucket in memory: whole objects and byte ranges, every read noted. */
export class ObjectsInMemory implements Pick<ObjectStore, 'put' | 'get' | 'delete'> {
  readonly files = new Map<string, Buffer>();
  readonly reads: string[] = [];
  readonly writes: string[] = [];

  async put(key: string, body: Buffer | string): Promise<void> {
    this.writes.push(key);
    this.files.set(key, Buffer.from(body));
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.files.delete(key);
  }

  async get(key: string, range?: { start: number; length: number }): Promise<Buffer | undefined> {
    this.reads.push(range ? `${key}@${range.start}` : key);
    const file = this.files.get(key);
    return file && (range ? file.subarray(range.start, range.start + range.length) : file);
  }
}

export const bytesOf = (text: string) => Buffer.from(text, 'utf8');
export const between = (key: string, lowest: string, highest: string) =>
  Buffer.compare(bytesOf(key), bytesOf(lowest)) >= 0 && Buffer.compare(bytesOf(key), bytesOf(highest)) <= 0;

/** The decisions as the store keeps them (store.ts), in memory. */
export class DecisionsInMemory implements DecisionReads {
  constructor(private readonly jobId = 'job-0') {}

  readonly decided = new Map<string, { engine: StoredResult; decision: StoredResult }>();

  decide(engine: StoredResult, decision: 'MATCH' | 'NO_MATCH'): void {
    const review = {
      decision,
      previous: { status: engine.status, referenceHotelId: engine.referenceHotelId, score: engine.score },
      decidedBy: 'key-1',
      decidedAt: '2026-11-28T10:00:00.000Z',
    };
    const decided: StoredResult =
      decision === 'MATCH'
        ? { ...engine, status: 'MATCHED', method: 'MANUAL', referenceHotelId: 'ref-chosen', referenceHotelName: 'Chosen', score: 1, review }
        : { ...engine, status: 'UNMATCHED', method: 'MANUAL', referenceHotelId: null, referenceHotelName: null, score: 0, review };
    this.decided.set(engine.partnerHotelId, { engine, decision: decided });
  }

  async getDecision(_jobId: string, partnerHotelId: string) {
    return this.decided.get(partnerHotelId)?.decision;
  }

  async decisionsBetween(_jobId: string, first: string, last: string) {
    return [...this.decided.values()]
      .filter(({ decision }) => between(decision.partnerHotelId, first, last))
      .map(({ decision }) => decision);
  }

  async decidedBetween(_jobId: string, enginePartition: string, lowest: string, highest: string) {
    return new Set(
      [...this.decided.values()]
        .filter(
          ({ engine }) =>
            partitionName(engine.status, engine.method) === enginePartition &&
            between(resultSortKey(engine.score, engine.partnerHotelId), lowest, highest),
        )
        .map(({ engine }) => engine.partnerHotelId),
    );
  }

  async decisionsOfPartition(partition: string, lowest: string, highest: string, limit: number, order: ScoreOrder = 'DESC') {
    return [...this.decided.values()]
      .map(({ decision }) => ({ ...decision, sortKey: resultSortKey(decision.score, decision.partnerHotelId) }))
      .filter(
        (decision) =>
          resultPartition(this.jobId, decision.status, decision.method) === partition && between(decision.sortKey, lowest, highest),
      )
      .sort((a, b) => Buffer.compare(sortKeyBytes(b.sortKey), sortKeyBytes(a.sortKey)) * (order === 'ASC' ? -1 : 1))
      .slice(0, limit);
  }
}
