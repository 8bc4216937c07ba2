/**
 * The book's entries as files: a generation is the whole book as a job's write left it, in entry key
 * order (partner id, then source), as block files (platform/objects/block-files.ts), one part per
 * range of partner ids the write went through in parallel, and a manifest of every block. Entries a
 * person or the reference changed since are table items laid over it (store.ts): an item wins over
 * the generation's entry when it is newer than what the generation folded of it.
 */
import type { ObjectStore } from '../platform/objects/object-store';
import { blockAscending, BlockFileWriter, blocksOf, cachedRead, inUtf8Order, ReadCache, readBlock, readBlockUncached, type BlockRef } from '../platform/objects/block-files';
import { indexKeys, type BookEntry } from './entries';
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
  /** Each part's index (indexKeys -> entry key, sorted by key, then entry key), block by block. */
  indexBlocks: SnapshotBlock[];
}

/** What a lookup answers from an entry: its answer and the partner's facts, without its history or decision. */
export type EntryAnswer = Pick<
  BookEntry,
  'source' | 'partnerHotelId' | 'partner' | 'status' | 'method' | 'referenceHotelId' | 'referenceHotelName' | 'score' | 'evidence' | 'candidates' | 'reason'
>;

/**
 * Blocks of the entries' answers kept for lookups (find-match), apart from the files every reader
 * shares: 400 blocks, 200,000 entries of about a kilobyte, so that a book that size stays read.
 */
const answerBlocks = new ReadCache(400);

function answerOf(entry: SnapshotEntry): EntryAnswer & { folded: number } {
  const { source, partnerHotelId, partner, status, method, referenceHotelId, referenceHotelName, score, evidence, candidates, reason, folded } = entry;
  return { source, partnerHotelId, partner, status, method, referenceHotelId, referenceHotelName, score, evidence, candidates, reason, folded };
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

/** The partner id and source an entry key names. */
export function entryIdOf(key: string): Pick<BookEntry, 'partnerHotelId' | 'source'> {
  const split = key.lastIndexOf('\u0001');
  return { partnerHotelId: key.slice(0, split), source: key.slice(split + 1) };
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
  partEntryIndex: (organizationId: string, generation: string, part: number) => `${BOOK_FILES_PREFIX}${organizationId}/${generation}/part-${String(part).padStart(5, '0')}.index`,
  manifest: (organizationId: string, generation: string) => `${BOOK_FILES_PREFIX}${organizationId}/${generation}/manifest.json`,
};

/** What a part's index says: its entries' blocks, and what the part's range carries beside them. */
export interface PartIndex<Extra> {
  entries: number;
  statistics: BookStatistics;
  blocks: SnapshotBlock[];
  indexBlocks: SnapshotBlock[];
  extra: Extra;
}

/** Blocks one lookup reads in parallel: keys far apart in a large book each need their own. */
const BLOCKS_READ_AT_ONCE = 16;

/** Pairs of the entry index per block. */
const INDEX_BLOCK_PAIRS = 2_000;

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
  // Where listings and the reference's changes find the part's entries: [index key, entry key], by index key then
  // entry key (the sort keeps the entries' order among pairs of one index key).
  const pairs = inUtf8Order(entries.flatMap((entry) => indexKeys(entry).map((key) => [key, entryKey(entry)] as const)), ([key]) => key, 1);
  const entryIndex = new BlockFileWriter();
  const indexBlocks = blocksOf(pairs, INDEX_BLOCK_PAIRS).map((block) => ({ ...entryIndex.add(block, block[0]![0]), part }));
  await Promise.all([
    objects.put(snapshotFiles.part(organizationId, generation, part), file.bytes(), 'application/octet-stream'),
    objects.put(snapshotFiles.partEntryIndex(organizationId, generation, part), entryIndex.bytes(), 'application/octet-stream'),
  ]);
  const index: PartIndex<Extra> = { entries: entries.length, statistics: countEntries({}, entries), blocks, indexBlocks, extra };
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
    indexBlocks: indexes.flatMap((index) => index.indexBlocks),
  };
  await objects.put(snapshotFiles.manifest(organizationId, generation), JSON.stringify(manifest), 'application/json');
  return indexes;
}

/**
 * The blocks of a part's index that may hold pairs of any of the keys (UTF-8 bytes, in order). Block
 * i holds pairs from its first key up to the next block's first (an index key repeats, so its pairs
 * may run from one block into the next): it may hold a key k when first(i) <= k <= first(i + 1).
 */
function blocksHolding(blocks: readonly SnapshotBlock[], sortedKeys: readonly Buffer[]): number[] {
  const firsts = blocks.map((block) => Buffer.from(block.first, 'utf8'));
  const holding: number[] = [];
  for (let block = 0; block < blocks.length; block++) {
    // The first key at or above the block's first.
    let low = 0;
    let high = sortedKeys.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (Buffer.compare(sortedKeys[middle]!, firsts[block]!) < 0) low = middle + 1;
      else high = middle;
    }
    if (low < sortedKeys.length && (block + 1 === blocks.length || Buffer.compare(sortedKeys[low]!, firsts[block + 1]!) <= 0)) holding.push(block);
  }
  return holding;
}

const sortedBytes = (keys: Iterable<string>) => inUtf8Order([...new Set(keys)], (key) => key, 1).map((key) => Buffer.from(key, 'utf8'));

