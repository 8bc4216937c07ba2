/**
 * A completed job's results as files in the bucket, not as table items: the finishing stage
 * (finishing.ts) writes them once, sorted the two ways the results API reads them (partner id
 * order in blocks of ID_BLOCK_ROWS rows, and each engine status-and-method partition best score
 * first in blocks of VIEW_BLOCK_ROWS), as Brotli blocks laid end to end in a few objects, with a small manifest of each block's file,
 * first key and place. A read fetches the blocks it needs by byte range. A person's decisions are
 * small table items (store.ts) that reads lay over the files. A mapped row so costs a share of two
 * S3 writes per job instead of two DynamoDB write units of its own (operator's guide, "Unit cost").
 *
 * The views are written in parts, each within a fixed memory whatever the job's size: a part is
 * the rows of a run of chunks (in partner id order, since chunks are), with each partition's rows
 * of the part sorted; the partitions' runs of every part are then merged, a block of each at a time.
 */
import {
  blockAscending,
  blockDescending,
  BlockFileWriter,
  blocksOf,
  inUtf8Order,
  readBlockUncached,
  type BlockRef,
  type FileReads,
  type ReadCache,
} from '../platform/objects/block-files';
import type { ObjectStore } from '../platform/objects/object-store';
import { decodeCursor, encodeCursor } from '../platform/table';
import type { ScoreOrder } from '../mapping';
import { OWN_SOURCE } from '../mapping-book';
import { countResults, jobObjects, scoreFiguresOf, type JobCounts, type MappingJob, type ScoreFigures, type StoredResult } from './job';
import { partitionName, resultPartition, resultSortKey, sortKeyBytes, type MappingJobStore, type ResultPage } from './store';
import { deserializeSearchColumns, searchColumnsOf, serializeSearchColumns, type SearchColumns } from './result-search';

/** Rows per block of a partition best score first: a default page of 100 reads one block, a page of 1,000 two or three. */
export const VIEW_BLOCK_ROWS = 500;

/**
 * Rows per block in partner id order: a search's page takes its rows one by one from anywhere in
 * the job, each reading its block (blocks of 500 made a page of rare rows decode 50,000 rows).
 * A listing reads a page's blocks at once. Jobs completed before hold blocks of 500, read alike.
 */
export const ID_BLOCK_ROWS = 100;

/** Blocks per file of a merged partition: about 50,000 rows, so that no writer holds a whole partition. */
const MERGED_FILE_BLOCKS = 100;

/** A block, and the file of the views it is in (its index in the manifest's files). */
export interface FileBlock extends BlockRef {
  file: number;
}

interface Manifest {
  rows: number;
  /** The views' files, by name under the job's views folder. */
  files: string[];
  /** The blocks in partner id order. */
  byId: FileBlock[];
  /** Per engine partition (`STATUS#METHOD`), its blocks best score first. */
  byScore: Record<string, FileBlock[]>;
  /** The book sources the rows belong to. */
  sources: string[];
}

/** A part of the views: its rows in partner id order, and each partition's rows best score first, in one file. */
export interface ViewPart {
  file: string;
  rows: number;
  counts: Omit<JobCounts, 'total'>;
  /** Absent on a part written before parts carried them. */
  scores?: ScoreFigures;
  sources: string[];
  byId: BlockRef[];
  byScore: Record<string, BlockRef[]>;
}

/** A partition's runs merged: its blocks, best score first, in files of their own. */
export interface MergedPartition {
  files: string[];
  blocks: FileBlock[];
}

const viewKeys = {
  manifest: (job: Pick<MappingJob, 'organizationId' | 'id'>) => `${jobObjects.views(job)}manifest.json`,
  file: (job: Pick<MappingJob, 'organizationId' | 'id'>, name: string) => `${jobObjects.views(job)}${name}`,
  part: (part: number) => `part-${String(part).padStart(5, '0')}`,
  search: (partFile: string) => `${partFile}.search`,
  merged: (partition: string) => `scores-${partition.replace('#', '-')}`,
};

