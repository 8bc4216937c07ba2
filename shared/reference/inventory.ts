/**
 * The reference inventory as published: which hotel records are current, where the derived
 * artifacts (snapshot file, search index, statistics) are, and duplicate reports.
 *
 * An import writes a new *data version* (hotel records in pages of files, hotel-records.ts) and new *artifacts*; a
 * duplicate merge keeps the data version and publishes new artifacts without the duplicate. Both
 * become visible at once by replacing the single CURRENT pointer.
 */
import type { ReferenceHotel, ReferenceHotelFacts } from '../mapping';

/** Where the reference inventory keeps its files: each publication's artifacts under `reference/<artifactsId>/`, and the two below. */
export const REFERENCE_FILES_PREFIX = 'reference/';
/** Hotel records, in pages per data version (hotel-records.ts). */
export const RECORD_PAGES_PREFIX = `${REFERENCE_FILES_PREFIX}data-versions/`;
/** What each publication changed against the one before it (ReferenceChanges), one file per publication. */
export const REFERENCE_CHANGES_PREFIX = `${REFERENCE_FILES_PREFIX}changes/`;
/** Matching indexes: apart from the other artifacts, so retiring them can wait. */
export const MATCHING_INDEX_PREFIX = `${REFERENCE_FILES_PREFIX}matching-indexes/`;

export interface ReferenceArtifacts {
  /** Gzip-compressed JSON Lines, one reference hotel per line: the downloadable inventory file. */
  snapshotKey: string;
  /** The search index (shared/reference artifact format). */
  indexKey: string;
  /** Statistics aggregates (JSON). */
  statisticsKey: string;
  /** The mapping engine's index of the same hotels (v8 serialization); mapping jobs pin it. Absent before jobs existed. */
  matchingIndexKey?: string;
}

export interface CurrentReference {
  dataVersionId: string;
  artifactsId: string;
  artifacts: ReferenceArtifacts;
  /** Hotels searchable in this publication (merged duplicates excluded). */
  hotelCount: number;
  source: string;
  importedAt: string;
  publishedAt: string;
  /** Pages of the data version's hotel records (hotel-records.ts). */
  recordPages: number;
  /** Duplicate merges left out of this publication (all merges recorded when it was built). */
  mergeCount?: number;
  /** Publications are numbered in the order they are made (absent on those made before). */
  number?: number;
  /**
   * The publication this one replaced. It is kept for requests already under way and deleted
   * when the next publication replaces this one.
   */
  previous?: {
    dataVersionId: string;
    artifacts: ReferenceArtifacts;
    /** Absent on publications made when records were table items (deleted from the table when retired). */
    recordPages?: number;
  };
}

/**
 * What a publication changed against the one it replaced, for those who follow the reference (the
 * mapping book): hotels merged as duplicates and where each went, hotels gone, hotels new with
 * their pins, and hotels renamed or moved. Written before the publication, kept with the changes of those before it.
 */
export interface ReferenceChanges {
  artifactsId: string;
  /** The publication this one replaced (null for the first). */
  previousArtifactsId: string | null;
  /** The publication's number: each is one more than the one it replaced. */
  number: number;
  publishedAt: string;
  /** The publication's matching index: what its followers map again against. */
  matchingIndexKey: string;
  /** mergedIntoFacts: absent from changes recorded before they were kept. */
  merged: { hotelId: string; mergedInto: string; mergedIntoName: string | null; mergedIntoFacts?: ReferenceHotelFacts }[];
  /** Hotels the previous publication had and this one has not, merged ones aside. */
  removed: string[];
  added: { id: string; lat?: number; lon?: number }[];
  /**
   * Hotels both hold under another name, with other facts (city, country, supplier codes), or with
   * their pin moved more than MOVED_METERS (or given or taken away): what entries pointing at them
   * must show, or be mapped again for. Absent from changes recorded before they were kept, and
   * `facts` from those recorded before facts were.
   */
  changed?: { id: string; name: string; moved: boolean; facts?: ReferenceHotelFacts }[];
}

/** A pin moved less than this is the same place: a hotel is not 150 m wide. */
export const MOVED_METERS = 150;

/** A hotel record as stored for one data version. */
export interface StoredReferenceHotel extends ReferenceHotel {
  dataVersionId: string;
  source: string;
  importedAt: string;
}

export interface MergeRecord {
  duplicateHotelId: string;
  mergedInto: string;
  reportId: string;
  mergedAt: string;
}

export const DUPLICATE_REPORT_STATUSES = ['PENDING', 'MERGED', 'REJECTED'] as const;
export type DuplicateReportStatus = (typeof DUPLICATE_REPORT_STATUSES)[number];
export const DUPLICATE_DECISIONS = ['MERGE', 'REJECT'] as const;
export type DuplicateDecision = (typeof DUPLICATE_DECISIONS)[number];

export interface DuplicateReport {
  reportId: string;
  organizationId: string;
  originalHotelId: string;
  duplicateHotelId: string;
  duplicateSourceId?: string;
  reason?: string;
  status: DuplicateReportStatus;
  submittedAt: string;
  resolution?: {
    decision: DuplicateDecision;
    note?: string;
    resolvedAt: string;
    /** Key id of the back-office caller. */
    resolvedBy: string;
  };
}
