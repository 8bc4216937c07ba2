/**
 * The book's entries as files. A generation is the book as a job's write left it: a short list of
 * segments, oldest first, each a sorted run of entries in key order (partner id, then source) as
 * block files (platform/objects/block-files.ts), one part per range of keys its write went through
 * in parallel. Beside each part, a small manifest (where its blocks are) and a derived file: its
 * entry index (the index keys of keys.ts -> entry keys) and its search columns. A job's write adds a
 * segment of the entries it changed, so that it writes in proportion to its rows, not to the book;
 * an entry of a newer segment hides the same entry's older ones. In this file "index" means the
 * entry index alone; a place in a list is a position. A write merges the newest segments into its own when they are no longer much larger than it
 * (size tiers, job-writes.ts), so that a reader looks into a few segments at most. Entries a person
 * or the reference changed since are table items laid over the generation (store.ts): an item wins
 * over the generation's entry when it is newer than what the generation folded of it.
 */
import type { ObjectStore } from '../platform/objects/object-store';
import {
  blockAscending,
  BlockFileWriter,
  blocksOf,
  inUtf8Order,
  ReadCache,
  readBlockIfPresent,
  readBlockUncached,
  type BlockRef,
  type FileReads,
} from '../platform/objects/block-files';
import { answerIn, engineAnswer, historyLineOf, type Answer, type BookEntry, type EngineAnswer, type HistoryLine } from './entries';
import {
  deserializeEntryColumns,
  entryColumnsOf,
  hiddenRows,
  serializeEntryColumns,
  type EntryColumns,
  type GenerationColumns,
} from './entry-search';
import { BOOK_DERIVED_PREFIX, BOOK_FILES_PREFIX } from './files';
import type { BookStatistics } from './statistics';
import { compareKeys, entryKey, indexKeys, inRange, type KeyRange } from './keys';

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

/** A segment as a generation lists it: its writer's id (its files' folder) and its size. */
export interface SegmentRef {
  id: string;
  entries: number;
  blocks: number;
}

export interface SnapshotManifest {
  /** The job whose write made the generation. */
  generation: string;
  statistics: BookStatistics;
  /** Oldest first: a newer segment's entry hides an older one's. */
  segments: SegmentRef[];
}

/** Where bytes lie in a part's file. */
export interface FileRegion {
  offset: number;
  length: number;
}

/** A segment's own manifest: every block of its parts, and of its parts' entry indexes. */
export interface SegmentManifest {
  parts: number;
  entries: number;
  blocks: SnapshotBlock[];
  /** Each part's entry index (indexKeys -> entry key, sorted by key, then entry key), block by block, after the part's entries in its file. */
  indexBlocks: SnapshotBlock[];
  /**
   * Each part's search columns (entry-search.ts), after its entry index; null for a part of no entries.
   * Absent from segments written before they were: a search makes them from the entries.
   */
  searches?: (FileRegion | null)[];
  /**
   * Per part, whether its entry index and search columns are in its derived file (snapshotFiles.derived,
   * in the results bucket) rather than after its entries in its own file. A derived file missing is
   * made again from the part's entries.
   */
  derivedApart?: boolean[];
  /** The segment's last entry key (null when it holds none): a key above it is not in the segment. */
  last: string | null;
}

/** What a lookup answers from an entry: its answer and the partner's facts, without its history or decision. */
export interface EntryAnswer extends Answer, Pick<BookEntry, 'source' | 'partnerHotelId' | 'partner' | 'reason'> {}

/**
 * What a function keeps of the generations it read, across its requests: their files never change
 * once written. The runtime owns it (mapping-book/services.ts).
 */
export interface SnapshotKept {
  /** The files read, whole or by block, shared with every other reader of the function's files. */
  files: FileReads;
  /** Blocks of the entries' answers, for lookups (find-match), apart from the files. */
  answers: ReadCache;
  /** Parts' search columns, for searches: a search reads every part's. */
  searchColumns: ReadCache;
  /** Which rows of a generation its newer segments hide, worked out once per generation. */
  hidden: ReadCache;
}

/** What a snapshot reads through: the book's files, and what the function keeps of them. */
export interface SnapshotReads {
  files: Pick<ObjectStore, 'get'>;
  kept: SnapshotKept;
}

