/** Where `npm start` keeps its state, and the files other tools read from it. */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `.local/` at the project root; LOCAL_STATE_DIR moves it (the benchmarks use a scratch folder). */
export const LOCAL_STATE_DIR = resolve(process.env.LOCAL_STATE_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.local'));
export const CREDENTIALS_FILE = join(LOCAL_STATE_DIR, 'credentials.json');
/** Where the running stand-ins are, for `npm run admin`; removed when `npm start` stops. */
export const STACK_FILE = join(LOCAL_STATE_DIR, 'stack.json');
/** The running npm start and the stand-ins it spawned (state-folder-lock.ts). */
export const PROCESSES_FILE = join(LOCAL_STATE_DIR, 'processes.json');
/** Queue messages waiting, delayed or in flight (message-folder.ts). */
export const QUEUES_DIR = join(LOCAL_STATE_DIR, 'queues');
/** How far the outbox relay has read the table's stream (table-stream.ts). */
export const STREAM_POSITION_FILE = join(LOCAL_STATE_DIR, 'stream-position.json');
