/** What the book's use cases need from outside: its store, its feed, its files (and what is kept of them), the follows' queue and the clock. */
import type { Clock } from '../platform/clock';
import type { ObjectStore } from '../platform/objects/object-store';
import type { Queue } from '../platform/queue/queue';
import type { ChangeCounts, ChangeLog } from './change-log';
import type { SnapshotKept } from './snapshot';
import type { BookStore } from './store';

/** A follow of a reference publication by one book, as its queue carries it. */
export interface FollowMessage {
  organizationId: string;
  referenceVersionId: string;
  /** Entries up to this key are done (a follow taken on over several deliveries). */
  after?: string;
  /** A catch-up of entries a job mapped against this earlier publication: the changes since it (the book follows the target already). */
  since?: string;
  /** The sequence of the follow's first commit, and what the commits so far counted. */
  from?: number;
  counts?: ChangeCounts;
}

export interface BookPorts {
  store: BookStore;
  log: ChangeLog;
  /** Where a job mapped against an earlier publication than the book follows is brought up to it. */
  readonly follows: Pick<Queue<FollowMessage>, 'send' | 'sendAll'>;
  /** The generations' files (the files bucket). */
  files: Pick<ObjectStore, 'get' | 'put' | 'delete' | 'expireLater' | 'size'>;
  /** The feed's files (the results bucket). */
  feedFiles: Pick<ObjectStore, 'get' | 'put'>;
  /** What the function keeps of the files it read (the generations' and the feed's), across its requests. */
  kept: SnapshotKept;
  clock: Clock;
}
