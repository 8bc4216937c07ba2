/** The ports the job rules work through, as each function builds them from its runtime. */
import { randomUUID } from 'node:crypto';
import { meteringOf } from '../billing';
import { readInventoryChunk } from '../partner-inventories';
import { ReadCache } from '../platform/objects/block-files';
import { fileReadsOf, objectStoreOf, resultObjectStoreOf } from '../platform/objects/services';
import { queueOf, schedulerOf } from '../platform/queue/services';
import { service, type Runtime } from '../platform/runtime';
import { referenceHotelShown, referenceStoreOf } from '../reference';
import { connectedSupplierCodes, supplierStoreOf } from '../suppliers';
import { exportFormatStoreOf } from '../export-format';
import { deliversFiles, fileDeliveryStartPorts, startFileDeliveries } from '../file-deliveries';
import { receivesEvent } from '../webhooks';
import type { CompletionPorts } from './completion';
import { EXPORT_SETTINGS, EXPORT_SYNC_MAX_ROWS, type PreparationPorts } from './export-preparation';
import { exportStoreOf } from './export-store';
import type { ChunkPorts, JobPorts, SupplierLookup } from './lifecycle';
import { matchingIndexesOf } from '../reference';
import { mappingBookWriteQueue, mappingChunkQueue, mappingExportQueue } from './queues';
import { bookPorts, currentAnswers, currentEntries, heldEngineAnswers, recordingWrite } from '../mapping-book';
import { tableOf } from '../platform/table';
import type { FindMatchPorts } from './find-match';
import { commitDecisions, jobRowsSource, type BookWritePorts } from './book-writes';
import type { MappingJob, PinnedReference, StoredResult } from './job';
import { ResultViews, SEARCH_PARTS_KEPT, type ViewReads } from './result-views';
import { readChunkResults, resultsFileBytes, resultsFileText } from './results-files';
import { DEFAULT_FINISHING_SIZES, FINISHING_SETTINGS } from './finishing';
import type { ReviewPorts } from './review';
import { rowLeaseStoreOf } from './lease-store';
import type { LeasePorts } from './leases';
import { mappingJobStoreOf } from './store';

export function jobPorts(runtime: Runtime): JobPorts {
  return {
    jobs: mappingJobStoreOf(runtime),
    metering: meteringOf(runtime),
    chunks: queueOf(runtime, mappingChunkQueue),
    scheduler: schedulerOf(runtime),
    clock: runtime.clock,
    newId: randomUUID,
  };
}

/** A job's chunk results files in the results bucket, stored gzip-compressed. */
function resultsFiles(runtime: Runtime): Pick<ChunkPorts, 'putResultsFile' | 'readResultsFile'> {
  const results = resultObjectStoreOf(runtime);
  return {
    putResultsFile: (key, jsonLines) => results.put(key, resultsFileBytes(jsonLines), 'application/gzip'),
    readResultsFile: async (key) => {
      const file = await results.get(key);
      return file && resultsFileText(file);
    },
  };
}

export function chunkPorts(runtime: Runtime): ChunkPorts {
  const objects = objectStoreOf(runtime);
  return {
    jobs: mappingJobStoreOf(runtime),
    metering: meteringOf(runtime),
    clock: runtime.clock,
    rows: (job, chunk) => readInventoryChunk(objects, { organizationId: job.organizationId, id: job.partnerInventoryId }, chunk),
    index: (job) => matchingIndexesOf(runtime).load(job.reference.matchingIndexKey),
    heldAnswers: (job, ids) => heldEngineAnswers(bookPorts(runtime), job.organizationId, ids),
    ...resultsFiles(runtime),
    views: resultObjectStoreOf(runtime),
    finishing: queueOf(runtime, mappingChunkQueue),
    finishingSizes: finishingSizesOf(runtime),
    bookWrites: queueOf(runtime, mappingBookWriteQueue),
    completionListened: async (organizationId) =>
      (await Promise.all([deliversFiles(runtime, organizationId), receivesEvent(runtime, organizationId, 'MAPPING_COMPLETED')])).some(
        Boolean,
      ),
  };
}

export function completionPorts(runtime: Runtime): CompletionPorts {
  return {
    jobs: mappingJobStoreOf(runtime),
    objects: resultObjectStoreOf(runtime),
    clock: runtime.clock,
    formatOf: async (organizationId) => {
      const [saved, connected] = await Promise.all([
        exportFormatStoreOf(runtime).get(organizationId),
        connectedSupplierCodes(runtime, organizationId),
      ]);
      return { saved, connected };
    },
    startDeliveries: (completed) => startFileDeliveries(fileDeliveryStartPorts(runtime), completed),
  };
}

/** The finishing stage's sizes, as the stage's settings may lower them (tests cut a small job into many parts). */
function finishingSizesOf(runtime: Runtime) {
  const { claimPartRows, viewPartRows } = FINISHING_SETTINGS.read(runtime.config);
  return {
    claimPartRows: claimPartRows ? Number(claimPartRows) : DEFAULT_FINISHING_SIZES.claimPartRows,
    viewPartRows: viewPartRows ? Number(viewPartRows) : DEFAULT_FINISHING_SIZES.viewPartRows,
  };
}

export function bookWritePorts(runtime: Runtime): BookWritePorts {
  return {
    book: bookPorts(runtime),
    queue: queueOf(runtime, mappingBookWriteQueue),
    rowsOf: (job) => jobRowsSource(viewReadsOf(runtime), job),
  };
}