export function snapshotKept(files: FileReads): SnapshotKept {
  return {
    files,
    // 200,000 entries of about a kilobyte, so that a book that size stays read.
    answers: new ReadCache(400),
    // A part is a write's range, about 10,000 entries (some 1.5 MB in memory): 256 hold a book of some 2.5 million entries.
    searchColumns: new ReadCache(256),
    hidden: new ReadCache(8),
  };
}

function answerOf({ source, partnerHotelId, partner, reason, folded, ...entry }: SnapshotEntry): EntryAnswer & { folded: number } {
  return { source, partnerHotelId, partner, ...answerIn(entry), reason, folded };
}

/** The entry itself, without what the generation folded of it. */
export function withoutFolded(entry: SnapshotEntry): BookEntry {
  const { folded: _folded, ...bookEntry } = entry;
  return bookEntry;
}

const partName = (part: number) => `part-${String(part).padStart(5, '0')}`;

export const snapshotFiles = {
  part: (organizationId: string, segment: string, part: number) => `${BOOK_FILES_PREFIX}${organizationId}/${segment}/${partName(part)}`,
  partManifest: (organizationId: string, segment: string, part: number) =>
    `${BOOK_FILES_PREFIX}${organizationId}/${segment}/${partName(part)}.json`,
  derived: (organizationId: string, segment: string, part: number) =>
    `${BOOK_DERIVED_PREFIX}${organizationId}/${segment}/${partName(part)}`,
  segment: (organizationId: string, segment: string) => `${BOOK_FILES_PREFIX}${organizationId}/${segment}/segment.json`,
  manifest: (organizationId: string, generation: string) => `${BOOK_FILES_PREFIX}${organizationId}/${generation}/manifest.json`,
};

/** A part's own manifest: its entries' blocks and its entry index's, and what the part's range carries beside them. */
export interface PartManifest<Extra> {
  entries: number;
  /** The part's last entry key (null when it holds none). */
  last: string | null;
  blocks: SnapshotBlock[];
  indexBlocks: SnapshotBlock[];
  /** The part's search columns (null when it has no entries). */
  search?: FileRegion | null;
  /** Its entry index and search columns are in its derived file. */
  derivedApart?: boolean;
  extra: Extra;
}

/** Reads one lookup makes in parallel: keys far apart in a large book each need their own. */
const READS_AT_ONCE = 16;

/** Neighbouring blocks read by one request at most: about a megabyte. */
const BLOCKS_READ_TOGETHER = 64;

/** Pairs of the entry index per block. */
const INDEX_BLOCK_PAIRS = 2_000;

/** Writes a part of a segment (entries in key order) and its manifest, last; the same entries write the same files. */
export async function writePart<Extra>(
  objects: Pick<ObjectStore, 'put'>,
  organizationId: string,
  segment: string,
  part: number,
  entries: readonly SnapshotEntry[],
  extra: Extra,
): Promise<void> {
  // The entries' blocks in the part's file (kept, and backed up); what they say again for listings
  // and searches, in its derived file (made again from them when missing).
  const file = new BlockFileWriter();
  const derived = new BlockFileWriter();
  const blocks = blocksOf(entries, SNAPSHOT_BLOCK_ENTRIES).map((block) => ({
    ...file.add(block.map(storedEntry), entryKey(block[0]!)),
    part,
  }));
  const indexBlocks = indexBlocksOf(entries).map((block) => ({ ...derived.add(block, block[0]![0]), part }));
  // A part of no entries (a range a write left as it was) is its manifest alone.
  const search = entries.length > 0 ? derived.addBytes(serializeEntryColumns(entryColumnsOf(entries))) : null;
  if (entries.length > 0) {
    await objects.put(snapshotFiles.part(organizationId, segment, part), file.bytes(), 'application/octet-stream');
    await objects.put(snapshotFiles.derived(organizationId, segment, part), derived.bytes(), 'application/octet-stream');
  }
  const last = entries[entries.length - 1];
  const manifest: PartManifest<Extra> = {
    entries: entries.length,
    last: last ? entryKey(last) : null,
    blocks,
    indexBlocks,
    search,
    derivedApart: true,
    extra,
  };
  await objects.put(snapshotFiles.partManifest(organizationId, segment, part), JSON.stringify(manifest), 'application/json');
}

