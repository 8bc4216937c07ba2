/**
 * A completed job's results as files in the bucket, not as table items: the finishing stage writes
 * them once, sorted the two ways the results API reads them (partner id order, and each engine
 * status-and-method partition best score first), as Brotli blocks of VIEW_BLOCK_ROWS rows laid end
 * to end in one object, with a small manifest of each block's first key and place. A read fetches
 * the blocks it needs by byte range. A person's decisions are small table items (store.ts) that
 * reads lay over the files. A mapped row so costs a share of two S3 writes per job instead of two
 * DynamoDB write units of its own (README, "Unit cost").
 */
import { blockAscending, blockDescending, BlockFileWriter, blocksOf, cachedRead, inUtf8Order, readBlock, type BlockRef } from '../platform/objects/block-files';
import type { ObjectStore } from '../platform/objects/object-store';
import { decodeCursor, encodeCursor } from '../platform/table';
import { OWN_SOURCE } from '../mapping-book';
import { jobObjects, type MappingJob, type StoredResult } from './job';
import { partitionName, resultSortKey, sortKeyBytes, type MappingJobStore, type ResultPage } from './store';

/** Rows per block: a default page of 100 reads one block, a page of 1,000 two or three. */
export const VIEW_BLOCK_ROWS = 500;

interface Manifest {
  rows: number;
  /** The blocks in partner id order. */
  byId: BlockRef[];
  /** Per engine partition (`STATUS#METHOD`), its blocks best score first. */
  byScore: Record<string, BlockRef[]>;
  /** The book sources the rows belong to. */
  sources?: string[];
}

const viewKeys = {
  manifest: (job: Pick<MappingJob, 'organizationId' | 'id'>) => `${jobObjects.views(job)}manifest.json`,
  blocks: (job: Pick<MappingJob, 'organizationId' | 'id'>) => `${jobObjects.views(job)}blocks`,
};

/** Rows in the order DynamoDB kept them: partner ids by their UTF-8 bytes. */
const byPartnerId = (results: readonly StoredResult[]) => inUtf8Order(results, (result) => result.partnerHotelId, 1);

/** Best score first, ties by partner id from the last, as a descending Query of GSI1 gave them. */
const byScoreDescending = (results: readonly StoredResult[]) => inUtf8Order(results, (result) => resultSortKey(result.score, result.partnerHotelId), -1);

/**
 * Writes a job's views from its final results; the manifest last, so its presence says the blocks
 * are there. Writing them again from the same results writes the same files.
 */
export async function writeResultViews(objects: Pick<ObjectStore, 'put'>, job: Pick<MappingJob, 'organizationId' | 'id'>, results: readonly StoredResult[]): Promise<void> {
  const file = new BlockFileWriter();
  const manifest: Manifest = {
    rows: results.length,
    byId: blocksOf(byPartnerId(results), VIEW_BLOCK_ROWS).map((rows) => file.add(rows, rows[0]!.partnerHotelId)),
    byScore: {},
    sources: [...new Set(results.map((result) => result.source ?? OWN_SOURCE))].sort(),
  };
  const partitions = new Map<string, StoredResult[]>();
  for (const result of results) {
    const partition = partitionName(result.status, result.method);
    (partitions.get(partition) ?? partitions.set(partition, []).get(partition)!).push(result);
  }
  for (const [partition, rows] of partitions) {
    manifest.byScore[partition] = blocksOf(byScoreDescending(rows), VIEW_BLOCK_ROWS).map((block) => file.add(block, resultSortKey(block[0]!.score, block[0]!.partnerHotelId)));
  }
  await objects.put(viewKeys.blocks(job), file.bytes(), 'application/octet-stream');
  await objects.put(viewKeys.manifest(job), JSON.stringify(manifest), 'application/json');
}

/** A completed job's rows as the engine left them, in partner id order, a block at a time: what the job writes into the book. */
export class EngineRowsInOrder {
  constructor(
    private readonly objects: Pick<ObjectStore, 'get'>,
    private readonly job: Pick<MappingJob, 'organizationId' | 'id'>,
  ) {}

  /** The first partner id of each block, and the book sources of the rows. */
  async outline(): Promise<{ firstIds: string[]; sources: string[] }> {
    const manifest = await readManifest(this.objects, this.job);
    return { firstIds: manifest.byId.map((block) => block.first), sources: manifest.sources ?? [OWN_SOURCE] };
  }

  /** The rows of blocks `from` to `to` (excluded). */
  async rows(from: number, to: number): Promise<StoredResult[]> {
    const manifest = await readManifest(this.objects, this.job);
    const blocks = await Promise.all(manifest.byId.slice(from, to).map((block) => readBlock<StoredResult>(this.objects, viewKeys.blocks(this.job), block)));
    return blocks.flat();
  }
}

function readManifest(objects: Pick<ObjectStore, 'get'>, job: Pick<MappingJob, 'organizationId' | 'id'>): Promise<Manifest> {
  const key = viewKeys.manifest(job);
  return cachedRead(key, async () => {
    const bytes = await objects.get(key);
    if (!bytes) throw new Error(`The results view ${key} of job ${job.id} is missing.`);
    return JSON.parse(bytes.toString('utf8')) as Manifest;
  });
}

