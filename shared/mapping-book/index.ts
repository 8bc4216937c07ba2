/** The mapping book: each organization's living mapping, written by jobs and people, read with its change feed. */
export {
  applyDecision,
  applyJobRow,
  applyRemoval,
  applyWithdrawal,
  CHANGE_KINDS,
  engineAnswer,
  ENTRY_METHODS,
  ENTRY_STATUSES,
  materialChange,
  OWN_SOURCE,
  type BookEntry,
  type ClaimedAway,
  type EngineAnswer,
  type ChangeKind,
  type EngineCause,
  type JobRow,
  type PartnerFacts,
  type StandingDecision,
  type Withdrawal,
} from './entries';
export { abandonJobWrite, jobWriteStatus, startJobWrite, writeJobRange, type JobRowsSource, type JobWriteStatus } from './job-writes';
export type { BookPorts } from './ports';
export {
  currentAnswers,
  currentEntries,
  decideEntries,
  decideEntry,
  DECISIONS_PER_COMMIT,
  heldEngineAnswers,
  recordingOutcomes,
  type EntryDecision,
  type EntryId,
} from './book';
export { recordingWrite, type RecordingRequest } from './recording';
export { SNAPSHOT_BLOCK_ENTRIES, type EntryAnswer } from './snapshot';
export { bookPorts } from './services';
export {
  BOOK_CHANGES_PREFIX,
  BOOK_DERIVED_PREFIX,
  BOOK_EXPORTS_PREFIX,
  BOOK_FILES_PREFIX,
  CHANGES_RETENTION_DAYS,
  EXPORT_KEPT_DAYS,
} from './files';
export { mappingBookRoutes } from './routes';
export {
  countBookChanges,
  exportMappingBook,
  getBookEntry,
  getMappingBook,
  listBookChanges,
  listBookEntries,
  reviewBookEntry,
} from './endpoints';
export { expectedDecidedAt, mappingBookComponentSchemas, PartnerFacts as PartnerFactsSchema } from './schemas';
export { mappingBookExportQueue, mappingBookFollowQueue, mappingBookRecordQueue, referenceChangeQueue } from './queues';
export { announceReferencePublication, followReferencePublication, prepareMappingBookExport, recordFoundMatches } from './workers';
