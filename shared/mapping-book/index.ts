/** The mapping book: each organization's living mapping, written by jobs and people, read with its change feed. */
export {
  applyDecision,
  applyJobRow,
  applyRemoval,
  CHANGE_KINDS,
  ENTRY_METHODS,
  ENTRY_STATUSES,
  materialChange,
  OWN_SOURCE,
  type BookEntry,
  type ChangeKind,
  type JobRow,
  type PartnerFacts,
  type StandingDecision,
} from './entries';
