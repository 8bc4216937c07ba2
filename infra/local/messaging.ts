/**
 * The local runtime's queues: in-process, delivering to the same worker functions (functions/)
 * the queue table names, over the same runtime as the HTTP functions. Given a folder, the messages
 * are kept there and a restart resumes them. The table's stream feeds the outbox relay
 * (table-stream.ts), as the stack's stream event source does.
 */
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { systemClock, type Clock } from '../../shared/platform/clock';
import { InProcessMessaging, type QueueConsumer } from '../../shared/platform/queue/in-process';
import type { QueueDefinition } from '../../shared/platform/queue/queue';
import type { WorkerFunction } from '../../shared/platform/queue/worker';
import { createRuntime, type Runtime } from '../../shared/platform/runtime';
import type { AppConfig } from '../../shared/platform/config';
import { withInvocation } from '../../shared/platform/logging';
import { queueList } from '../../shared/queues';
import { EVENT_RELAY, type RelayFunction } from '../../shared/platform/events/relay';
import { messageFolder } from './message-folder';
import { LocalTableStream } from './table-stream';

const FUNCTIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'functions');

export interface LocalRuntimeOptions {
  clock?: Clock;
  queueFolder?: string;
  streamPositionFile?: string;
  /** Sees every invocation of a worker, dead-letter handler or the relay, by function file, and how long it took (bench:cost). */
  onInvocation?: (handler: string, durationMs: number) => void;
}

/** A runtime whose queues and scheduler run in this process. */
export function localRuntime(config: AppConfig, options: LocalRuntimeOptions = {}): { runtime: Runtime; messaging: InProcessMessaging } {
  const { clock, queueFolder, streamPositionFile, onInvocation } = options;
  // Each invocation logs under its own function's name (withInvocation), and is timed when asked.
  const timed =
    <E, R>(handler: string, invoke: (event: E) => Promise<R>) =>
    async (event: E) => {
      const started = performance.now();
      try {
        return await withInvocation({ functionName: handler, requestId: randomUUID() }, () => invoke(event));
      } finally {
        onInvocation?.(handler, performance.now() - started);
      }
    };
  const consumers = new Map<string, Promise<QueueConsumer>>();
  const consumer = (handler: string): Promise<QueueConsumer> => {
    let loaded = consumers.get(handler);
    if (!loaded) {
      loaded = import(pathToFileURL(join(FUNCTIONS_DIR, `${handler}.ts`)).href).then((module: { handler: WorkerFunction }) =>
        timed(handler, module.handler.withRuntime(runtime)),
      );
      consumers.set(handler, loaded);
    }
    return loaded;
  };
  const lookup = async (definition: QueueDefinition) => ({
    worker: await consumer(definition.handler),
    deadLetter: definition.deadLetterHandler ? await consumer(definition.deadLetterHandler) : undefined,
  });
  const messaging = new InProcessMessaging(clock ?? systemClock, lookup, {
    queues: queueList,
    store: queueFolder ? messageFolder(queueFolder) : undefined,
  });
  const runtime = createRuntime(config, { clock, messaging });
  if (config.tableName) {
    const relay = import(pathToFileURL(join(FUNCTIONS_DIR, `${EVENT_RELAY.handler}.ts`)).href).then((module: { handler: RelayFunction }) =>
      timed(EVENT_RELAY.handler, module.handler.withRuntime(runtime)),
    );
    const stream = new LocalTableStream(config, async (event) => (await relay)(event), streamPositionFile);
    messaging.addSource(() => stream.poll());
  }
  return { runtime, messaging };
}