/** Writes the manifest of a segment from its parts' manifests, once every part is written; answers them. */
export async function writeSegment<Extra>(
  objects: Pick<ObjectStore, 'put' | 'get'>,
  organizationId: string,
  segment: string,
  parts: number,
): Promise<PartManifest<Extra>[]> {
  const partManifests = await Promise.all(
    Array.from({ length: parts }, async (_, part) => {
      const bytes = await objects.get(snapshotFiles.partManifest(organizationId, segment, part));
      if (!bytes) throw new Error(`Part ${part} of the book segment ${segment} is missing.`);
      return JSON.parse(bytes.toString('utf8')) as PartManifest<Extra>;
    }),
  );
  const manifest: SegmentManifest = {
    parts,
    entries: partManifests.reduce((sum, part) => sum + part.entries, 0),
    blocks: partManifests.flatMap((part) => part.blocks),
    indexBlocks: partManifests.flatMap((part) => part.indexBlocks),
    searches: partManifests.map((part) => part.search ?? null),
    derivedApart: partManifests.map((part) => part.derivedApart === true),
    last: partManifests.reduce<string | null>((last, part) => part.last ?? last, null),
  };
  // A segment of no entries is never read: the generation leaves it out.
  if (manifest.entries > 0) await objects.put(snapshotFiles.segment(organizationId, segment), JSON.stringify(manifest), 'application/json');
  return partManifests;
}

/** Writes a generation's manifest: its segments (each written) and its statistics. */
export async function writeGeneration(
  objects: Pick<ObjectStore, 'put'>,
  organizationId: string,
  manifest: SnapshotManifest,
): Promise<void> {
  await objects.put(snapshotFiles.manifest(organizationId, manifest.generation), JSON.stringify(manifest), 'application/json');
}

/**
 * Every file of a segment: its manifest, each part's manifest, and each part's file and derived file
 * (only those `filed`, when given: a part of no entries has none; and its derived file only when
 * `derivedApart`).
 */
export function segmentFiles(
  organizationId: string,
  segment: string,
  parts: number,
  filed: (part: number) => boolean = () => true,
  derivedApart: (part: number) => boolean = () => true,
): string[] {
  return [
    snapshotFiles.segment(organizationId, segment),
    ...Array.from({ length: parts }, (_, part) => [
      ...(filed(part)
        ? [
            snapshotFiles.part(organizationId, segment, part),
            ...(derivedApart(part) ? [snapshotFiles.derived(organizationId, segment, part)] : []),
          ]
        : []),
      snapshotFiles.partManifest(organizationId, segment, part),
    ]).flat(),
  ];
}

/**
 * What an entry's block leaves out of it because the entry says it already: its engine's answer
 * where that is the entry's own (every entry the engine decided, most of a book), and its last line
 * of history, which tells its last change (the line's kind of change alone is kept).
 */
type EngineOwn = Pick<EngineAnswer, 'reason' | 'basis' | 'unclaimed'>;
type StoredEntry = Omit<SnapshotEntry, 'engine'> & { engine?: EngineAnswer; engineOwn?: EngineOwn; lastChange?: HistoryLine['change'] };

/** The answer an entry and its engine's answer each hold, in a comparable form. */
const sharedAnswer = (held: Answer<string, string | null>) => JSON.stringify(answerIn(held));

/** The entry as its block holds it. */
function storedEntry(entry: SnapshotEntry): StoredEntry {
  const { engine, history, ...rest } = entry;
  const last = history[history.length - 1];
  const lastTold = last !== undefined && JSON.stringify(last) === JSON.stringify(historyLineOf(rest, last.change));
  const { reason, basis, unclaimed } = engine;
  return {
    ...rest,
    ...(sharedAnswer(engine) === sharedAnswer(entry)
      ? {
          engineOwn: {
            ...(reason !== undefined && { reason }),
            ...(basis !== undefined && { basis }),
            ...(unclaimed !== undefined && { unclaimed }),
          },
        }
      : { engine }),
    history: lastTold ? history.slice(0, -1) : history,
    ...(lastTold && { lastChange: last.change }),
  };
}

