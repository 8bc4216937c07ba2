/**
 * The book's entries as files: a generation is the whole book as a job's write left it, in entry key
 * order (partner id, then source), as block files (platform/objects/block-files.ts), one part per
 * range of partner ids the write went through in parallel, and a manifest of every block. Entries a
 * person or the reference changed since are table items laid over it (store.ts): an item wins over
 * the generation's entry when it is newer than what the generation folded of it.
 */
import type { ObjectStore } from '../platform/objects/object-store';
import { blockAscending, BlockFileWriter, blocksOf, cachedRead, inUtf8Order, readBlock, type BlockRef } from '../platform/objects/block-files';
import { referenceKeys, type BookEntry } from './entries';
import { BOOK_FILES_PREFIX } from './files';
import { addStatistics, countEntries, type BookStatistics } from './statistics';

/** Entries per block: a page of 100 reads one block. */
export const SNAPSHOT_BLOCK_ENTRIES = 500;

/**
 * An entry as a generation holds it: `folded` is the sequence of the laid-over item the generation
 * took in (0 when none): a laid-over item of a later sequence is newer than the generation.
 */
export interface SnapshotEntry extends BookEntry {
  folded: number;
}

/** A part's blocks, with the part's number (its file). */
export interface SnapshotBlock extends BlockRef {
  part: number;
}

export interface SnapshotManifest {
  /** The job whose write made the generation. */
  generation: string;
  parts: number;
  entries: number;
  statistics: BookStatistics;
  blocks: SnapshotBlock[];
  /** Each part's reference index (referenceKeys -> entry key, sorted by key), block by block. */
  referenceBlocks: SnapshotBlock[];
}

/** The entry itself, without what the generation folded of it. */
export function withoutFolded(entry: SnapshotEntry): BookEntry {
  const { folded: _folded, ...bookEntry } = entry;
  return bookEntry;
}

/** Entry keys sort as DynamoDB sorts them (UTF-8 bytes): by partner id, then source. */
export function entryKey(entry: Pick<BookEntry, 'partnerHotelId' | 'source'>): string {
  return `${entry.partnerHotelId}\u0001${entry.source}`;
}

export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A range of entry keys: from `lower` (or the start) up to `upper` excluded (or the end). */
export interface KeyRange {
  lower: string | null;
  upper: string | null;
}

export const inRange = (key: string, range: KeyRange) =>
  (range.lower === null || compareKeys(key, range.lower) >= 0) && (range.upper === null || compareKeys(key, range.upper) < 0);

export const snapshotFiles = {
  part: (organizationId: string, generation: string, part: number) => `${BOOK_FILES_PREFIX}${organizationId}/${generation}/part-${String(part).padStart(5, '0')}`,
  partIndex: (organizationId: string, generation: string, part: number) => `${BOOK_FILES_PREFIX}${organizationId}/${generation}/part-${String(part).padStart(5, '0')}.json`,
  partReferences: (organizationId: string, generation: string, part: number) => `${BOOK_FILES_PREFIX}${organizationId}/${generation}/part-${String(part).padStart(5, '0')}.refs`,
  manifest: (organizationId: string, generation: string) => `${BOOK_FILES_PREFIX}${organizationId}/${generation}/manifest.json`,
};

/** What a part's index says: its entries' blocks, and what the part's range carries beside them. */
export interface PartIndex<Extra> {
  entries: number;
  statistics: BookStatistics;
  blocks: SnapshotBlock[];
  referenceBlocks: SnapshotBlock[];
  extra: Extra;
}

/** Pairs of the reference index per block. */
const REFERENCE_BLOCK_PAIRS = 2_000;

/** Writes a part (entries in key order) and its index, last; the same entries write the same files. */
export async function writePart<Extra>(
  objects: Pick<ObjectStore, 'put'>,
  organizationId: string,
  generation: string,
  part: number,
  entries: readonly SnapshotEntry[],
  extra: Extra,
): Promise<void> {
  const file = new BlockFileWriter();
  const blocks = blocksOf(entries, SNAPSHOT_BLOCK_ENTRIES).map((block) => ({ ...file.add(block, entryKey(block[0]!)), part }));
  // Where the reference's changes find the part's entries: [reference key, entry key], by reference key.
  const pairs = inUtf8Order(entries.flatMap((entry) => referenceKeys(entry).map((key) => [key, entryKey(entry)] as const)), ([key]) => key, 1);
  const references = new BlockFileWriter();
  const referenceBlocks = blocksOf(pairs, REFERENCE_BLOCK_PAIRS).map((block) => ({ ...references.add(block, block[0]![0]), part }));
  await Promise.all([
    objects.put(snapshotFiles.part(organizationId, generation, part), file.bytes(), 'application/octet-stream'),
    objects.put(snapshotFiles.partReferences(organizationId, generation, part), references.bytes(), 'application/octet-stream'),
  ]);
  const index: PartIndex<Extra> = { entries: entries.length, statistics: countEntries({}, entries), blocks, referenceBlocks, extra };
  await objects.put(snapshotFiles.partIndex(organizationId, generation, part), JSON.stringify(index), 'application/json');
}

