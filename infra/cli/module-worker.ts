/**
 * Starts a module of this command on a worker thread, through tsx when it is TypeScript: a worker
 * does not inherit the loader hooks that let the command run from source. The module tells it is
 * on its worker by the workerData it is given.
 */
import { Worker } from 'node:worker_threads';

export function startModuleWorker(moduleUrl: string, workerData: unknown): Worker {
  const source = /\.[cm]?ts$/.test(new URL(moduleUrl).pathname)
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl)}); });`
    : `import(${JSON.stringify(moduleUrl)});`;
  return new Worker(source, { eval: true, workerData });
}
