import * as v from 'valibot';
import { EXPORT_FORMATS } from '../export-format';
import { MAPPING_EXPORT_COLUMNS } from '../mapping';
import {
  answerSearchFields,
  CandidateSchema,
  CONFIDENCE_LEVELS,
  MatchEvidenceSchema,
  REASON_CODES,
  referenceHotelFactFields,
  SCORE_ORDERS,
  ScoreParam as Score,
  SearchTotal,
} from '../mapping';
import { NextCursor, pageQuery, Text, Timestamp, Uuid } from '../platform/http/schemas';
import { CHANGES_RETENTION_DAYS } from './files';
import { CHANGE_KINDS, ENTRY_METHODS, ENTRY_STATUSES, MATERIAL_MOVE_METERS, OWN_SOURCE } from './entries';

const Source = v.pipe(
  Text({ maxLength: 64 }),
  v.description(`The entry's source: ${OWN_SOURCE} for the organization's own hotels, else the supplier code the inventory's rows carried`),
  v.examples([OWN_SOURCE]),
);
// Compared with the ids the inventory file gave, so not trimmed.
const PartnerHotelId = v.pipe(
  Text({ maxLength: 200, trim: false }),
  v.description('The partner hotel id, as the inventory file gave it'),
  v.examples(['H-1001']),
);
const Status = v.picklist(ENTRY_STATUSES, 'must be MATCHED, REVIEW, UNMATCHED or DELETED');
const Position = v.pipe(
  v.string(),
  v.description(
    `A place in the feed, as the feed gave it: \`commit.read\` (the commit it is in, and how many of its changes were read). Valid ${CHANGES_RETENTION_DAYS} days from the commit it names; ` +
      'older ones answer 410. Leave out to read from the oldest change kept.',
  ),
  v.examples(['1.0']),
);

export const EntriesQuery = v.strictObject({
  ...pageQuery(100, 1000),
  source: v.optional(Source),
  status: v.optional(
    v.pipe(Status, v.description('Only entries in this status; DELETED entries are listed only when asked for'), v.examples(['REVIEW'])),
  ),
  method: v.optional(
    v.pipe(
      v.picklist([...ENTRY_METHODS, 'NONE'], 'must be ID, FUZZY, MANUAL or NONE'),
      v.description('Only entries decided this way (NONE: no method, UNMATCHED by the engine)'),
      v.examples(['MANUAL']),
    ),
  ),
  minScore: v.optional(v.pipe(Score, v.description('Only entries scoring at least this'), v.examples([0.5]))),
  maxScore: v.optional(v.pipe(Score, v.description('Only entries scoring at most this'), v.examples([0.95]))),
  partnerHotelId: v.optional(
    v.pipe(PartnerHotelId, v.description('Search: the entries of this partner hotel id (one per source that lists it)')),
  ),
  order: v.optional(
    v.pipe(
      v.picklist(SCORE_ORDERS, 'must be DESC or ASC'),
      v.description(
        'Entries by score, ties in partner id order: DESC, best first, or ASC, lowest first (with `status=MATCHED&method=FUZZY`, the matches likeliest wrong first). ' +
          "Left out, entries are listed in partner id order. With an order the answer carries `total`, as a search's does.",
      ),
      v.examples(['ASC']),
    ),
  ),
  ...answerSearchFields,
});

export const EntryQuery = v.strictObject({
  source: v.optional(v.pipe(Source, v.description(`Default ${OWN_SOURCE}`))),
  partnerHotelId: PartnerHotelId,
});

export const PartnerFacts = v.pipe(
  v.object({
    name: v.string(),
    address: v.optional(v.string()),
    postalCode: v.optional(v.string()),
    city: v.optional(v.string()),
    country: v.optional(v.string()),
    latitude: v.optional(v.number()),
    longitude: v.optional(v.number()),
  }),
  v.description("The partner's hotel as its inventory last gave it"),
);

const Cause = v.pipe(
  v.object({
    kind: v.picklist(['JOB', 'MATCH', 'REVIEW', 'MERGE', 'PUBLICATION']),
    mappingJobId: v.optional(v.string()),
    requestedBy: v.optional(v.pipe(v.string(), v.description('The API key whose find-match request recorded its answers (MATCH)'))),
    decidedBy: v.optional(v.pipe(v.string(), v.description('The API key that decided (REVIEW)'))),
    mergedHotelId: v.optional(v.pipe(v.string(), v.description('The reference hotel merged as a duplicate (MERGE, on an entry it moved)'))),
    mergedInto: v.optional(v.pipe(v.string(), v.description('The hotel it was merged into (MERGE, on an entry it moved)'))),
    referenceVersionId: v.optional(
      v.pipe(v.string(), v.description('The reference publication that made the change (MERGE, PUBLICATION)')),
    ),
  }),
  v.description(
    "What made the change: a job written into the book, find-match answers recorded (`POST /api/v1/mapping/match` with `record`), a person's decision, a merge of reference duplicates, or a new reference publication",
  ),
);

