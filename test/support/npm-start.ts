/** `npm start` as a child process in a jest test: every one started is stopped when the file's tests end. */
import type { ChildProcess } from 'node:child_process';
import { afterAll } from '@jest/globals';
import { startLocalApiProcess, type Started } from './local-api-process';

export { killHard, ROOT, stopGracefully, type Started } from './local-api-process';

const running = new Set<ChildProcess>();
afterAll(() => running.forEach((child) => child.kill('SIGINT')));

export async function npmStart(stateDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<Started> {
  const started = await startLocalApiProcess(stateDir, args, env);
  running.add(started.child);
  started.child.once('exit', () => running.delete(started.child));
  return started;
}
