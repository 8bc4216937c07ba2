/**
 * What every handler and worker runs in: the configuration and the clock, and the services built
 * from them on first use. A service is built once per runtime (once per Lambda container; once per
 * local API or test) and a function builds only the services its code asks for, so a function that
 * never touches the table neither bundles nor configures a DynamoDB client.
 *
 * The local runtime and the tests make their own runtime over the stand-ins, with their own clock:
 * every service then works against those.
 */
import { loadConfig, type AppConfig } from './config';
import { systemClock, type Clock } from './clock';
import type { Messaging } from './queue/queue';

export interface Runtime {
  readonly config: AppConfig;
  readonly clock: Clock;
  /** In-process queues and scheduler (local runtime, tests); SQS and EventBridge Scheduler when absent. */
  readonly messaging?: Messaging;
}

export function createRuntime(config: AppConfig, options: { clock?: Clock; messaging?: Messaging } = {}): Runtime {
  return { config, clock: options.clock ?? systemClock, messaging: options.messaging };
}

let lambdaRuntime: Runtime | undefined;

/** The Lambda container's runtime, from its environment, made on first request. */
export function environmentRuntime(): Runtime {
  return (lambdaRuntime ??= createRuntime(loadConfig()));
}

/** A service of the runtime: `build` runs on first use and its result is kept with the runtime. */
export function service<T>(build: (runtime: Runtime) => T): (runtime: Runtime) => T {
  const built = new WeakMap<Runtime, T>();
  return (runtime) => {
    if (!built.has(runtime)) built.set(runtime, build(runtime));
    return built.get(runtime)!;
  };
}