const Decision = v.pipe(
  v.object({
    decision: v.picklist(['MATCH', 'NO_MATCH']),
    referenceHotelId: v.nullable(v.string()),
    referenceHotelName: v.nullable(v.string()),
    ...referenceHotelFactFields,
    note: v.optional(v.string()),
    decidedBy: v.string(),
    decidedAt: Timestamp,
    partner: PartnerFacts,
  }),
  v.description(
    "A person's decision, with the partner's hotel as it was then. It stands (method MANUAL) until the partner's hotel changes materially " +
      `(its name, street, postal code, city or country other than by case, accents or punctuation, or its pin moves more than ${MATERIAL_MOVE_METERS} m): ` +
      'then the entry goes back to REVIEW and the decision is shown with it until a person decides again.',
  ),
);

const EngineAnswer = v.pipe(
  v.object({
    status: v.picklist(['MATCHED', 'REVIEW', 'UNMATCHED']),
    method: v.nullable(v.picklist(['ID', 'FUZZY'])),
    referenceHotelId: v.nullable(v.string()),
    referenceHotelName: v.nullable(v.string()),
    score: v.number(),
  }),
  v.description("What the engine said last: beside a MANUAL entry, the engine's own answer"),
);

const HistoryLine = v.object({
  at: Timestamp,
  change: v.picklist(CHANGE_KINDS),
  status: v.picklist(ENTRY_STATUSES),
  method: v.nullable(v.picklist(ENTRY_METHODS)),
  referenceHotelId: v.nullable(v.string()),
  reason: v.string(),
  cause: Cause,
});

const entryFields = {
  source: v.string(),
  partnerHotelId: v.string(),
  partner: PartnerFacts,
  status: v.pipe(v.picklist(ENTRY_STATUSES), v.description('DELETED: a whole inventory of its source no longer held it')),
  method: v.pipe(
    v.nullable(v.picklist(ENTRY_METHODS)),
    v.description("MANUAL when a person's decision stands; null when the engine found no match"),
  ),
  referenceHotelId: v.nullable(v.string()),
  referenceHotelName: v.nullable(v.string()),
  ...referenceHotelFactFields,
  score: v.pipe(v.number(), v.description("0 to 1, the engine's calibrated probability; 1 for a person's MATCH, 0 for their NO_MATCH")),
  reason: v.pipe(v.string(), v.description('Why the entry is as it is: its last change')),
  changedAt: v.pipe(Timestamp, v.description('When it last changed')),
  cause: Cause,
};

export const EntryView = v.object({
  ...entryFields,
  reasonCode: v.optional(
    v.pipe(
      v.picklist(REASON_CODES),
      v.description(
        `Why a REVIEW or UNMATCHED entry is so, for a machine (absent on MATCHED and DELETED entries); the codes are those of a job's results: ${REASON_CODES.join(', ')}.`,
      ),
    ),
  ),
  confidence: v.optional(
    v.pipe(
      v.picklist(CONFIDENCE_LEVELS),
      v.description("How far to trust the entry's answer, as a job's result row says it (absent on DELETED entries)"),
    ),
  ),
  evidence: v.nullable(MatchEvidenceSchema),
  candidates: v.pipe(v.array(CandidateSchema), v.description('The other hotels the engine weighed, likeliest first')),
  engine: EngineAnswer,
  decision: v.optional(Decision),
  history: v.pipe(v.array(HistoryLine), v.description('Its changes, oldest first (the latest 20)')),
});

export const EntryPage = v.object({
  entries: v.array(EntryView),
  nextCursor: NextCursor,
  total: v.optional(
    v.pipe(
      SearchTotal,
      v.description(
        "With a search parameter (partnerHotelId, name, city, country, referenceHotelId, supplier): how many entries match in all, every page's",
      ),
    ),
  ),
});

export const ChangesQuery = v.strictObject({
  after: v.optional(Position),
  since: v.optional(
    v.pipe(
      v.string(),
      v.isoTimestamp('must be an ISO 8601 timestamp, such as 2026-11-20T00:00:00Z'),
      v.description(
        `Instead of \`after\`: read from the first change written at or after this time (within the last ${CHANGES_RETENTION_DAYS} days; older answers 410). ` +
          'Follow on with the `position` the page gives. Such as 2026-11-20T00:00:00Z.',
      ),
    ),
  ),
  limit: pageQuery(100, 1000).limit,
});

export const CountsQuery = v.strictObject({ after: v.optional(Position) });

const Change = v.object({
  kind: v.pipe(
    v.picklist(CHANGE_KINDS),
    v.description('NEW: first in the book (or listed again); UPDATED: another hotel or status; DELETED: no longer in its inventory'),
  ),
  ...entryFields,
});

