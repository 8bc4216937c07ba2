/** The book's ports, as each function builds them from its runtime. */
import { exportFormatStoreOf } from '../export-format';
import { connectedSupplierCodes } from '../suppliers';
import { fileReadsOf, objectStoreOf, resultObjectStoreOf } from '../platform/objects/services';
import { queueOf } from '../platform/queue/services';
import { service, type Runtime } from '../platform/runtime';
import { tableOf } from '../platform/table';
import { ChangeLog } from './change-log';
import type { ExportPorts } from './exports';
import type { BookPorts } from './ports';
import { BookFiles } from './book-files';
import { mappingBookExportQueue, mappingBookFollowQueue } from './queues';
import { snapshotKept } from './snapshot';
import { BookStore } from './store';

/** One per runtime: it remembers, for a while, which books have many laid-over entries. */
const bookStoreOf = /* @__PURE__ */ service((runtime) => new BookStore(tableOf(runtime), runtime.clock));

/** One per runtime: what a function keeps of the book's files across its requests. */
const snapshotKeptOf = /* @__PURE__ */ service((runtime) => snapshotKept(fileReadsOf(runtime)));

export function bookPorts(runtime: Runtime): BookPorts {
  // Each store is built on first use: a function reaches only the buckets its work reads (reading a
  // job's book write state needs the table alone). The book is the organization's record: kept (and
  // backed up) with its files; its feed lives a month, and what its files say twice for listings and
  // searches is made again when lost: both with results.
  return {
    store: bookStoreOf(runtime),
    get log() {
      return new ChangeLog(tableOf(runtime), resultObjectStoreOf(runtime), () => runtime.clock.now(), fileReadsOf(runtime));
    },
    get files() {
      return new BookFiles(objectStoreOf(runtime), () => resultObjectStoreOf(runtime));
    },
    get feedFiles() {
      return resultObjectStoreOf(runtime);
    },
    kept: snapshotKeptOf(runtime),
    clock: runtime.clock,
    // Built on first use: only the functions that send to it have its address.
    get follows() {
      return queueOf(runtime, mappingBookFollowQueue);
    },
  };
}

export function exportPorts(runtime: Runtime): ExportPorts {
  // Not spread: the book's ports build their follows queue when read, and an export sends to none.
  const { store, files, log, kept, clock } = bookPorts(runtime);
  return {
    store,
    files,
    log,
    kept,
    clock,
    exportFormat: (organizationId) => exportFormatStoreOf(runtime).get(organizationId),
    connectedSuppliers: (organizationId) => connectedSupplierCodes(runtime, organizationId),
    exportFiles: resultObjectStoreOf(runtime),
    exports: queueOf(runtime, mappingBookExportQueue),
  };
}