/** Every file of a generation: its manifest, and each part with its indexes. */
export async function generationFiles(objects: Pick<ObjectStore, 'get'>, organizationId: string, generation: string): Promise<string[]> {
  const bytes = await objects.get(snapshotFiles.manifest(organizationId, generation));
  if (!bytes) return [];
  const { parts } = JSON.parse(bytes.toString('utf8')) as SnapshotManifest;
  return [snapshotFiles.manifest(organizationId, generation), ...partFiles(organizationId, generation, parts)];
}

/** The files of a generation's parts (each, written or not). */
export function partFiles(organizationId: string, generation: string, parts: number): string[] {
  return Array.from({ length: parts }, (_, part) => [
    snapshotFiles.part(organizationId, generation, part),
    snapshotFiles.partIndex(organizationId, generation, part),
    snapshotFiles.partEntryIndex(organizationId, generation, part),
  ]).flat();
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

  /** The answer of the entry of a key, if the generation holds one, with what it folded of it; read through answerBlocks. */
  async answerAt(key: string): Promise<(EntryAnswer & { folded: number }) | undefined> {
    const blocks = this.manifest.blocks;
    if (blocks.length === 0) return undefined;
    const ref = blocks[blockAscending(blocks, Buffer.from(key, 'utf8'))]!;
    const file = snapshotFiles.part(this.organizationId, this.manifest.generation, ref.part);
    const answers = await answerBlocks.read(`${file}@${ref.offset}`, async () => {
      const entries = await readBlockUncached<SnapshotEntry>(this.objects, file, ref);
      return new Map(entries.map((entry) => [entryKey(entry), answerOf(entry)]));
    });
    return answers.get(key);
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

  /** The entry of a key, if the generation holds one. */
  async entryAt(key: string): Promise<SnapshotEntry | undefined> {
    // Just above the key: no other key lies between.
    return (await this.entriesIn({ lower: key, upper: `${key}\u0000` }))[0];
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

  /** The keys of the entries found under any of the index keys given (indexKeys), reading only the blocks that may hold them. */
  async entryKeysFor(keys: readonly string[]): Promise<Set<string>> {
    const wanted = new Set(keys);
    const sorted = sortedBytes(wanted);
    const found = new Set<string>();
    for (const [part, blocks] of this.indexBlocksByPart()) {
      for (const block of blocksHolding(blocks, sorted)) for (const [key, entry] of await this.indexBlock(part, blocks[block]!)) if (wanted.has(key)) found.add(entry);
    }
    return found;
  }

  /**
   * The keys of the entries under one index key after `afterKey`, in key order, at most `limit`;
   * `more` false when the generation has none after them.
   */
  async entryKeysUnder(indexKey: string, afterKey: string | null, limit: number): Promise<{ keys: string[]; more: boolean }> {
    const keys: string[] = [];
    const parts = [...this.indexBlocksByPart()];
    const firstOfPart = new Map<number, string>();
    for (const block of this.manifest.blocks) if (!firstOfPart.has(block.part)) firstOfPart.set(block.part, block.first);
    for (const [index, [part, blocks]] of parts.entries()) {
      const next = parts[index + 1];
      // A part whose entries all lie at or before the cursor (the next part starts at or before it) holds nothing after it.
      if (afterKey !== null && next && firstOfPart.has(next[0]) && compareKeys(firstOfPart.get(next[0])!, afterKey) <= 0) continue;
      for (const block of blocksHolding(blocks, [Buffer.from(indexKey, 'utf8')])) {
        for (const [key, entry] of await this.indexBlock(part, blocks[block]!)) {
          if (key !== indexKey || (afterKey !== null && compareKeys(entry, afterKey) <= 0)) continue;
          if (keys.length === limit) return { keys, more: true };
          keys.push(entry);
        }
      }
    }
    return { keys, more: false };
  }

  /** The entries of the keys given (in key order), reading each block that holds them once, BLOCKS_READ_AT_ONCE at a time. */
  async entriesAt(keys: readonly string[]): Promise<SnapshotEntry[]> {
    const blocks = this.manifest.blocks;
    if (blocks.length === 0 || keys.length === 0) return [];
    const wanted = new Set(keys);
    const holding = [...new Set(keys.map((key) => blockAscending(blocks, Buffer.from(key, 'utf8'))))].sort((a, b) => a - b);
    const entries: SnapshotEntry[] = [];
    for (const group of blocksOf(holding, BLOCKS_READ_AT_ONCE)) {
      for (const read of await Promise.all(group.map((block) => this.block(block)))) for (const entry of read) if (wanted.has(entryKey(entry))) entries.push(entry);
    }
    return entries;
  }

  private indexBlocksByPart(): Map<number, SnapshotBlock[]> {
    const byPart = new Map<number, SnapshotBlock[]>();
    for (const block of this.manifest.indexBlocks) byPart.set(block.part, [...(byPart.get(block.part) ?? []), block]);
    return byPart;
  }

  private indexBlock(part: number, block: SnapshotBlock): Promise<[string, string][]> {
    return readBlock<[string, string]>(this.objects, snapshotFiles.partEntryIndex(this.organizationId, this.manifest.generation, part), block);
  }

  private block(block: number): Promise<SnapshotEntry[]> {
    const ref = this.manifest.blocks[block]!;
    return readBlock<SnapshotEntry>(this.objects, snapshotFiles.part(this.organizationId, this.manifest.generation, ref.part), ref);
  }
}
