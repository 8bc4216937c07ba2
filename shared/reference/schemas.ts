/** Request and response schemas of the reference inventory endpoints. */
import * as v from 'valibot';
import { DUPLICATE_DECISIONS, DUPLICATE_REPORT_STATUSES } from './inventory';
import { booleanParam, decimalParam, documentedAs, Text, Timestamp, UNBOUNDED, Uuid, wholeNumberParam } from '../platform/http/schemas';
import {
  COUNTRY_STATISTICS_LIMIT_MAX,
  COUNTRY_STATISTICS_LIMIT_MIN,
  SEARCH_LIMIT_MAX,
  SEARCH_LIMIT_MIN,
  SEARCH_OFFSET_MIN,
} from './search/query-limits';

// Query strings arrive as text: numbers take the one form every endpoint takes (wholeNumberParam, decimalParam).
const Latitude = v.pipe(decimalParam, v.minValue(-90, 'must be between -90 and 90'), v.maxValue(90, 'must be between -90 and 90'));
const Longitude = v.pipe(decimalParam, v.minValue(-180, 'must be between -180 and 180'), v.maxValue(180, 'must be between -180 and 180'));
const Rating = v.pipe(decimalParam, v.minValue(0, 'must be between 0 and 5'), v.maxValue(5, 'must be between 0 and 5'));
// The contract clamps limit (spec "Limits") and refuses a negative offset.
const SearchLimit = wholeNumberParam(SEARCH_LIMIT_MIN, SEARCH_LIMIT_MAX, 'clamp');
const Offset = wholeNumberParam(SEARCH_OFFSET_MIN, UNBOUNDED);
const SearchText = Text({ maxLength: 200, minLength: 0 });
const SearchLimitParam = v.optional(
  v.pipe(
    SearchLimit,
    v.description('Default 20. Any whole number is taken, clamped to 1..100: 0 reads as 1, 500 as 100'),
    documentedAs<number>({ type: 'integer', default: 20 }),
    v.examples([20]),
  ),
);
const OffsetParam = v.optional(
  v.pipe(Offset, v.description('Hotels to skip; default 0'), documentedAs<number>({ type: 'integer', default: 0 }), v.examples([0])),
);

export const ReferenceSearchQuery = v.strictObject({
  q: v.optional(v.pipe(SearchText, v.description('Fuzzy hotel name; selects name mode'), v.examples(['Grand Hotel']))),
  lat: v.optional(v.pipe(Latitude, v.description('Geographic mode, with lon and radius'), v.examples([38.7223]))),
  lon: v.optional(v.pipe(Longitude, v.description('Geographic mode, with lat and radius'), v.examples([-9.1393]))),
  radius: v.optional(v.pipe(decimalParam, v.gtValue(0, 'must be greater than 0'), v.description('Kilometres'), v.examples([5]))),
  country: v.optional(v.pipe(SearchText, v.description('Country name or ISO code, case-insensitive; every mode'), v.examples(['PT']))),
  region: v.optional(v.pipe(SearchText, v.description('Name and filter modes'), v.examples(['Lisboa']))),
  city: v.optional(v.pipe(SearchText, v.description('Every mode'), v.examples(['Lisbon']))),
  rating: v.optional(v.pipe(Rating, v.description('Minimum stars; filter mode'), v.examples([4]))),
  limit: SearchLimitParam,
  offset: OffsetParam,
});

export const AdvancedSearchQuery = v.strictObject({
  name: v.optional(v.pipe(SearchText, v.description('Every word must begin a word of the hotel name'), v.examples(['grand pal']))),
  country: v.optional(v.pipe(SearchText, v.description('Country name or ISO code, case-insensitive'), v.examples(['Portugal']))),
  city: v.optional(v.pipe(SearchText, v.description('City, case-insensitive'), v.examples(['Lisbon']))),
  rating: v.optional(v.pipe(Rating, v.description('Minimum stars'), v.examples([3.5]))),
  hasCoordinates: v.optional(v.pipe(booleanParam, v.description('true: only hotels with latitude and longitude'), v.examples([true]))),
  sortBy: v.optional(
    v.pipe(
      v.picklist(['name', 'rating', 'created'], 'must be name, rating or created'),
      v.description('Default name'),
      v.examples(['rating']),
    ),
  ),
  sortDir: v.optional(v.pipe(v.picklist(['asc', 'desc'], 'must be asc or desc'), v.description('Default asc'), v.examples(['desc']))),
  limit: SearchLimitParam,
  offset: OffsetParam,
});

/** Download link validity, in minutes. */
export const EXPIRATION_MINUTES = { default: 60, min: 1, max: 10_080 } as const;

export const DownloadQuery = v.strictObject({
  expirationMinutes: v.optional(
    v.pipe(
      wholeNumberParam(EXPIRATION_MINUTES.min, EXPIRATION_MINUTES.max),
      v.description('Default 60; 1 to 10080 (7 days)'),
      documentedAs<number>({ type: 'integer', default: EXPIRATION_MINUTES.default }),
      v.examples([120]),
    ),
  ),
});