/** The entry as its block held it, whole again (the RowDecoder of the parts' files). */
function entryOfStored(read: SnapshotEntry): SnapshotEntry {
  const { engineOwn, lastChange, engine, history, ...entry } = read as StoredEntry;
  return {
    ...entry,
    // Stored as engineOwn only when the entry's answer is the engine's: its status and method are the engine's too.
    engine: engine ?? engineAnswer({ ...(entry as EngineAnswer), reason: undefined, ...engineOwn }),
    history: lastChange === undefined ? history : [...history, historyLineOf(entry, lastChange)],
  };
}

/**
 * A part's entry index in blocks: [index key, entry key] pairs by index key, then entry key (the sort
 * keeps the entries' order among pairs of one index key), where listings and the reference's
 * changes find the part's entries. The same entries make the same blocks.
 */
function indexBlocksOf(entries: readonly SnapshotEntry[]): [string, string][][] {
  const pairs = inUtf8Order(
    entries.flatMap((entry) => indexKeys(entry).map((key): [string, string] => [key, entryKey(entry)])),
    ([key]) => key,
    1,
  );
  return blocksOf(pairs, INDEX_BLOCK_PAIRS);
}

/**
 * The blocks of a part's entry index that may hold pairs of any of the keys (UTF-8 bytes, in order). Block
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
    if (low < sortedKeys.length && (block + 1 === blocks.length || Buffer.compare(sortedKeys[low]!, firsts[block + 1]!) <= 0))
      holding.push(block);
  }
  return holding;
}

const sortedBytes = (keys: Iterable<string>) => inUtf8Order([...new Set(keys)], (key) => key, 1).map((key) => Buffer.from(key, 'utf8'));

const byKey = (entries: Iterable<SnapshotEntry>) => inUtf8Order([...entries], entryKey, 1);

/**
 * The first keys of several sorted reads of at most `limit` each, merged (those `keep` keeps, a key
 * read twice once): those up to the lowest last key of a read that may have more (a key above it may
 * have been left out of that read).
 */
function mergedUpTo<T>(
  reads: readonly { items: T[]; more: boolean }[],
  keyOf: (item: T) => string,
  limit: number,
  keep: (item: T) => boolean = () => true,
): { items: T[]; more: boolean } {
  const cut = reads.filter((read) => read.more && read.items.length > 0).map((read) => keyOf(read.items[read.items.length - 1]!));
  const upTo = cut.length === 0 ? null : cut.reduce((low, key) => (compareKeys(key, low) < 0 ? key : low));
  const merged = inUtf8Order(
    reads.flatMap((read) => read.items).filter((item) => keep(item) && (upTo === null || compareKeys(keyOf(item), upTo) <= 0)),
    keyOf,
    1,
  ).filter((item, i, sorted) => i === 0 || keyOf(sorted[i - 1]!) !== keyOf(item));
  return { items: merged.slice(0, limit), more: merged.length > limit || upTo !== null };
}

/** One segment's entries, read a block at a time. */
class Segment {
  constructor(
    private readonly objects: Pick<ObjectStore, 'get'>,
    private readonly kept: SnapshotKept,
    private readonly organizationId: string,
    readonly id: string,
    readonly manifest: SegmentManifest,
  ) {}

  files(): string[] {
    const holding = new Set(this.manifest.blocks.map((block) => block.part));
    return segmentFiles(
      this.organizationId,
      this.id,
      this.manifest.parts,
      (part) => holding.has(part),
      (part) => this.derivedApart(part),
    );
  }

  private derivedApart(part: number): boolean {
    return this.manifest.derivedApart?.[part] === true;
  }

  /** The file that holds a part's entry index and search columns. */
  private derivedFile(part: number): string {
    return this.derivedApart(part)
      ? snapshotFiles.derived(this.organizationId, this.id, part)
      : snapshotFiles.part(this.organizationId, this.id, part);
  }

  /** The part's entries, every block of them. */
  private partEntries(part: number): Promise<SnapshotEntry[]> {
    return this.blocks(
      this.manifest.blocks.flatMap((block, position) => (block.part === part ? [position] : [])),
      () => true,
    );
  }

