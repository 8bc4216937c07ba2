/**
 * The events partners are told of, in one place: for each type, what it means, the schema of its
 * data, a sample (what a test event carries), and the lowest plan that may subscribe to it. The
 * producers build their events with these types, the webhooks capability delivers them and
 * documents them from here, and the plans list the events they allow from here.
 */
import * as v from 'valibot';
import { MAPPING_MODES } from '../mapping';
import { PLAN_LIMITS, PLAN_TYPES, type PlanType } from '../organizations';
import type { DomainEvent } from '../platform/events/events';
import { Timestamp } from '../platform/http/schemas';

interface EventDefinition<S extends v.GenericSchema> {
  summary: string;
  /** The cheapest plan whose subscriptions may receive it; every plan above it may too. */
  lowestPlan: PlanType;
  /** Test events' data: the shape a real event carries, with placeholder values. */
  sample(at: string): v.InferOutput<S>;
}

/** An event whose data has this schema: `defineEvent(schema)({ … })`, so that the sample is typed by the schema. */
const defineEvent =
  <S extends v.GenericSchema>(data: S) =>
  (definition: EventDefinition<S>) => ({ data, ...definition });

const Id = v.string();

/** A job's rows by where they stand: what its view shows and its completion event tells. */
export const JobCounts = v.object({
  total: v.pipe(v.number(), v.description('Rows to map: the inventory hotelCount')),
  processed: v.number(),
  matched: v.number(),
  review: v.number(),
  unmatched: v.number(),
  unchanged: v.pipe(
    v.number(),
    v.description(
      'Processed rows the mapping book already held as they are (same row, mode, supplier and reference publication), answered from the book without mapping them again: not charged. A job charges processed - unchanged.',
    ),
  ),
});

/** The completion as the contract's legacy `mapping.completed` call carries it. */
export const MappingCompletedCore = v.object({
  mappingJobId: Id,
  partnerInventoryId: Id,
  mode: v.picklist(MAPPING_MODES),
  status: v.literal('COMPLETED'),
  counts: JobCounts,
  createdAt: Timestamp,
  completedAt: Timestamp,
});

const DESTINATION_TYPE_NAMES = ['S3', 'S3_COMPATIBLE', 'SFTP'] as const;

export const MappingCompletedData = v.object({
  ...MappingCompletedCore.entries,
  export: v.pipe(
    v.nullable(
      v.object({
        fileUrl: v.pipe(v.string(), v.description('A presigned download link of the export file, in your export format')),
        expiresAt: Timestamp,
        fileName: v.pipe(
          v.string(),
          v.description("`mapping-{mappingJobId}` and the format's extension: also its name at your delivery destinations"),
        ),
        format: v.string(),
        compression: v.string(),
        fields: v.array(v.string()),
        rowCount: v.number(),
      }),
    ),
    v.description(
      "The job's export, written before this event was sent when your organization has an active delivery destination or a webhook taking MAPPING_COMPLETED; " +
        'null otherwise, or when the job is too large for one file (read its results instead)',
    ),
  ),
  deliveries: v.pipe(
    v.array(
      v.object({
        destinationId: Id,
        name: v.string(),
        type: v.picklist(DESTINATION_TYPE_NAMES),
        location: v.pipe(v.string(), v.description('Where the file lands: s3://bucket/key or sftp://host:port/path')),
        fileDeliveryId: v.pipe(Id, v.description('Its attempts: GET /api/v1/delivery-destinations/{destinationId}/deliveries')),
      }),
    ),
    v.description('The delivery destinations the file is being written to (started before this event; each retried on failure)'),
  ),
});

const SAMPLE_JOB = '00000000-0000-4000-8000-000000000001';
const SAMPLE_HOTEL = '00000000-0000-4000-8000-000000000003';
const SAMPLE_OTHER_HOTEL = '00000000-0000-4000-8000-000000000004';
const SAMPLE_DESTINATION = '00000000-0000-4000-8000-000000000006';
const SAMPLE_FILE_DELIVERY = '00000000-0000-4000-8000-000000000007';