export const CountriesQuery = v.strictObject({
  limit: v.optional(
    v.pipe(
      wholeNumberParam(COUNTRY_STATISTICS_LIMIT_MIN, COUNTRY_STATISTICS_LIMIT_MAX, 'clamp'),
      v.description('Default 20. Any whole number is taken, clamped to 1..200: 0 reads as 1, 500 as 200'),
      documentedAs<number>({ type: 'integer', default: 20 }),
      v.examples([10]),
    ),
  ),
});

export const HotelIdParams = v.object({
  id: v.pipe(Uuid, v.description("A reference hotel's id"), v.examples(['1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'])),
});
export const CountryParams = v.object({
  country: v.pipe(Text({ maxLength: 100 }), v.description('Country name or ISO code, case-insensitive'), v.examples(['PT'])),
});
export const ReportIdParams = v.object({
  reportId: v.pipe(Uuid, v.description("The duplicate report's id"), v.examples(['e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b'])),
});

export const ReferenceHotelSummary = v.object({
  id: Uuid,
  name: v.string(),
  country: v.optional(v.string()),
  city: v.optional(v.string()),
  region: v.optional(v.string()),
  rating: v.optional(v.number()),
  lat: v.optional(v.number()),
  lon: v.optional(v.number()),
});

export const SearchResponse = v.object({
  results: v.array(ReferenceHotelSummary),
  total: v.pipe(v.number(), v.description('Matches before pagination')),
});

export const ReferenceHotelDetail = v.object({
  ...ReferenceHotelSummary.entries,
  metadata: v.object({
    address: v.optional(v.string()),
    postalCode: v.optional(v.string()),
    countryCode: v.optional(v.string()),
    chain: v.optional(v.string()),
    supplierCodes: v.pipe(v.record(v.string(), v.string()), v.description('Supplier code -> the hotel id at that supplier')),
    source: v.pipe(v.string(), v.description('Where the version came from (import file name)')),
    importId: v.pipe(v.string(), v.description('The import this record came from (one per reference file imported)')),
    createdAt: Timestamp,
    updatedAt: v.pipe(Timestamp, v.description('When the record last changed: its import, or its merge as a duplicate')),
    mergedInto: v.optional(v.pipe(Uuid, v.description('Set when this hotel was merged as a duplicate; search no longer lists it'))),
  }),
});

export const DownloadResponse = v.object({
  fileUrl: v.pipe(v.string(), v.description('Gzip-compressed JSON Lines, one hotel per line; no credential needed')),
  expiresAt: Timestamp,
  hotelCount: v.number(),
  versionId: v.pipe(
    v.string(),
    v.description("The reference version (publication) the file holds: the same id as a mapping job's referenceVersionId"),
  ),
});

const CountryCount = v.object({ country: v.string(), hotelCount: v.number() });
export const GlobalStatisticsResponse = v.object({
  totalHotels: v.number(),
  totalCountries: v.number(),
  totalCities: v.number(),
  byCountry: v.array(CountryCount),
});
export const CountryListResponse = v.array(CountryCount);
export const CountryDetailResponse = v.object({
  country: v.string(),
  totalHotels: v.number(),
  cities: v.array(v.object({ city: v.string(), hotelCount: v.number() })),
});

export const CreateDuplicateReportRequest = v.strictObject({
  originalHotelId: v.pipe(Uuid, v.description('The hotel to keep')),
  duplicateHotelId: v.pipe(Uuid, v.description('The hotel that duplicates it')),
  duplicateSourceId: v.optional(Text({ maxLength: 200, minLength: 0 })),
  reason: v.optional(Text({ maxLength: 2000, minLength: 0 })),
});

export const ResolveDuplicateReportRequest = v.strictObject({
  decision: v.picklist(DUPLICATE_DECISIONS, 'must be MERGE or REJECT'),
  note: v.optional(Text({ maxLength: 2000, minLength: 0 })),
});

export const DuplicateReportView = v.object({
  reportId: Uuid,
  status: v.picklist(DUPLICATE_REPORT_STATUSES),
  originalHotelId: Uuid,
  duplicateHotelId: Uuid,
  duplicateSourceId: v.optional(v.string()),
  reason: v.optional(v.string()),
  submittedAt: Timestamp,
  resolution: v.optional(
    v.object({
      decision: v.picklist(DUPLICATE_DECISIONS),
      note: v.optional(v.string()),
      resolvedAt: Timestamp,
    }),
  ),
});

/** The shapes the OpenAPI document names (components.schemas), each written once and referenced. */
export const referenceComponentSchemas = {
  ReferenceHotelSummary,
  ReferenceHotel: ReferenceHotelDetail,
  ReferenceSearchPage: SearchResponse,
  DuplicateReport: DuplicateReportView,
} as const;