  /** Each part's search columns, in key order: from its derived file, or made from its entries where there is none. */
  searchColumns(): Promise<EntryColumns[]> {
    const { parts, searches } = this.manifest;
    return Promise.all(
      Array.from({ length: parts }, (_, part) => {
        const file = this.derivedFile(part);
        return this.kept.searchColumns.read(`${file}@search`, async () => {
          const region = searches?.[part];
          if (region === null) return entryColumnsOf([]);
          const bytes = region && (await this.objects.get(file, { start: region.offset, length: region.length }));
          if (bytes && bytes.length === region.length) return deserializeEntryColumns(bytes);
          if (region && !this.derivedApart(part)) throw new Error(`The search columns of ${file} are missing.`);
          return entryColumnsOf(await this.partEntries(part));
        });
      }),
    );
  }

  /** Whether the key lies between the segment's first and last keys. */
  private spans(key: string): boolean {
    const { blocks, last } = this.manifest;
    return blocks.length > 0 && last !== null && compareKeys(key, blocks[0]!.first) >= 0 && compareKeys(key, last) <= 0;
  }

  private blockOf(key: string): number {
    return blockAscending(this.manifest.blocks, Buffer.from(key, 'utf8'));
  }

  async answerAt(key: string): Promise<(EntryAnswer & { folded: number }) | undefined> {
    if (!this.spans(key)) return undefined;
    const ref = this.manifest.blocks[this.blockOf(key)]!;
    const file = snapshotFiles.part(this.organizationId, this.id, ref.part);
    const answers = await this.kept.answers.read(`${file}@${ref.offset}`, async () => {
      const entries = await readBlockUncached<SnapshotEntry>(this.objects, file, ref, entryOfStored);
      return new Map(entries.map((entry) => [entryKey(entry), answerOf(entry)]));
    });
    return answers.get(key);
  }

  async entriesIn(range: KeyRange): Promise<SnapshotEntry[]> {
    const blocks = this.manifest.blocks;
    const holding: number[] = [];
    for (let block = range.lower === null ? 0 : this.blockOf(range.lower); block < blocks.length; block++) {
      if (range.upper !== null && compareKeys(blocks[block]!.first, range.upper) >= 0) break;
      holding.push(block);
    }
    return this.blocks(holding, (entry) => inRange(entryKey(entry), range));
  }

  async entriesAfter(afterKey: string | null, limit: number): Promise<{ items: SnapshotEntry[]; more: boolean }> {
    const blocks = this.manifest.blocks;
    const entries: SnapshotEntry[] = [];
    for (let block = afterKey === null ? 0 : this.blockOf(afterKey); block < blocks.length; block++) {
      for (const entry of await this.block(block)) {
        if (afterKey !== null && compareKeys(entryKey(entry), afterKey) <= 0) continue;
        if (entries.length === limit) return { items: entries, more: true };
        entries.push(entry);
      }
    }
    return { items: entries, more: false };
  }

  async entriesAt(keys: readonly string[]): Promise<SnapshotEntry[]> {
    const wanted = new Set(keys.filter((key) => this.spans(key)));
    if (wanted.size === 0) return [];
    const holding = [...new Set([...wanted].map((key) => this.blockOf(key)))].sort((a, b) => a - b);
    return this.blocks(holding, (entry) => wanted.has(entryKey(entry)));
  }

  /** The entries `keep` keeps of the blocks given (ascending), neighbours in one file read together, READS_AT_ONCE reads at a time. */
  private async blocks(holding: readonly number[], keep: (entry: SnapshotEntry) => boolean): Promise<SnapshotEntry[]> {
    const { blocks } = this.manifest;
    const runs: number[][] = [];
    for (const block of holding) {
      const run = runs[runs.length - 1];
      const previous = run?.[run.length - 1];
      if (run && previous === block - 1 && blocks[previous]!.part === blocks[block]!.part && run.length < BLOCKS_READ_TOGETHER)
        run.push(block);
      else runs.push([block]);
    }
    const kept: SnapshotEntry[] = [];
    for (const group of blocksOf(runs, READS_AT_ONCE)) {
      const read = await Promise.all(
        group.map((run) =>
          this.kept.files.adjacentBlocks<SnapshotEntry>(
            this.objects,
            snapshotFiles.part(this.organizationId, this.id, blocks[run[0]!]!.part),
            run.map((block) => blocks[block]!),
            entryOfStored,
          ),
        ),
      );
      for (const entries of read.flat()) for (const entry of entries) if (keep(entry)) kept.push(entry);
    }
    return kept;
  }