export type DecisionReads = Pick<MappingJobStore, 'getDecision' | 'decisionsBetween' | 'decidedBetween' | 'decisionsOfPartition'>;

/**
 * The reads `queryResults` makes (results.ts), over a completed job's views and its decisions: a
 * decided row shows as decided, where the decision put it.
 */
export class ResultViews {
  constructor(
    private readonly objects: Pick<ObjectStore, 'get'>,
    private readonly decisions: DecisionReads,
    private readonly job: Pick<MappingJob, 'organizationId' | 'id'>,
  ) {}

  async getResult(_jobId: string, partnerHotelId: string): Promise<StoredResult | undefined> {
    const [engine, decided] = await Promise.all([this.engineRow(partnerHotelId), this.decisions.getDecision(this.job.id, partnerHotelId)]);
    return engine && (decided ?? engine);
  }

  /** A row as the engine left it, whatever a person decided. */
  getEngineResult(partnerHotelId: string): Promise<StoredResult | undefined> {
    return this.engineRow(partnerHotelId);
  }

  /** Results in partner id order, from a cursor of this list. */
  async resultsInOrder(_jobId: string, limit: number, cursor: string | undefined): Promise<ResultPage> {
    const partition = { PK: `JOB#${this.job.id}` };
    const after = decodeCursor(cursor, { partition, attributes: ['SK'] })?.SK?.slice('RESULT#'.length);
    const afterBytes = after === undefined ? undefined : Buffer.from(after, 'utf8');
    const manifest = await this.manifest();
    const rows: StoredResult[] = [];
    // One row past the page says whether there is a next one.
    for (let block = afterBytes ? blockAscending(manifest.byId, afterBytes) : 0; block < manifest.byId.length && rows.length <= limit; block++) {
      for (const row of await this.block(manifest.byId[block]!)) {
        if (afterBytes && Buffer.compare(Buffer.from(row.partnerHotelId, 'utf8'), afterBytes) <= 0) continue;
        rows.push(row);
        if (rows.length > limit) break;
      }
    }
    const page = rows.slice(0, limit);
    if (page.length === 0) return { results: [], nextCursor: null };
    const decided = new Map(
      (await this.decisions.decisionsBetween(this.job.id, page[0]!.partnerHotelId, page[page.length - 1]!.partnerHotelId)).map((result) => [result.partnerHotelId, result]),
    );
    return {
      results: page.map((row) => decided.get(row.partnerHotelId) ?? row),
      nextCursor: rows.length > limit ? encodeCursor({ ...partition, SK: `RESULT#${page[page.length - 1]!.partnerHotelId}` }) : null,
    };
  }

  /** One status-and-method partition, best score first, with sort keys from `lowest` up to `highest`. */
  async resultsOfPartition(partition: string, lowest: string, highest: string, limit: number): Promise<(StoredResult & { sortKey: string })[]> {
    const name = partition.slice(`JOB#${this.job.id}#`.length);
    // Only a person makes a MANUAL row: those partitions hold decisions alone.
    if (name.endsWith('#MANUAL')) return this.decisions.decisionsOfPartition(partition, lowest, highest, limit);
    const blocks = (await this.manifest()).byScore[name] ?? [];
    const [lowestBytes, highestBytes] = [sortKeyBytes(lowest), sortKeyBytes(highest)];
    const page: (StoredResult & { sortKey: string })[] = [];
    let batch: (StoredResult & { sortKey: string })[] = [];
    // Rows are taken a page at a time; the decided ones among them are left out, and more taken.
    const settle = async () => {
      if (batch.length === 0) return;
      const decided = await this.decisions.decidedBetween(this.job.id, name, batch[batch.length - 1]!.sortKey, batch[0]!.sortKey);
      page.push(...batch.filter((row) => !decided.has(row.partnerHotelId)));
      batch = [];
    };
    scan: for (let block = blockDescending(blocks, highestBytes); block < blocks.length; block++) {
      for (const row of await this.block(blocks[block]!)) {
        const sortKey = resultSortKey(row.score, row.partnerHotelId);
        const bytes = sortKeyBytes(sortKey);
        if (Buffer.compare(bytes, highestBytes) > 0) continue;
        if (Buffer.compare(bytes, lowestBytes) < 0) break scan;
        batch.push({ ...row, sortKey });
        if (page.length + batch.length >= limit) {
          await settle();
          if (page.length >= limit) break scan;
        }
      }
    }
    await settle();
    return page.slice(0, limit);
  }

  private async engineRow(partnerHotelId: string): Promise<StoredResult | undefined> {
    const manifest = await this.manifest();
    if (manifest.rows === 0) return undefined;
    const block = blockAscending(manifest.byId, Buffer.from(partnerHotelId, 'utf8'));
    return (await this.block(manifest.byId[block]!)).find((row) => row.partnerHotelId === partnerHotelId);
  }

  private manifest(): Promise<Manifest> {
    return readManifest(this.objects, this.job);
  }

  private block(block: BlockRef): Promise<StoredResult[]> {
    return readBlock<StoredResult>(this.objects, viewKeys.blocks(this.job), block);
  }
}