/** Rows in the order DynamoDB kept them: partner ids by their UTF-8 bytes. */
const byPartnerId = (results: readonly StoredResult[]) => inUtf8Order(results, (result) => result.partnerHotelId, 1);

/** Best score first, ties by partner id from the last, as a descending Query of GSI1 gave them. */
const byScoreDescending = (results: readonly StoredResult[]) =>
  inUtf8Order(results, (result) => resultSortKey(result.score, result.partnerHotelId), -1);

const scoreKeyOf = (row: StoredResult) => resultSortKey(row.score, row.partnerHotelId);

/**
 * Writes a part of the views from its final rows (the part's index last, so its presence says the
 * file is there). Writing it again from the same rows writes the same files.
 */
export async function writeViewPart(
  objects: Pick<ObjectStore, 'put'>,
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  part: number,
  results: readonly StoredResult[],
): Promise<ViewPart> {
  const file = new BlockFileWriter();
  const name = viewKeys.part(part);
  const index: ViewPart = {
    file: name,
    rows: results.length,
    counts: countResults(results),
    scores: scoreFiguresOf(results),
    sources: [...new Set(results.map((result) => result.source ?? OWN_SOURCE))].sort(),
    byId: blocksOf(byPartnerId(results), ID_BLOCK_ROWS).map((rows) => file.add(rows, rows[0]!.partnerHotelId)),
    byScore: {},
  };
  const partitions = new Map<string, StoredResult[]>();
  for (const result of results) {
    const partition = partitionName(result.status, result.method);
    (partitions.get(partition) ?? partitions.set(partition, []).get(partition)!).push(result);
  }
  for (const [partition, rows] of partitions)
    index.byScore[partition] = blocksOf(byScoreDescending(rows), VIEW_BLOCK_ROWS).map((block) => file.add(block, scoreKeyOf(block[0]!)));
  await objects.put(viewKeys.file(job, name), file.bytes(), 'application/octet-stream');
  await objects.put(
    viewKeys.file(job, viewKeys.search(name)),
    serializeSearchColumns(searchColumnsOf(byPartnerId(results))),
    'application/octet-stream',
  );
  await objects.put(viewKeys.file(job, `${name}.json`), JSON.stringify(index), 'application/json');
  return index;
}

/** A written part's index; undefined when the part is not written yet. */
export async function readViewPart(
  objects: Pick<ObjectStore, 'get'>,
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  part: number,
): Promise<ViewPart | undefined> {
  const bytes = await objects.get(viewKeys.file(job, `${viewKeys.part(part)}.json`));
  return bytes && (JSON.parse(bytes.toString('utf8')) as ViewPart);
}

/** A partition's blocks of one part, read a block at a time. */
async function* runRows(objects: Pick<ObjectStore, 'get'>, key: string, blocks: readonly BlockRef[]): AsyncGenerator<StoredResult> {
  for (const block of blocks) yield* await readBlockUncached<StoredResult>(objects, key, block);
}

/** Heads of sorted runs, the highest sort key on top (a binary heap): a merge of many runs picks each row in a few comparisons. */
class HighestFirst<T> {
  private readonly heap: { key: Buffer; item: T; run: number }[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(key: Buffer, item: T, run: number): void {
    const heap = this.heap;
    heap.push({ key, item, run });
    for (let at = heap.length - 1; at > 0;) {
      const parent = (at - 1) >> 1;
      if (Buffer.compare(heap[parent]!.key, heap[at]!.key) >= 0) break;
      [heap[parent], heap[at]] = [heap[at]!, heap[parent]!];
      at = parent;
    }
  }

  pop(): { item: T; run: number } {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let at = 0; ;) {
        const [left, right] = [2 * at + 1, 2 * at + 2];
        let highest = at;
        if (left < heap.length && Buffer.compare(heap[left]!.key, heap[highest]!.key) > 0) highest = left;
        if (right < heap.length && Buffer.compare(heap[right]!.key, heap[highest]!.key) > 0) highest = right;
        if (highest === at) break;
        [heap[highest], heap[at]] = [heap[at]!, heap[highest]!];
        at = highest;
      }
    }
    return { item: top.item, run: top.run };
  }
}