const ChangeCountsData = v.object({ new: v.number(), updated: v.number(), deleted: v.number() });

export const MappingBookChangedData = v.object({
  cause: v.pipe(
    v.object({
      kind: v.picklist(['JOB', 'MERGE', 'PUBLICATION']),
      mappingJobId: v.optional(Id),
      referenceVersionId: v.optional(v.string()),
    }),
    v.description(
      'What wrote the changes: a completed job (its mappingJobId), or a reference publication (its referenceVersionId) that merged duplicates only (MERGE) or changed more (PUBLICATION)',
    ),
  ),
  counts: v.pipe(ChangeCountsData, v.description('The entries it made NEW, UPDATED and DELETED')),
  position: v.pipe(v.string(), v.description('Read the changes from here: `GET /api/v1/mapping-book/changes?after={position}`')),
  committedAt: Timestamp,
});

export const EVENT_CATALOGUE = {
  MAPPING_COMPLETED: defineEvent(MappingCompletedData)({
    summary: 'A mapping job completed',
    lowestPlan: 'FREE',
    sample: (at) => ({
      mappingJobId: SAMPLE_JOB,
      partnerInventoryId: '00000000-0000-4000-8000-000000000002',
      mode: 'STANDARD',
      status: 'COMPLETED',
      counts: { total: 3, processed: 3, matched: 1, review: 1, unmatched: 1, unchanged: 0 },
      createdAt: at,
      completedAt: at,
      export: {
        fileUrl: 'https://results.example/exports/mapping-00000000-0000-4000-8000-000000000001.csv?X-Amz-Signature=test',
        expiresAt: at,
        fileName: `mapping-${SAMPLE_JOB}.csv`,
        format: 'csv',
        compression: 'none',
        fields: ['partnerHotelId', 'referenceHotelId', 'status'],
        rowCount: 3,
      },
      deliveries: [
        {
          destinationId: SAMPLE_DESTINATION,
          name: 'Data team SFTP',
          type: 'SFTP',
          location: `sftp://sftp.partner.example:22/incoming/mapping-${SAMPLE_JOB}.csv`,
          fileDeliveryId: SAMPLE_FILE_DELIVERY,
        },
      ],
    }),
  }),
  DELIVERY_DESTINATION_DISABLED: defineEvent(
    v.object({
      destinationId: Id,
      name: v.string(),
      type: v.picklist(DESTINATION_TYPE_NAMES),
      reasonCode: v.pipe(
        v.string(),
        v.description(
          "The last failure's reason code (AUTH_REFUSED, HOST_KEY_CHANGED, NOT_FOUND, ACCESS_DENIED, WRITE_FAILED, TIMEOUT, …)",
        ),
      ),
      reason: v.string(),
      disabledAt: Timestamp,
    }),
  )({
    summary: 'A delivery destination was disabled after three deliveries in a row failed; PATCH it ACTIVE once fixed',
    lowestPlan: 'FREE',
    sample: (at) => ({
      destinationId: SAMPLE_DESTINATION,
      name: 'Data team SFTP',
      type: 'SFTP',
      reasonCode: 'AUTH_REFUSED',
      reason:
        '3 deliveries in a row failed; the last: The SFTP server sftp.partner.example:22 refused the user hotel-mapping and its credentials.',
      disabledAt: at,
    }),
  }),
  MAPPING_ERROR_RESOLVED: defineEvent(
    v.object({
      mappingJobId: v.pipe(
        v.nullable(Id),
        v.description("The job whose row was decided; null for a decision on the mapping book's entry (POST /api/v1/mapping-book/reviews)"),
      ),
      source: v.pipe(v.string(), v.description('The book source of the partner hotel: OWN, or the supplier code its inventory gave')),
      partnerHotelId: v.string(),
      decision: v.pipe(
        v.picklist(['MATCH', 'NO_MATCH', 'WITHDRAW']),
        v.description("WITHDRAW: the row's decision was taken back; referenceHotelId is the engine's answer again"),
      ),
      referenceHotelId: v.nullable(Id),
      previousStatus: v.string(),
      previousReferenceHotelId: v.nullable(Id),
      note: v.optional(v.string()),
      decidedBy: v.pipe(v.string(), v.description('The API key id that decided')),
      decidedAt: Timestamp,
    }),
  )({
    summary:
      "A person decided a job's result row or a mapping book entry, or took the decision back (POST /api/v1/mapping/{jobId}/reviews, POST /api/v1/mapping-book/reviews)",
    lowestPlan: 'SUBSCRIPTION',
    sample: (at) => ({
      mappingJobId: SAMPLE_JOB,
      source: 'OWN',
      partnerHotelId: 'HOTEL-1',
      decision: 'MATCH',
      referenceHotelId: SAMPLE_HOTEL,
      previousStatus: 'REVIEW',
      previousReferenceHotelId: SAMPLE_OTHER_HOTEL,
      note: 'Test event',
      decidedBy: 'test',
      decidedAt: at,
    }),
  }),
  MAPPING_BOOK_CHANGED: defineEvent(MappingBookChangedData)({
    summary: "A batch of changes was written into the organization's mapping book (a job, a merge, a publication)",
    lowestPlan: 'FREE',
    sample: (at) => ({
      cause: { kind: 'JOB', mappingJobId: SAMPLE_JOB },
      counts: { new: 1, updated: 1, deleted: 1 },
      position: '1.0',
      committedAt: at,
    }),
  }),
  INVENTORY_DUPLICATE_RESOLVED: defineEvent(
    v.object({
      reportId: Id,
      decision: v.picklist(['MERGE', 'REJECT']),
      originalHotelId: Id,
      duplicateHotelId: Id,
      mergedInto: v.optional(v.pipe(Id, v.description('On a merge: the hotel the duplicate now stands for'))),
    }),
  )({
    summary: 'A duplicate report the organization made was merged or rejected',
    lowestPlan: 'ENTERPRISE',
    sample: () => ({
      reportId: '00000000-0000-4000-8000-000000000005',
      decision: 'MERGE',
      originalHotelId: SAMPLE_HOTEL,
      duplicateHotelId: SAMPLE_OTHER_HOTEL,
      mergedInto: SAMPLE_HOTEL,
    }),
  }),
};

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = [
  'MAPPING_COMPLETED',
  'MAPPING_ERROR_RESOLVED',
  'MAPPING_BOOK_CHANGED',
  'INVENTORY_DUPLICATE_RESOLVED',
  'DELIVERY_DESTINATION_DISABLED',
] as const satisfies readonly EventType[];
export type EventData<T extends EventType> = v.InferOutput<(typeof EVENT_CATALOGUE)[T]['data']>;

/** An event of the catalogue, its data typed by its type. */
export type PartnerEvent = { [T in EventType]: DomainEvent & { type: T; data: EventData<T> } }[EventType];

export function isEventType(type: string): type is EventType {
  return (EVENT_TYPES as readonly string[]).includes(type);
}

/** The event types a plan's subscriptions may receive. */
export function eventsOfPlan(plan: PlanType): EventType[] {
  return EVENT_TYPES.filter((type) => PLAN_TYPES.indexOf(EVENT_CATALOGUE[type].lowestPlan) <= PLAN_TYPES.indexOf(plan));
}

export function planAllowsEvent(plan: PlanType, type: EventType): boolean {
  return eventsOfPlan(plan).includes(type);
}

/** "Professional", for MAPPING_ERROR_RESOLVED: the plan a partner needs to receive the event. */
export function lowestPlanName(type: EventType): string {
  return PLAN_LIMITS[EVENT_CATALOGUE[type].lowestPlan].displayName;
}

export function sampleData(type: EventType, at: string): PartnerEvent['data'] {
  return EVENT_CATALOGUE[type].sample(at);
}
