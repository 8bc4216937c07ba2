/** The book's ports, as each function builds them from its runtime. */
import { resultObjectStoreOf } from '../platform/objects/services';
import type { Runtime } from '../platform/runtime';
import { tableOf } from '../platform/table';
import { ChangeLog } from './change-log';
import type { BookPorts } from './job-writes';
import { BookStore } from './store';

export function bookPorts(runtime: Runtime): BookPorts {
  const table = tableOf(runtime);
  const files = resultObjectStoreOf(runtime);
  return { store: new BookStore(table), log: new ChangeLog(table, files, () => runtime.clock.now()), files, clock: runtime.clock };
}
