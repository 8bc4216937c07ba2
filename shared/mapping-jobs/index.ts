/** Mapping jobs: a partner inventory mapped asynchronously, its results reviewed and exported. */
export { mappingJobRoutes } from './routes';
export {
  cancelMappingJob,
  createMappingJob,
  exportMappingResults,
  findMatch,
  getMappingJob,
  getMappingPreferences,
  listMappingJobs,
  listMappingResults,
  putMappingPreferences,
  reviewMappingResult,
  reviewMappingResults,
  leaseMappingResults,
  leaveMappingResults,
} from './endpoints';
export { mappingBookWriteQueue, mappingChunkQueue, mappingDeadlineQueue, mappingExportQueue } from './queues';
export {
  abandonMappingExport,
  failJobOfDeadChunk,
  failOverdueJob,
  mapJobChunk,
  prepareMappingExport,
  writeJobIntoBook,
  abandonJobBookWrite,
} from './workers';
export { mappingJobStoreOf } from './store';
export { JOB_RESULTS_PREFIX, RESULTS_RETENTION_DAYS } from './job';
export { JOB_METRICS } from './lifecycle';
export { FIND_MATCH_MIN_CHARGE, findMatchCharge } from './find-match';
export { mappingJobComponentSchemas } from './schemas';