/**
 * Merges a partition's sorted runs of every part into one order, best score first, holding a block
 * of each run and one file being written at a time, then writes the merge's index; the same parts
 * write the same files.
 */
export async function mergePartition(
  objects: Pick<ObjectStore, 'get' | 'put'>,
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  partition: string,
  parts: readonly ViewPart[],
): Promise<MergedPartition> {
  const runs = parts
    .filter((part) => part.byScore[partition]?.length)
    .map((part) => runRows(objects, viewKeys.file(job, part.file), part.byScore[partition]!));
  const heads = new HighestFirst<StoredResult>();
  const next = async (run: number) => {
    const read = await runs[run]!.next();
    if (!read.done) heads.push(sortKeyBytes(scoreKeyOf(read.value)), read.value, run);
  };
  await Promise.all(runs.map((_, run) => next(run)));
  const merged: MergedPartition = { files: [], blocks: [] };
  let file = new BlockFileWriter();
  let fileBlocks = 0;
  let block: StoredResult[] = [];
  const flushFile = async () => {
    if (fileBlocks === 0) return;
    const name = `${viewKeys.merged(partition)}-${String(merged.files.length).padStart(5, '0')}`;
    await objects.put(viewKeys.file(job, name), file.bytes(), 'application/octet-stream');
    merged.files.push(name);
    file = new BlockFileWriter();
    fileBlocks = 0;
  };
  const flushBlock = async () => {
    if (block.length === 0) return;
    merged.blocks.push({ ...file.add(block, scoreKeyOf(block[0]!)), file: merged.files.length });
    block = [];
    if (++fileBlocks === MERGED_FILE_BLOCKS) await flushFile();
  };
  while (heads.size > 0) {
    const { item, run } = heads.pop();
    block.push(item);
    if (block.length === VIEW_BLOCK_ROWS) await flushBlock();
    await next(run);
  }
  await flushBlock();
  await flushFile();
  // Its index last, so its presence says the files are there.
  await objects.put(viewKeys.file(job, `${viewKeys.merged(partition)}.json`), JSON.stringify(merged), 'application/json');
  return merged;
}

/** A merged partition's index; fails loudly when the partition is not merged yet. */
export async function readMergedPartition(
  objects: Pick<ObjectStore, 'get'>,
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  partition: string,
): Promise<MergedPartition> {
  const bytes = await objects.get(viewKeys.file(job, `${viewKeys.merged(partition)}.json`));
  if (!bytes) throw new Error(`The merged partition ${partition} of job ${job.id} is missing.`);
  return JSON.parse(bytes.toString('utf8')) as MergedPartition;
}

/**
 * Writes the views' manifest from the parts (in chunk order) and the merged partitions (a
 * partition of a single part is that part's run); its presence says the views are complete.
 */
export async function writeViewsManifest(
  objects: Pick<ObjectStore, 'put'>,
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  parts: readonly ViewPart[],
  merged: Readonly<Record<string, MergedPartition>>,
): Promise<void> {
  const files = parts.map((part) => part.file);
  const manifest: Manifest = {
    rows: parts.reduce((sum, part) => sum + part.rows, 0),
    files,
    byId: parts.flatMap((part, file) => part.byId.map((block) => ({ ...block, file }))),
    byScore: {},
    sources: [...new Set(parts.flatMap((part) => part.sources))].sort(),
  };
  for (const partition of [...new Set(parts.flatMap((part) => Object.keys(part.byScore)))].sort()) {
    const partitionMerged = merged[partition];
    if (partitionMerged) {
      const offset = files.length;
      files.push(...partitionMerged.files);
      manifest.byScore[partition] = partitionMerged.blocks.map((block) => ({ ...block, file: block.file + offset }));
    } else {
      const [only, ...others] = parts.flatMap((part, file) => (part.byScore[partition]?.length ? [{ part, file }] : []));
      if (others.length > 0) throw new Error(`The partition ${partition} of job ${job.id} has several runs and no merge.`);
      manifest.byScore[partition] = only ? only.part.byScore[partition]!.map((block) => ({ ...block, file: only.file })) : [];
    }
  }
  await objects.put(viewKeys.manifest(job), JSON.stringify(manifest), 'application/json');
}