export const ChangePage = v.object({
  changes: v.pipe(v.array(Change), v.description('In the order they were written, each entry as the change left it')),
  position: v.pipe(v.string(), v.description('Where to read on from: pass it back as `after`')),
  hasMore: v.pipe(v.boolean(), v.description('Whether changes past `position` are already there: read again at once if so, else later')),
});

export const ChangeCounts = v.object({
  new: v.number(),
  updated: v.number(),
  deleted: v.number(),
  position: v.pipe(v.string(), v.description('The position after the last change counted')),
});

const ReviewNote = v.optional(Text({ maxLength: 1000, minLength: 0 }));
/**
 * A review's `expectedDecidedAt`: the decision the person read (`field`, its decidedAt; null for
 * none), so that a decision made since is not overwritten (409).
 */
export const expectedDecidedAt = (field: string) =>
  v.optional(
    v.pipe(
      v.nullable(v.pipe(v.string(), v.isoTimestamp(`must be the ${field} as read, or null`))),
      v.description(
        `The ${field} as you read it, null when there was no decision. Given, the request is refused (409) when someone decided ` +
          'or withdrew since: two people working one queue never overwrite each other. Omitted, the decision replaces whatever stands.',
      ),
      v.examples([null]),
    ),
  );
const ExpectedDecidedAt = expectedDecidedAt("entry's decision.decidedAt");

export const BookReviewRequest = v.variant(
  'decision',
  [
    v.strictObject({
      source: v.optional(v.pipe(Source, v.description(`Default ${OWN_SOURCE}`))),
      partnerHotelId: PartnerHotelId,
      decision: v.pipe(v.literal('MATCH'), v.description('The entry is this reference hotel')),
      referenceHotelId: v.pipe(Uuid, v.description('The proposal, a candidate, or any hotel of the reference inventory')),
      note: ReviewNote,
      expectedDecidedAt: ExpectedDecidedAt,
    }),
    v.strictObject({
      source: v.optional(v.pipe(Source, v.description(`Default ${OWN_SOURCE}`))),
      partnerHotelId: PartnerHotelId,
      decision: v.pipe(v.literal('NO_MATCH'), v.description('The entry is none of the reference hotels')),
      note: ReviewNote,
      expectedDecidedAt: ExpectedDecidedAt,
    }),
    v.strictObject({
      source: v.optional(v.pipe(Source, v.description(`Default ${OWN_SOURCE}`))),
      partnerHotelId: PartnerHotelId,
      decision: v.pipe(v.literal('WITHDRAW'), v.description("Take the entry's decision back (undo): the engine's answer stands again")),
      note: ReviewNote,
      expectedDecidedAt: ExpectedDecidedAt,
    }),
  ],
  'must be MATCH, NO_MATCH or WITHDRAW',
);

const Counts = <K extends string>(keys: readonly K[]) =>
  v.object(Object.fromEntries(keys.map((key) => [key, v.number()])) as Record<K, v.NumberSchema<undefined>>);

export const BookView = v.object({
  entries: v.pipe(v.number(), v.description('Entries in the book, DELETED ones apart')),
  sources: v.pipe(
    v.array(
      v.object({
        source: v.string(),
        entries: v.pipe(v.number(), v.description('Its entries, DELETED ones apart')),
        byStatus: Counts(ENTRY_STATUSES),
        byMethod: v.pipe(
          Counts([...ENTRY_METHODS, 'NONE'] as const),
          v.description('Its entries (DELETED ones apart) by method; NONE: UNMATCHED by the engine'),
        ),
      }),
    ),
    v.description('Per source, by status and by method'),
  ),
  position: v.pipe(v.string(), v.description('The end of the change feed: follow it from here (GET /api/v1/mapping-book/changes?after=…)')),
  writing: v.pipe(v.nullable(v.string()), v.description('The job being written into the book, if one is: its changes follow in the feed')),
});

export const ExportQuery = v.strictObject({
  source: v.optional(v.pipe(Source, v.description(`The source exported (default ${OWN_SOURCE})`))),
});

const ExportFields = {
  source: v.string(),
  format: v.picklist(EXPORT_FORMATS),
  compression: v.picklist(['none', 'gzip']),
  fields: v.array(v.picklist(MAPPING_EXPORT_COLUMNS)),
};

export const BookExportReady = v.object({
  fileUrl: v.pipe(v.string(), v.description('A presigned URL, valid 1 hour')),
  expiresAt: Timestamp,
  position: v.pipe(
    v.string(),
    v.description('The feed position the file was read at: every change before it is in the file. Follow the feed from here'),
  ),
  rowCount: v.number(),
  ...ExportFields,
});

export const BookExportPreparing = v.object({
  status: v.pipe(v.literal('PREPARING'), v.description('The file is being written: repeat the request after Retry-After seconds')),
  ...ExportFields,
});

export const mappingBookComponentSchemas = {
  MappingBook: BookView,
  MappingBookEntry: EntryView,
  MappingBookEntryPage: EntryPage,
  MappingBookChangePage: ChangePage,
} as const;
