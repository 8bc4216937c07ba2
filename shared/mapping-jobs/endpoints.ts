/** The mapping job endpoints: create, list, status, results, review, export and the default mode. */
import { exportFormatStoreOf } from '../export-format';
import { bookPorts, jobWriteStatus } from '../mapping-book';
import { inventoryStoreOf } from '../partner-inventories';
import { invalidInput, notFound } from '../platform/errors';
import type { Implementation } from '../platform/http/endpoint';
import { requestReceipt } from '../platform/http/idempotency';
import type { Runtime } from '../platform/runtime';
import { requestExport } from './export-preparation';
import { refuseExpiredResults, type MappingJob } from './job';
import { cancelJob, createMappingJob as create } from './lifecycle';
import { queryCountedChunks, queryResults, searchResults } from './results';
import { answerSearchOf } from '../mapping';
import { reviewResult, reviewResults } from './review';
import { findMatches } from './find-match';
import { mappingJobRoutes } from './routes';
import {
  chunkResultsOf,
  endingPorts,
  currentReference,
  exportPorts,
  findMatchPorts,
  jobPorts,
  leasePorts,
  resultViewsOf,
  reviewPorts,
  supplierLookup,
} from './services';
import { holdRows, LEASE_SECONDS, leaveRows } from './leases';
import { mappingJobStoreOf } from './store';
import { connectedSupplierCodes } from '../suppliers';
import { decidedRowView, jobView, refusedRowView, resultView } from './views';

export const createMappingJob: Implementation<typeof mappingJobRoutes.createMappingJob> = async ({ principal, body }, runtime) => {
  const organizationId = principal.organizationId;
  const partnerInventoryId = body.partnerInventoryId.toLowerCase();
  const [inventory, defaultMode, reference] = await Promise.all([
    inventoryStoreOf(runtime).get(organizationId, partnerInventoryId),
    mappingJobStoreOf(runtime).defaultMode(organizationId),
    currentReference(runtime),
  ]);
  const job = await create(jobPorts(runtime), {
    organizationId,
    inventory,
    partnerInventoryId,
    requestedMode: body.mode,
    defaultMode,
    reference,
    suppliers: supplierLookup(runtime),
    partial: body.partial,
    name: body.name,
  });
  return {
    status: 201,
    json: {
      mappingJobId: job.id,
      name: job.name ?? null,
      partnerInventoryId: job.partnerInventoryId,
      status: 'PENDING',
      mode: job.mode,
      createdAt: job.createdAt,
    },
  };
};

export const listMappingJobs: Implementation<typeof mappingJobRoutes.listMappingJobs> = async ({ principal, query }, runtime) => {
  const page = await mappingJobStoreOf(runtime).list(principal.organizationId, query.limit ?? 20, query.cursor);
  return { status: 200, json: { jobs: page.items.map(jobView), nextCursor: page.nextCursor } };
};

export const getMappingJob: Implementation<typeof mappingJobRoutes.getMappingJob> = async ({ principal, params }, runtime) => {
  const job = await requireJob(runtime, principal.organizationId, params.jobId);
  const bookWrite = job.status === 'COMPLETED' ? await jobWriteStatus(bookPorts(runtime), job.organizationId, job.id) : undefined;
  return { status: 200, json: { ...jobView(job), ...(bookWrite && { bookWrite }) } };
};

export const cancelMappingJob: Implementation<typeof mappingJobRoutes.cancelMappingJob> = async ({ principal, params }, runtime) => {
  const job = await requireJob(runtime, principal.organizationId, params.jobId);
  return { status: 200, json: jobView(await cancelJob(endingPorts(runtime), job)) };
};

export const listMappingResults: Implementation<typeof mappingJobRoutes.listMappingResults> = async (
  { principal, params, query },
  runtime,
) => {
  const { limit = 100, cursor, name, city, country, referenceHotelId, supplier, ...filter } = query;
  const [job, connected] = await Promise.all([
    requireJob(runtime, principal.organizationId, params.jobId),
    connectedSupplierCodes(runtime, principal.organizationId),
  ]);
  refuseExpiredResults(job, runtime.clock.now());
  const search = answerSearchOf({ name, city, country, referenceHotelId, supplier }, connected);
  if (search && filter.order) throw invalidInput('order: a search lists rows in partner id order; leave order out, or search without it.');
  const completed = job.status === 'COMPLETED';
  const page = !search
    ? completed
      ? await queryResults(resultViewsOf(runtime, job), job.id, filter, limit, cursor)
      : await queryCountedChunks(chunkResultsOf(runtime, job), job, filter, limit, cursor)
    : completed
      ? await searchResults(
          resultViewsOf(runtime, job),
          () => mappingJobStoreOf(runtime).decisions(job.id),
          { ...search, partnerHotelId: filter.partnerHotelId },
          filter,
          limit,
          cursor,
        )
      : await queryCountedChunks(chunkResultsOf(runtime, job), job, filter, limit, cursor, search);
  return {
    status: 200,
    json: {
      results: page.results.map((result) => resultView(result, connected)),
      nextCursor: page.nextCursor,
      ...(page.total !== undefined && { total: page.total }),
    },
  };
};