/** The partitions whose rows more than one part holds: those the finishing stage merges. */
export function partitionsToMerge(parts: readonly ViewPart[]): string[] {
  const holders = new Map<string, number>();
  for (const part of parts)
    for (const [partition, blocks] of Object.entries(part.byScore))
      if (blocks.length > 0) holders.set(partition, (holders.get(partition) ?? 0) + 1);
  return [...holders]
    .filter(([, count]) => count > 1)
    .map(([partition]) => partition)
    .sort();
}

/**
 * A completed job's rows as the engine left them, in partner id order, in groups of its blocks of
 * about `groupRows` rows (the book weighs its work in blocks of that many): what the job writes
 * into the book.
 */
export class EngineRowsInOrder {
  constructor(
    private readonly views: Pick<ViewReads, 'objects' | 'files'>,
    private readonly job: Pick<MappingJob, 'organizationId' | 'id'>,
    private readonly groupRows: number,
  ) {}

  /** The first partner id of each group, and the book sources of the rows. */
  async outline(): Promise<{ firstIds: string[]; sources: string[] }> {
    const manifest = await readManifest(this.views, this.job);
    const group = this.groupOf(manifest);
    return { firstIds: manifest.byId.filter((_, block) => block % group === 0).map((block) => block.first), sources: manifest.sources };
  }

  /** The rows of groups `from` to `to` (excluded). */
  async rows(from: number, to: number): Promise<StoredResult[]> {
    const manifest = await readManifest(this.views, this.job);
    const group = this.groupOf(manifest);
    return (await readBlocksInOrder(this.views, this.job, manifest, manifest.byId.slice(from * group, to * group))).flat();
  }

  /** Blocks per group: of 100 rows (ID_BLOCK_ROWS), five; of 500 (a job completed before), one. */
  private groupOf(manifest: Manifest): number {
    return manifest.byId.length === 0 ? 1 : Math.max(1, Math.round(this.groupRows / (manifest.rows / manifest.byId.length)));
  }
}

/** Blocks of the views in order, each file's run of them read by one byte range. */
async function readBlocksInOrder(
  { objects, files }: Pick<ViewReads, 'objects' | 'files'>,
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  manifest: Manifest,
  blocks: readonly FileBlock[],
): Promise<StoredResult[][]> {
  const runs: FileBlock[][] = [];
  for (const block of blocks) {
    const run = runs[runs.length - 1];
    if (run?.[0]!.file === block.file) run.push(block);
    else runs.push([block]);
  }
  const read = await Promise.all(
    runs.map((run) => files.adjacentBlocks<StoredResult>(objects, viewKeys.file(job, manifest.files[run[0]!.file]!), run)),
  );
  return read.flat();
}

function readViewBlock(
  { objects, files }: Pick<ViewReads, 'objects' | 'files'>,
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  manifest: Manifest,
  block: FileBlock,
): Promise<StoredResult[]> {
  return files.block<StoredResult>(objects, viewKeys.file(job, manifest.files[block.file]!), block);
}

function readManifest(
  { objects, files }: Pick<ViewReads, 'objects' | 'files'>,
  job: Pick<MappingJob, 'organizationId' | 'id'>,
): Promise<Manifest> {
  const key = viewKeys.manifest(job);
  return files.json<Manifest>(objects, key, `results view ${key} of job ${job.id}`);
}

