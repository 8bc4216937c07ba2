/**
 * A module of this command on a worker thread, and its answers. The worker is started through tsx
 * when the module is TypeScript (a worker does not inherit the loader hooks that let the command
 * run from source); the module tells it is on its worker by the workerData it is given.
 */
import { Worker } from 'node:worker_threads';

export function startModuleWorker(moduleUrl: string, workerData: unknown): Worker {
  const source = /\.[cm]?ts$/.test(new URL(moduleUrl).pathname)
    ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl)}); });`
    : `import(${JSON.stringify(moduleUrl)});`;
  return new Worker(source, { eval: true, workerData });
}

/**
 * A worker's messages one at a time: each `nextMessage` is answered by its next message, or
 * rejected (with why) once the worker can no longer send one: it threw, stopped, or sent a message
 * that could not be read.
 */
export class WorkerAnswers {
  /** Why the worker can no longer answer, once it cannot. */
  private unusable: string | undefined;
  /** The requests waiting for an answer, to fail when it cannot come. */
  private readonly waiting = new Set<(reason: string) => void>();

  constructor(readonly worker: Worker) {
    worker.on('error', (error) => this.fail(error.message));
    worker.on('messageerror', (error) => this.fail(`a message from the worker could not be read (${error.message})`));
    worker.on('exit', (code) => this.fail(`the worker stopped (exit code ${code})`));
  }

  /** The worker's next message; rejected when the worker can no longer send one. */
  nextMessage<T>(): Promise<T> {
    return new Promise((resolve, reject) => {
      if (this.unusable !== undefined) {
        reject(new Error(this.unusable));
        return;
      }
      const settle = () => {
        this.worker.off('message', onMessage);
        this.waiting.delete(onFailure);
      };
      const onMessage = (message: T) => {
        settle();
        resolve(message);
      };
      const onFailure = (reason: string) => {
        settle();
        reject(new Error(reason));
      };
      this.worker.on('message', onMessage);
      this.waiting.add(onFailure);
    });
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  private fail(reason: string): void {
    this.unusable ??= reason;
    for (const onFailure of [...this.waiting]) onFailure(this.unusable);
  }
}