/** One per runtime: the results bucket, and what the function keeps of the views it read across its requests. */
export const viewReadsOf = /* @__PURE__ */ service((runtime): ViewReads => ({
  objects: resultObjectStoreOf(runtime),
  files: fileReadsOf(runtime),
  searchColumns: new ReadCache(SEARCH_PARTS_KEPT),
}));

/** A completed job's results, read through its views and its decisions. */
export function resultViewsOf(runtime: Runtime, job: Pick<MappingJob, 'organizationId' | 'id'>): ResultViews {
  return new ResultViews(viewReadsOf(runtime), mappingJobStoreOf(runtime), job);
}

/** The rows of a counted chunk of a job, from its results file. */
export function chunkResultsOf(
  runtime: Runtime,
  job: Pick<MappingJob, 'organizationId' | 'id'>,
): (chunk: number) => Promise<StoredResult[]> {
  const files = resultsFiles(runtime);
  return async (chunk) => (await readChunkResults(files, job, chunk)).map((result) => ({ ...result, chunk }));
}

/** What ending a job early (failing or cancelling it) needs. */
export function endingPorts(runtime: Runtime): Pick<ChunkPorts, 'jobs' | 'metering' | 'clock'> {
  return { jobs: mappingJobStoreOf(runtime), metering: meteringOf(runtime), clock: runtime.clock };
}

export function reviewPorts(runtime: Runtime): ReviewPorts {
  return {
    jobs: {
      commit: (job, decisions, leaseHolder) =>
        commitDecisions(
          { book: bookPorts(runtime), jobs: mappingJobStoreOf(runtime), leases: rowLeaseStoreOf(runtime) },
          job,
          decisions,
          leaseHolder,
        ),
    },
    resultOf: (job, partnerHotelId) => resultViewsOf(runtime, job).getResult(job.id, partnerHotelId),
    engineResultOf: (job, partnerHotelId) => resultViewsOf(runtime, job).getEngineResult(partnerHotelId),
    clock: runtime.clock,
    newId: randomUUID,
    referenceHotel: (referenceHotelId) => referenceHotelShown(runtime, referenceHotelId),
  };
}

export function leasePorts(runtime: Runtime): LeasePorts {
  const jobs = mappingJobStoreOf(runtime);
  return {
    leases: rowLeaseStoreOf(runtime),
    decidedAt: async (job, partnerHotelIds) =>
      (await jobs.decisionsOf(job.id, partnerHotelIds)).map((decision) => decision?.review?.decidedAt ?? null),
    clock: runtime.clock,
  };
}

export function findMatchPorts(runtime: Runtime): FindMatchPorts {
  return {
    metering: meteringOf(runtime),
    currentReference: () => currentReference(runtime),
    defaultMode: (organizationId) => mappingJobStoreOf(runtime).defaultMode(organizationId),
    index: (reference) => matchingIndexesOf(runtime).load(reference.matchingIndexKey),
    suppliers: supplierLookup(runtime),
    bookEntries: (organizationId, ids) => currentAnswers(bookPorts(runtime), organizationId, ids),
    currentEntries: (organizationId, ids) => currentEntries(bookPorts(runtime), organizationId, ids),
    recordingWrite: (request, rows) => recordingWrite(tableOf(runtime), request, rows),
    clock: runtime.clock,
  };
}

export function exportPorts(runtime: Runtime): PreparationPorts {
  return {
    jobs: mappingJobStoreOf(runtime),
    exports: exportStoreOf(runtime),
    objects: resultObjectStoreOf(runtime),
    queue: queueOf(runtime, mappingExportQueue),
    clock: runtime.clock,
    newId: randomUUID,
    syncMaxRows: exportSyncMaxRows(runtime),
  };
}

function exportSyncMaxRows(runtime: Runtime): number {
  const setting = EXPORT_SETTINGS.read(runtime.config).syncMaxRows;
  if (setting === undefined) return EXPORT_SYNC_MAX_ROWS;
  if (!/^\d+$/.test(setting)) throw new Error(`${EXPORT_SETTINGS.variables.syncMaxRows} must be a whole number of rows, not "${setting}".`);
  return Number(setting);
}

/** The connected, active supplier of a code, from the suppliers capability. */
export function supplierLookup(runtime: Runtime): SupplierLookup {
  const suppliers = supplierStoreOf(runtime);
  return {
    async connectedSupplier(organizationId, code) {
      const supplier = (await suppliers.listCatalogue()).find((candidate) => candidate.code === code);
      if (!supplier) return 'unknown';
      if (!supplier.isActive) return 'inactive';
      if (!(await suppliers.getConnection(organizationId, supplier.id))) return 'not_connected';
      return { id: supplier.id, code: supplier.code, name: supplier.name };
    },
  };
}

/** The current publication, if it has a matching index to pin. */
export async function currentReference(runtime: Runtime): Promise<PinnedReference | undefined> {
  const current = await referenceStoreOf(runtime).getCurrent();
  if (!current?.artifacts.matchingIndexKey) return undefined;
  return {
    artifactsId: current.artifactsId,
    dataVersionId: current.dataVersionId,
    matchingIndexKey: current.artifacts.matchingIndexKey,
    ...(current.number !== undefined && { number: current.number }),
  };
}
