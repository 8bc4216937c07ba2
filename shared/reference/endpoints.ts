/** The reference inventory endpoints: search, statistics, hotel detail, download and duplicate reports. */
import { notFound } from '../platform/errors';
import { objectStoreOf } from '../platform/objects/services';
import type { Implementation } from '../platform/http/endpoint';
import { duplicateReportView, reportDuplicate as report, resolveDuplicate as resolve } from './duplicates';
import { referenceRoutes } from './routes';
import { EXPIRATION_MINUTES } from './schemas';
import {
  advancedSearch,
  clampCountryStatisticsLimit,
  clampSearchLimit,
  countryStatistics,
  globalStatistics,
  resolveSearchOffset,
  search,
  topCountries,
} from './search/search-index';
import { findReferenceHotel, publishedReferenceOf, referencePortsOf, referenceStoreOf } from './services';

const NO_STATISTICS = { totalHotels: 0, totalCountries: 0, totalCities: 0, byCountry: [] };

export const searchReference: Implementation<typeof referenceRoutes.searchReference> = async ({ query }, runtime) => {
  const index = await publishedReferenceOf(runtime).searchIndex();
  if (!index) return { status: 200, json: { results: [], total: 0 } };
  const page = search(index, { ...query, limit: clampSearchLimit(query.limit), offset: resolveSearchOffset(query.offset) });
  return { status: 200, json: page };
};

export const advancedSearchReference: Implementation<typeof referenceRoutes.advancedSearchReference> = async ({ query }, runtime) => {
  const index = await publishedReferenceOf(runtime).searchIndex();
  if (!index) return { status: 200, json: { results: [], total: 0 } };
  const page = advancedSearch(index, { ...query, limit: clampSearchLimit(query.limit), offset: resolveSearchOffset(query.offset) });
  return { status: 200, json: page };
};

export const referenceStatistics: Implementation<typeof referenceRoutes.referenceStatistics> = async (_request, runtime) => {
  const statistics = await publishedReferenceOf(runtime).currentStatistics();
  return { status: 200, json: statistics ? globalStatistics(statistics) : NO_STATISTICS };
};

export const referenceCountryList: Implementation<typeof referenceRoutes.referenceCountryList> = async ({ query }, runtime) => {
  const statistics = await publishedReferenceOf(runtime).currentStatistics();
  return { status: 200, json: statistics ? topCountries(statistics, clampCountryStatisticsLimit(query.limit)) : [] };
};

export const referenceCountry: Implementation<typeof referenceRoutes.referenceCountry> = async ({ params }, runtime) => {
  const statistics = await publishedReferenceOf(runtime).currentStatistics();
  const detail = statistics && countryStatistics(statistics, params.country);
  if (!detail) throw notFound(`The inventory has no country named "${params.country}" (names are case-sensitive).`);
  return { status: 200, json: detail };
};

export const referenceHotel: Implementation<typeof referenceRoutes.referenceHotel> = async ({ params }, runtime) => {
  const reference = referenceStoreOf(runtime);
  const id = params.id.toLowerCase();
  const [hotel, merge] = await Promise.all([findReferenceHotel(runtime, id), reference.getMerge(id)]);
  if (!hotel) throw notFound(`No reference hotel has the id ${params.id}.`);
  return {
    status: 200,
    json: {
      id: hotel.id,
      name: hotel.name,
      country: hotel.country,
      city: hotel.city,
      region: hotel.region,
      rating: hotel.rating,
      lat: hotel.lat,
      lon: hotel.lon,
      metadata: {
        address: hotel.address,
        postalCode: hotel.postalCode,
        countryCode: hotel.countryCode,
        chain: hotel.chain,
        supplierCodes: hotel.supplierCodes,
        source: hotel.source,
        importId: hotel.dataVersionId,
        createdAt: hotel.createdAt ?? hotel.importedAt,
        // A merge changes the record: it is as new as the later of its import and its merge.
        updatedAt: merge && merge.mergedAt > hotel.importedAt ? merge.mergedAt : hotel.importedAt,
        mergedInto: merge?.mergedInto,
      },
    },
  };
};

export const downloadReference: Implementation<typeof referenceRoutes.downloadReference> = async ({ query }, runtime) => {
  const store = referenceStoreOf(runtime);
  const objects = objectStoreOf(runtime);
  const current = await store.getCurrent();
  if (!current) throw notFound('No reference inventory has been generated yet.');
  const minutes = query.expirationMinutes ?? EXPIRATION_MINUTES.default;
  return {
    status: 200,
    json: {
      fileUrl: await objects.presignedDownloadUrl(current.artifacts.snapshotKey, minutes * 60),
      expiresAt: new Date(runtime.clock.now().getTime() + minutes * 60_000).toISOString(),
      hotelCount: current.hotelCount,
      versionId: current.artifactsId,
    },
  };
};

export const reportDuplicate: Implementation<typeof referenceRoutes.reportDuplicate> = async ({ principal, body }, runtime) => {
  const created = await report(referencePortsOf(runtime), {
    organizationId: principal.organizationId,
    ...body,
    originalHotelId: body.originalHotelId.toLowerCase(),
    duplicateHotelId: body.duplicateHotelId.toLowerCase(),
  });
  return { status: 200, json: duplicateReportView(created) };
};

export const getDuplicateReport: Implementation<typeof referenceRoutes.getDuplicateReport> = async ({ principal, params }, runtime) => {
  const found = await referenceStoreOf(runtime).getReport(params.reportId.toLowerCase());
  // Another organization's report is answered exactly like a missing one.
  if (!found || (found.organizationId !== principal.organizationId && principal.role !== 'admin')) {
    throw notFound(`No duplicate report has the id ${params.reportId}.`);
  }
  return { status: 200, json: duplicateReportView(found) };
};

export const resolveDuplicateReport: Implementation<typeof referenceRoutes.resolveDuplicateReport> = async (
  { principal, params, body },
  runtime,
) => {
  const resolved = await resolve(referencePortsOf(runtime), {
    reportId: params.reportId.toLowerCase(),
    decision: body.decision,
    note: body.note,
    resolvedBy: principal.keyId,
  });
  return { status: 200, json: duplicateReportView(resolved) };
};