  async entryKeysFor(wanted: ReadonlySet<string>, sorted: readonly Buffer[], into: Set<string>): Promise<void> {
    for (const [part, blocks] of this.indexBlocksByPart()) {
      for (const block of blocksHolding(blocks, sorted))
        for (const [key, entry] of await this.indexBlock(part, blocks[block]!)) if (wanted.has(key)) into.add(entry);
    }
  }

  async entryKeysUnder(indexKey: string, afterKey: string | null, limit: number): Promise<{ items: string[]; more: boolean }> {
    const keys: string[] = [];
    const parts = [...this.indexBlocksByPart()];
    const firstOfPart = new Map<number, string>();
    for (const block of this.manifest.blocks) if (!firstOfPart.has(block.part)) firstOfPart.set(block.part, block.first);
    for (const [at, [part, blocks]] of parts.entries()) {
      const next = parts[at + 1];
      // A part whose entries all lie at or before the cursor (the next part starts at or before it) holds nothing after it.
      if (afterKey !== null && next && firstOfPart.has(next[0]) && compareKeys(firstOfPart.get(next[0])!, afterKey) <= 0) continue;
      for (const block of blocksHolding(blocks, [Buffer.from(indexKey, 'utf8')])) {
        for (const [key, entry] of await this.indexBlock(part, blocks[block]!)) {
          if (key !== indexKey || (afterKey !== null && compareKeys(entry, afterKey) <= 0)) continue;
          if (keys.length === limit) return { items: keys, more: true };
          keys.push(entry);
        }
      }
    }
    return { items: keys, more: false };
  }

  private indexBlocksByPart(): Map<number, SnapshotBlock[]> {
    const byPart = new Map<number, SnapshotBlock[]>();
    for (const block of this.manifest.indexBlocks) byPart.set(block.part, [...(byPart.get(block.part) ?? []), block]);
    return byPart;
  }

  private indexBlock(part: number, block: SnapshotBlock): Promise<[string, string][]> {
    const file = this.derivedFile(part);
    if (!this.derivedApart(part)) return this.kept.files.block<[string, string]>(this.objects, file, block);
    return this.kept.files.value(`${file}@${block.offset}`, async () => {
      const read = await readBlockIfPresent<[string, string]>(this.objects, file, block);
      if (read) return read;
      // Its derived file is missing: the part's entry index made again from its entries, block for block.
      const made = await this.kept.files.value(`${file}@index`, async () => indexBlocksOf(await this.partEntries(part)));
      const position = this.indexBlocksByPart().get(part)!.indexOf(block);
      return made[position] ?? [];
    });
  }

  private block(block: number): Promise<SnapshotEntry[]> {
    const ref = this.manifest.blocks[block]!;
    return this.kept.files.block<SnapshotEntry>(
      this.objects,
      snapshotFiles.part(this.organizationId, this.id, ref.part),
      ref,
      entryOfStored,
    );
  }
}

/** A generation's entries: its segments' entries, the newest of each key. */
export class Snapshot {
  private constructor(
    readonly manifest: SnapshotManifest,
    /** Oldest first. */
    private readonly segments: readonly Segment[],
    private readonly kept: SnapshotKept,
  ) {}

  static async open({ files, kept }: SnapshotReads, organizationId: string, generation: string | undefined): Promise<Snapshot | undefined> {
    if (generation === undefined) return undefined;
    const manifest = await kept.files.json<SnapshotManifest>(
      files,
      snapshotFiles.manifest(organizationId, generation),
      `manifest of the book generation ${generation}`,
    );
    const segments = await Promise.all(
      manifest.segments.map(
        async ({ id }) =>
          new Segment(
            files,
            kept,
            organizationId,
            id,
            await kept.files.json<SegmentManifest>(files, snapshotFiles.segment(organizationId, id), `manifest of the book segment ${id}`),
          ),
      ),
    );
    return new Snapshot(manifest, segments, kept);
  }

  get statistics(): BookStatistics {
    return this.manifest.statistics;
  }

  /** The generation's newest segments, from the `from`th: what a write merges into its own. */
  newest(from: number): Snapshot {
    return new Snapshot(this.manifest, this.segments.slice(from), this.kept);
  }

  /** The generation's segments before the `from`th: what a write keeps. */
  oldest(from: number): Snapshot {
    return new Snapshot(this.manifest, this.segments.slice(0, from), this.kept);
  }