/** Writes the manifest of a generation from its parts' indexes, once every part is written; answers the indexes. */
export async function writeManifest<Extra>(objects: Pick<ObjectStore, 'put' | 'get'>, organizationId: string, generation: string, parts: number): Promise<PartIndex<Extra>[]> {
  const indexes = await Promise.all(
    Array.from({ length: parts }, async (_, part) => {
      const bytes = await objects.get(snapshotFiles.partIndex(organizationId, generation, part));
      if (!bytes) throw new Error(`Part ${part} of the book generation ${generation} is missing.`);
      return JSON.parse(bytes.toString('utf8')) as PartIndex<Extra>;
    }),
  );
  const manifest: SnapshotManifest = {
    generation,
    parts,
    entries: indexes.reduce((sum, index) => sum + index.entries, 0),
    statistics: indexes.reduce((sum, index) => addStatistics(sum, index.statistics), {}),
    blocks: indexes.flatMap((index) => index.blocks),
    referenceBlocks: indexes.flatMap((index) => index.referenceBlocks),
  };
  await objects.put(snapshotFiles.manifest(organizationId, generation), JSON.stringify(manifest), 'application/json');
  return indexes;
}

/** Every file of a generation: its manifest, and each part with its index. */
export async function generationFiles(objects: Pick<ObjectStore, 'get'>, organizationId: string, generation: string): Promise<string[]> {
  const bytes = await objects.get(snapshotFiles.manifest(organizationId, generation));
  if (!bytes) return [];
  const { parts } = JSON.parse(bytes.toString('utf8')) as SnapshotManifest;
  return [
    snapshotFiles.manifest(organizationId, generation),
    ...Array.from({ length: parts }, (_, part) => [
      snapshotFiles.part(organizationId, generation, part),
      snapshotFiles.partIndex(organizationId, generation, part),
      snapshotFiles.partReferences(organizationId, generation, part),
    ]).flat(),
  ];
}

/** A generation's entries, read a block at a time. */
export class Snapshot {
  constructor(
    private readonly objects: Pick<ObjectStore, 'get'>,
    private readonly organizationId: string,
    private readonly manifest: SnapshotManifest,
  ) {}

  static async open(objects: Pick<ObjectStore, 'get'>, organizationId: string, generation: string | undefined): Promise<Snapshot | undefined> {
    if (generation === undefined) return undefined;
    const key = snapshotFiles.manifest(organizationId, generation);
    const manifest = await cachedRead(key, async () => {
      const bytes = await objects.get(key);
      if (!bytes) throw new Error(`The manifest of the book generation ${generation} is missing.`);
      return JSON.parse(bytes.toString('utf8')) as SnapshotManifest;
    });
    return new Snapshot(objects, organizationId, manifest);
  }

  get statistics(): BookStatistics {
    return this.manifest.statistics;
  }

  /** The entries with keys in the range, in key order. */
  async entriesIn(range: KeyRange): Promise<SnapshotEntry[]> {
    const blocks = this.manifest.blocks;
    if (blocks.length === 0) return [];
    const entries: SnapshotEntry[] = [];
    for (let block = range.lower === null ? 0 : blockAscending(blocks, Buffer.from(range.lower, 'utf8')); block < blocks.length; block++) {
      if (range.upper !== null && compareKeys(blocks[block]!.first, range.upper) >= 0) break;
      for (const entry of await this.block(block)) if (inRange(entryKey(entry), range)) entries.push(entry);
    }
    return entries;
  }

  /** Entries after `afterKey` (from the start when null), at most `limit`, in key order. */
  async entriesAfter(afterKey: string | null, limit: number): Promise<SnapshotEntry[]> {
    const blocks = this.manifest.blocks;
    const entries: SnapshotEntry[] = [];
    for (let block = afterKey === null ? 0 : blockAscending(blocks, Buffer.from(afterKey, 'utf8')); block < blocks.length && entries.length < limit; block++) {
      for (const entry of await this.block(block)) {
        if (afterKey !== null && compareKeys(entryKey(entry), afterKey) <= 0) continue;
        entries.push(entry);
        if (entries.length >= limit) break;
      }
    }
    return entries;
  }

  /** The keys of the entries found by any of the reference keys given (referenceKeys), reading only the blocks that may hold them. */
  async entryKeysFor(referenceKeys: readonly string[]): Promise<Set<string>> {
    const wanted = new Set(referenceKeys);
    const found = new Set<string>();
    const byPart = new Map<number, SnapshotBlock[]>();
    for (const block of this.manifest.referenceBlocks) byPart.set(block.part, [...(byPart.get(block.part) ?? []), block]);
    for (const [part, blocks] of byPart) {
      const file = snapshotFiles.partReferences(this.organizationId, this.manifest.generation, part);
      const holding = new Set([...wanted].map((key) => blockAscending(blocks, Buffer.from(key, 'utf8'))));
      for (const block of holding) {
        for (const [key, entry] of await readBlock<[string, string]>(this.objects, file, blocks[block]!)) if (wanted.has(key)) found.add(entry);
      }
    }
    return found;
  }

  private block(block: number): Promise<SnapshotEntry[]> {
    const ref = this.manifest.blocks[block]!;
    return readBlock<SnapshotEntry>(this.objects, snapshotFiles.part(this.organizationId, this.manifest.generation, ref.part), ref);
  }
}