/** One status-and-method partition of a job's rows: the views keep each best score first. */
export type ResultPartition = Pick<StoredResult, 'status' | 'method'>;

/** Every partition a row can be in (UNMATCHED rows have no method unless a person decided). */
export const RESULT_PARTITIONS: readonly ResultPartition[] = [
  { status: 'MATCHED', method: 'ID' },
  { status: 'MATCHED', method: 'FUZZY' },
  { status: 'MATCHED', method: 'MANUAL' },
  { status: 'REVIEW', method: 'ID' },
  { status: 'REVIEW', method: 'FUZZY' },
  { status: 'UNMATCHED', method: null },
  { status: 'UNMATCHED', method: 'MANUAL' },
];

/** Sort keys (resultSortKey) from `lowest` up to `highest`, both included. */
export interface SortKeyRange {
  lowest: string;
  highest: string;
}

export type DecisionReads = Pick<MappingJobStore, 'getDecision' | 'decisionsBetween' | 'decidedBetween' | 'decisionsOfPartition'>;

/** Parts' search columns a function keeps (a part is at most 100,000 rows, about 15 MB in memory): a job of a million rows and then some. */
export const SEARCH_PARTS_KEPT = 16;

/**
 * What the views are read through: the results bucket, and what the function keeps across its
 * requests of the files it read (they never change once written). The runtime owns it (services.ts).
 */
export interface ViewReads {
  objects: Pick<ObjectStore, 'get'>;
  files: FileReads;
  /** Parts' search columns (SEARCH_PARTS_KEPT): a search reads every part's. */
  searchColumns: ReadCache;
}

/**
 * The reads `queryResults` makes (results.ts), over a completed job's views and its decisions: a
 * decided row shows as decided, where the decision put it.
 */
export class ResultViews {
  constructor(
    private readonly views: ViewReads,
    private readonly decisions: DecisionReads,
    private readonly job: Pick<MappingJob, 'organizationId' | 'id'>,
  ) {}

  /** Every part's search columns, in order. A part written before they were has them made from its rows. */
  async searchParts(): Promise<SearchColumns[]> {
    const manifest = await this.manifest();
    return Promise.all(
      this.partFiles(manifest).map((file, part) => {
        const key = viewKeys.file(this.job, viewKeys.search(file));
        return this.views.searchColumns.read(key, async () => {
          const bytes = await this.views.objects.get(key);
          if (bytes) return deserializeSearchColumns(bytes);
          const rows = await Promise.all(manifest.byId.filter((block) => block.file === part).map((block) => this.block(block)));
          return searchColumnsOf(rows.flat());
        });
      }),
    );
  }

  /** The parts' files: the manifest's first ones, before the merged partitions'. */
  private partFiles(manifest: Manifest): string[] {
    return manifest.files.filter((file) => /^part-\d+$/.test(file));
  }

  async getResult(_jobId: string, partnerHotelId: string): Promise<StoredResult | undefined> {
    const [engine, decided] = await Promise.all([this.engineRow(partnerHotelId), this.decisions.getDecision(this.job.id, partnerHotelId)]);
    return engine && (decided ?? engine);
  }

  /** A row as the engine left it, whatever a person decided. */
  getEngineResult(partnerHotelId: string): Promise<StoredResult | undefined> {
    return this.engineRow(partnerHotelId);
  }