  /** Each segment's parts' search columns, oldest segment first; and which rows a newer segment hides. */
  async searchColumns(): Promise<{ columns: GenerationColumns; hidden: Uint8Array[][] }> {
    const columns = await Promise.all(this.segments.map((segment) => segment.searchColumns()));
    const hidden = await this.kept.hidden.read(
      `${this.manifest.generation}:${this.segments.map((segment) => segment.id).join()}`,
      async () => hiddenRows(columns),
    );
    return { columns, hidden };
  }

  /** Every file of the segments. */
  files(): string[] {
    return this.segments.flatMap((segment) => segment.files());
  }

  /** Each segment's blocks' first keys, in key order: where the work of reading them can be cut. */
  blockFirsts(): string[] {
    return inUtf8Order(
      this.segments.flatMap((segment) => segment.manifest.blocks.map((block) => block.first)),
      (key) => key,
      1,
    );
  }

  /** The answer of the entry of a key, if the generation holds one, with what it folded of it; its block kept apart (kept.answers). */
  async answerAt(key: string): Promise<(EntryAnswer & { folded: number }) | undefined> {
    // Every segment at once, for a lookup's time: the newest that holds the key answers.
    const answers = await Promise.all(this.segments.map((segment) => segment.answerAt(key)));
    return answers.findLast((answer) => answer !== undefined);
  }

  /** The entries with keys in the range, in key order. */
  async entriesIn(range: KeyRange): Promise<SnapshotEntry[]> {
    const newest = new Map<string, SnapshotEntry>();
    for (const segment of this.segments) for (const entry of await segment.entriesIn(range)) newest.set(entryKey(entry), entry);
    return this.segments.length === 1 ? [...newest.values()] : byKey(newest.values());
  }

  /** The entry of a key, if the generation holds one. */
  async entryAt(key: string): Promise<SnapshotEntry | undefined> {
    return (await this.entriesAt([key]))[0];
  }

  /** Entries after `afterKey` (from the start when null), at most `limit`, in key order. */
  async entriesAfter(afterKey: string | null, limit: number): Promise<SnapshotEntry[]> {
    const reads = await Promise.all(this.segments.map((segment) => segment.entriesAfter(afterKey, limit)));
    // The newest segment's entry of a key comes last: kept over the older ones.
    const newest = new Map<string, SnapshotEntry>();
    for (const read of reads) for (const entry of read.items) newest.set(entryKey(entry), entry);
    return mergedUpTo(reads, entryKey, limit, (entry) => newest.get(entryKey(entry)) === entry).items;
  }

  /**
   * The keys of the entries found under any of the index keys given (indexKeys), reading only the
   * blocks that may hold them. An older segment may name an entry a newer one changed: readers read
   * the entry and look at it again.
   */
  async entryKeysFor(keys: readonly string[]): Promise<Set<string>> {
    const wanted = new Set(keys);
    const sorted = sortedBytes(wanted);
    const found = new Set<string>();
    for (const segment of this.segments) await segment.entryKeysFor(wanted, sorted, found);
    return found;
  }

  /**
   * The keys of the entries under one index key after `afterKey`, in key order, at most `limit`;
   * `more` false when the generation has none after them. As with entryKeysFor, a key may name an
   * entry that a newer segment holds under another index key.
   */
  async entryKeysUnder(indexKey: string, afterKey: string | null, limit: number): Promise<{ keys: string[]; more: boolean }> {
    const reads = await Promise.all(this.segments.map((segment) => segment.entryKeysUnder(indexKey, afterKey, limit)));
    const { items, more } = mergedUpTo(reads, (key) => key, limit);
    return { keys: items, more };
  }

  /** The entries of the keys given (in key order), from the newest segment that holds each, reading each block that holds them once. */
  async entriesAt(keys: readonly string[]): Promise<SnapshotEntry[]> {
    const found = new Map<string, SnapshotEntry>();
    let left = [...new Set(keys)];
    for (let segment = this.segments.length - 1; segment >= 0 && left.length > 0; segment--) {
      for (const entry of await this.segments[segment]!.entriesAt(left)) found.set(entryKey(entry), entry);
      left = left.filter((key) => !found.has(key));
    }
    return byKey(found.values());
  }
}