export const reviewMappingResult: Implementation<typeof mappingJobRoutes.reviewMappingResult> = async (
  { principal, params, body },
  runtime,
) => {
  const job = await requireJob(runtime, principal.organizationId, params.jobId);
  refuseExpiredResults(job, runtime.clock.now());
  const updated = await reviewResult(reviewPorts(runtime), { job, ...body, decidedBy: principal.keyId });
  return { status: 200, json: resultView(updated, await connectedSupplierCodes(runtime, principal.organizationId)) };
};

export const reviewMappingResults: Implementation<typeof mappingJobRoutes.reviewMappingResults> = async (
  { principal, params, body },
  runtime,
) => {
  const job = await requireJob(runtime, principal.organizationId, params.jobId);
  refuseExpiredResults(job, runtime.clock.now());
  const outcome = await reviewResults(reviewPorts(runtime), {
    job,
    decisions: body.decisions,
    decidedBy: principal.keyId,
    leaseHolder: body.leaseHolder,
  });
  return { status: 200, json: { decided: outcome.decided.map(decidedRowView), refused: outcome.refused.map(refusedRowView) } };
};

export const leaseMappingResults: Implementation<typeof mappingJobRoutes.leaseMappingResults> = async (
  { principal, params, body },
  runtime,
) => {
  const job = await requireJob(runtime, principal.organizationId, params.jobId);
  refuseExpiredResults(job, runtime.clock.now());
  return {
    status: 200,
    json: await holdRows(leasePorts(runtime), job, params.holder, body.partnerHotelIds, body.seconds ?? LEASE_SECONDS.default),
  };
};

export const leaveMappingResults: Implementation<typeof mappingJobRoutes.leaveMappingResults> = async ({ principal, params }, runtime) => {
  await leaveRows(leasePorts(runtime), await requireJob(runtime, principal.organizationId, params.jobId), params.holder);
  return { status: 204 };
};

export const findMatch: Implementation<typeof mappingJobRoutes.findMatch> = async (request, runtime) => {
  const { principal, body } = request;
  const [answer, connected] = await Promise.all([
    findMatches(findMatchPorts(runtime), {
      organizationId: principal.organizationId,
      hotels: body.hotels,
      requestedMode: body.mode,
      supplierCode: body.supplierCode,
      view: body.view ?? 'BOOK',
      record: body.record ?? false,
      requestedBy: principal.keyId,
      requestId: request.requestId,
      receiptId: requestReceipt(mappingJobRoutes.findMatch, request),
    }),
    connectedSupplierCodes(runtime, principal.organizationId),
  ]);
  const results = answer.results.map(({ index, ...result }) =>
    result.status === 'REJECTED' ? { index, ...result } : { index, from: result.from, ...resultView(result, connected) },
  );
  return { status: 200, json: { mode: answer.mode, referenceVersionId: answer.referenceVersionId, charged: answer.charged, results } };
};

export const exportMappingResults: Implementation<typeof mappingJobRoutes.exportMappingResults> = async (
  { principal, params },
  runtime,
) => {
  const job = await requireJob(runtime, principal.organizationId, params.jobId);
  refuseExpiredResults(job, runtime.clock.now());
  const [saved, connected] = await Promise.all([
    exportFormatStoreOf(runtime).get(principal.organizationId),
    connectedSupplierCodes(runtime, principal.organizationId),
  ]);
  const answer = await requestExport(exportPorts(runtime), job, saved, connected);
  if (answer.status === 200) return { status: 200, json: answer.file };
  return { status: 202, json: answer.preparing, headers: { 'retry-after': String(answer.retryAfterSeconds) } };
};

export const getMappingPreferences: Implementation<typeof mappingJobRoutes.getMappingPreferences> = async ({ principal }, runtime) => ({
  status: 200,
  json: { defaultMode: (await mappingJobStoreOf(runtime).defaultMode(principal.organizationId)) ?? 'STANDARD' },
});

export const putMappingPreferences: Implementation<typeof mappingJobRoutes.putMappingPreferences> = async (
  { principal, body },
  runtime,
) => {
  await mappingJobStoreOf(runtime).setDefaultMode(principal.organizationId, body.defaultMode, runtime.clock.now().toISOString());
  return { status: 200, json: { defaultMode: body.defaultMode } };
};

async function requireJob(runtime: Runtime, organizationId: string, jobId: string): Promise<MappingJob> {
  const job = await mappingJobStoreOf(runtime).get(organizationId, jobId.toLowerCase());
  if (!job) throw notFound(`Your organization has no mapping job ${jobId}.`);
  return job;
}