  /** Results in partner id order, from a cursor of this list: the job's, after the partner id it names. */
  async resultsInOrder(_jobId: string, limit: number, cursor: string | undefined): Promise<ResultPage> {
    const list = { partition: { job: this.job.id }, attributes: ['after'] } as const;
    const after = decodeCursor(cursor, list)?.after;
    const afterBytes = after === undefined ? undefined : Buffer.from(after, 'utf8');
    const manifest = await this.manifest();
    const rows: StoredResult[] = [];
    // The blocks a page takes, read at once (one more for a cursor inside the first); one row past the page says whether there is a next one.
    const atOnce = Math.ceil((limit + 1) / ID_BLOCK_ROWS) + 1;
    for (
      let block = afterBytes ? blockAscending(manifest.byId, afterBytes) : 0;
      block < manifest.byId.length && rows.length <= limit;
      block += atOnce
    ) {
      for (const row of (await readBlocksInOrder(this.views, this.job, manifest, manifest.byId.slice(block, block + atOnce))).flat()) {
        if (afterBytes && Buffer.compare(Buffer.from(row.partnerHotelId, 'utf8'), afterBytes) <= 0) continue;
        rows.push(row);
        if (rows.length > limit) break;
      }
    }
    const page = rows.slice(0, limit);
    if (page.length === 0) return { results: [], nextCursor: null };
    const decided = new Map(
      (await this.decisions.decisionsBetween(this.job.id, page[0]!.partnerHotelId, page[page.length - 1]!.partnerHotelId)).map((result) => [
        result.partnerHotelId,
        result,
      ]),
    );
    return {
      results: page.map((row) => decided.get(row.partnerHotelId) ?? row),
      nextCursor: rows.length > limit ? encodeCursor({ ...list.partition, after: page[page.length - 1]!.partnerHotelId }) : null,
    };
  }

  /** One partition's rows with sort keys in the range, best score first (DESC) or lowest first (ASC). */
  async resultsOfPartition(
    partition: ResultPartition,
    { lowest, highest }: SortKeyRange,
    limit: number,
    order: ScoreOrder = 'DESC',
  ): Promise<(StoredResult & { sortKey: string })[]> {
    const { status, method } = partition;
    // Only a person makes a MANUAL row: those partitions hold decisions alone.
    if (method === 'MANUAL')
      return this.decisions.decisionsOfPartition(resultPartition(this.job.id, status, method), lowest, highest, limit, order);
    const name = partitionName(status, method);
    const blocks = (await this.manifest()).byScore[name] ?? [];
    const [lowestBytes, highestBytes] = [sortKeyBytes(lowest), sortKeyBytes(highest)];
    const ascending = order === 'ASC';
    const page: (StoredResult & { sortKey: string })[] = [];
    let batch: (StoredResult & { sortKey: string })[] = [];
    // Rows are taken a page at a time; the decided ones among them are left out, and more taken.
    const settle = async () => {
      if (batch.length === 0) return;
      const [low, high] = ascending ? [batch[0]!, batch[batch.length - 1]!] : [batch[batch.length - 1]!, batch[0]!];
      const decided = await this.decisions.decidedBetween(this.job.id, name, low.sortKey, high.sortKey);
      page.push(...batch.filter((row) => !decided.has(row.partnerHotelId)));
      batch = [];
    };
    // The blocks are best score first: lowest first starts at the block holding `lowest` and goes back.
    const first = blockDescending(blocks, ascending ? lowestBytes : highestBytes);
    const step = ascending ? -1 : 1;
    scan: for (let block = first; block >= 0 && block < blocks.length; block += step) {
      const rows = await this.block(blocks[block]!);
      for (const row of ascending ? [...rows].reverse() : rows) {
        const sortKey = resultSortKey(row.score, row.partnerHotelId);
        const bytes = sortKeyBytes(sortKey);
        if (ascending ? Buffer.compare(bytes, lowestBytes) < 0 : Buffer.compare(bytes, highestBytes) > 0) continue;
        if (ascending ? Buffer.compare(bytes, highestBytes) > 0 : Buffer.compare(bytes, lowestBytes) < 0) break scan;
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
    return readManifest(this.views, this.job);
  }

  private async block(block: FileBlock): Promise<StoredResult[]> {
    return readViewBlock(this.views, this.job, await this.manifest(), block);
  }
}
