/**
 * One `npm start` per state folder. The running one records its own process and the stand-ins it
 * spawned (DynamoDB Local is a separate Java process, which outlives a killed parent); the next
 * start refuses to run beside a live one, and stops a crashed run's orphaned stand-ins before it
 * starts its own on the same data.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

interface Recorded {
  owner: number;
  standIns: number[];
}

/** npm start cannot run: said in one line, without a stack. */
export class StartRefused extends Error {}

export interface StateFolderLock {
  /** Records a stand-in process as soon as it is spawned. */
  recordStandIn(pid: number): void;
  release(): void;
}

/** What a recorded process runs, so a reused process id is never mistaken for ours. */
const OWNER_COMMAND = /infra\/local\/start/;
const STAND_IN_COMMAND = /DynamoDBLocal/;

export async function lockStateFolder(file: string, folder: string): Promise<StateFolderLock> {
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Recorded) : undefined;
  if (previous && previous.owner !== process.pid && runs(previous.owner, OWNER_COMMAND)) {
    throw new StartRefused(
      `npm start is already running on ${folder} (process ${previous.owner}). Stop it first, or set LOCAL_STATE_DIR to run a second one.`,
    );
  }
  for (const pid of previous?.standIns ?? []) {
    if (!runs(pid, STAND_IN_COMMAND)) continue;
    process.stdout.write(`Stopping DynamoDB Local left running by a stopped npm start (process ${pid}).\n`);
    await stop(pid);
  }
  const recorded: Recorded = { owner: process.pid, standIns: [] };
  const write = () => writeFileSync(file, `${JSON.stringify(recorded)}\n`);
  write();
  return {
    recordStandIn(pid) {
      recorded.standIns.push(pid);
      write();
    },
    release: () => rmSync(file, { force: true }),
  };
}

function runs(pid: number, command: RegExp): boolean {
  try {
    process.kill(pid, 0);
    return command.test(execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }));
  } catch {
    return false;
  }
}

async function stop(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 5_000; waited += 100) {
    await sleep(100);
    if (!runs(pid, STAND_IN_COMMAND)) return;
  }
  process.kill(pid, 'SIGKILL');
}
