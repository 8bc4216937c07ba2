import { defineRoute, type RouteDefinition } from '../platform/http/route';
import * as schemas from './schemas';
import { ErrorResponse } from '../platform/http/schemas';
import { errors } from '../platform/http/responses';
import { RECORD_PAGES_PREFIX, REFERENCE_FILES_PREFIX } from './inventory';

/** Search functions hold the whole index in memory: sized for a 1,000,000-hotel inventory. */
const SEARCH_FUNCTION = { memoryMb: 1769, timeoutSeconds: 15 } as const;
/** Search reads the publication's index and statistics: the reference's files, never partners'. */
const searchAccess = { table: 'read', objects: { read: [REFERENCE_FILES_PREFIX] } } as const;

export const referenceRoutes = {
  downloadReference: defineRoute({
    method: 'GET',
    path: '/api/v1/reference',
    handler: 'reference/download',
    auth: 'required',
    tag: 'Reference inventory',
    summary: 'A temporary URL to download the latest reference inventory file',
    description: 'The file is gzip-compressed JSON Lines, one reference hotel per line. The URL needs no credential.',
    query: schemas.DownloadQuery,
    responses: {
      200: { description: 'Download link', schema: schemas.DownloadResponse },
      400: errors[400],
      401: errors[401],
      404: { description: 'No inventory has been generated yet', schema: ErrorResponse },
    },
    access: { table: 'read', objects: { read: [REFERENCE_FILES_PREFIX] } },
  }),
  searchReference: defineRoute({
    method: 'GET',
    path: '/api/v1/reference/search',
    // Each search runs over the in-memory index on a whole vCPU: a scraper gets this share, not the stage's.
    throttle: { ratePerSecond: 30, burst: 60 },
    handler: 'reference/search',
    auth: 'required',
    tag: 'Reference inventory',
    summary: 'Search reference hotels by name, by radius, or by filters',
    description:
      'Mode: `q` gives fuzzy name search (ranked by relevance; geo parameters and rating ignored); `lat`+`lon`+`radius` ' +
      'give geographic search (nearest first; region and rating ignored); otherwise filter search (sorted by name). ' +
      '`country` applies in every mode, `city` too; `limit` and `offset` apply after the mode is chosen.',
    query: schemas.ReferenceSearchQuery,
    responses: { 200: { description: 'One page of results', schema: schemas.SearchResponse }, 400: errors[400], 401: errors[401] },
    access: searchAccess,
    lambda: SEARCH_FUNCTION,
  }),
  advancedSearchReference: defineRoute({
    method: 'GET',
    path: '/api/v1/reference/search/advanced',
    throttle: { ratePerSecond: 30, burst: 60 },
    handler: 'reference/search-advanced',
    auth: 'required',
    tag: 'Reference inventory',
    summary: 'Filter and sort reference hotels',
    description:
      "Every word of `name` must begin a word of the hotel's name; `country`, `city` and `rating` filter; `sortBy` and `sortDir` order; `limit` (clamped to 1..100) and `offset` page.",
    query: schemas.AdvancedSearchQuery,
    responses: { 200: { description: 'One page of results', schema: schemas.SearchResponse }, 400: errors[400], 401: errors[401] },
    access: searchAccess,
    lambda: SEARCH_FUNCTION,
  }),
  referenceStatistics: defineRoute({
    method: 'GET',
    path: '/api/v1/reference/statistics',
    handler: 'reference/statistics',
    auth: 'required',
    tag: 'Reference inventory',
    summary: 'Hotel, country and city counts',
    description: 'Counts over the current reference publication, as search sees it.',
    responses: { 200: { description: 'Global statistics', schema: schemas.GlobalStatisticsResponse }, 401: errors[401] },
    access: searchAccess,
  }),
  referenceCountryList: defineRoute({
    method: 'GET',
    path: '/api/v1/reference/statistics/countries',
    handler: 'reference/statistics-countries',
    auth: 'required',
    tag: 'Reference inventory',
    summary: 'Countries by hotel count, largest first',
    description: 'Each country with its hotel count, largest first; `limit` is clamped to 1..200.',
    query: schemas.CountriesQuery,
    responses: { 200: { description: 'Country entries', schema: schemas.CountryListResponse }, 400: errors[400], 401: errors[401] },
    access: searchAccess,
  }),
  referenceCountry: defineRoute({
    method: 'GET',
    path: '/api/v1/reference/statistics/countries/{country}',
    handler: 'reference/statistics-country',
    auth: 'required',
    tag: 'Reference inventory',
    summary: "One country's hotel count and cities (the name is case-sensitive)",
    description:
      '404 for a country with no hotel in the reference. The name is compared exactly as GET /api/v1/reference/statistics/countries lists it.',
    params: schemas.CountryParams,
    responses: {
      200: { description: 'Country detail', schema: schemas.CountryDetailResponse },
      400: errors[400],
      401: errors[401],
      404: { description: 'The country is not in the inventory', schema: ErrorResponse },
    },
    access: searchAccess,
  }),
  referenceHotel: defineRoute({
    method: 'GET',
    path: '/api/v1/reference/{id}',
    handler: 'reference/hotel',
    auth: 'required',
    tag: 'Reference inventory',
    summary: 'One reference hotel with its metadata',
    description: "The hotel's record in the current reference publication; 404 for an unknown id.",
    params: schemas.HotelIdParams,
    responses: {
      200: { description: 'The hotel', schema: schemas.ReferenceHotelDetail },
      400: errors[400],
      401: errors[401],
      404: { description: 'No hotel has that id', schema: ErrorResponse },
    },
    // The pointer and merges in the table; the record in its page of files.
    access: { table: 'read', objects: { read: [RECORD_PAGES_PREFIX] } },
  }),
  reportDuplicate: defineRoute({
    method: 'POST',
    path: '/api/v1/reference/duplicates',
    handler: 'reference/report-duplicate',
    auth: 'required',
    tag: 'Duplicate reports',
    summary: 'Report that one reference hotel duplicates another',
    description:
      'Both hotels must exist and differ. The report starts PENDING; the back office merges or rejects it, and the reporting organization gets INVENTORY_DUPLICATE_RESOLVED (on plans that include it).',
    body: {
      kind: 'json',
      schema: schemas.CreateDuplicateReportRequest,
      example: {
        originalHotelId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
        duplicateHotelId: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
        reason: 'Same name and address, 20 m apart',
      },
    },
    responses: {
      200: { description: 'The report, PENDING until back-office staff resolve it', schema: schemas.DuplicateReportView },
      400: { description: 'Missing id, or both ids are the same hotel', schema: ErrorResponse },
      401: errors[401],
      404: { description: 'A referenced hotel does not exist', schema: ErrorResponse },
      415: errors[415],
    },
    access: { table: 'readwrite', objects: { read: [RECORD_PAGES_PREFIX] } },
  }),
  getDuplicateReport: defineRoute({
    method: 'GET',
    path: '/api/v1/reference/duplicates/{reportId}',
    handler: 'reference/get-duplicate',
    auth: 'required',
    tag: 'Duplicate reports',
    summary: "A duplicate report's state (the reporting organization's, or any for an admin key)",
    description: "PENDING, MERGED or REJECTED, with the resolution once there is one. Another organization's report answers 404.",
    params: schemas.ReportIdParams,
    responses: {
      200: { description: 'The report', schema: schemas.DuplicateReportView },
      400: errors[400],
      401: errors[401],
      404: errors[404],
    },
    access: { table: 'read' },
  }),
  resolveDuplicateReport: defineRoute({
    method: 'POST',
    path: '/api/v1/reference/duplicates/{reportId}/resolve',
    handler: 'reference/resolve-duplicate',
    auth: 'admin',
    tag: 'Duplicate reports',
    summary: 'Merge or reject a duplicate report (back office)',
    description:
      'MERGE records which hotel the duplicate merged into and removes it from search, statistics and the downloadable ' +
      'file with the next publication, made in the background within seconds (parallel merges all make it). REJECT ' +
      'only closes the report. Either emits INVENTORY_DUPLICATE_RESOLVED to the reporting organization. A report is ' +
      'resolved once: 409 afterwards.',
    params: schemas.ReportIdParams,
    body: { kind: 'json', schema: schemas.ResolveDuplicateReportRequest, example: { decision: 'MERGE', note: 'Confirmed with the hotel' } },
    responses: {
      200: { description: 'The resolved report', schema: schemas.DuplicateReportView },
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: errors[404],
      409: { description: 'The report is already resolved', schema: ErrorResponse },
    },
    access: { table: 'readwrite', sendsTo: ['reference-publication'] },
  }),
} satisfies Record<string, RouteDefinition>;
