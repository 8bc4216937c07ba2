/** The local API as a child process over a given state folder, as a newcomer runs `npm start` (no jest: benchmarks use it too). */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../infra/local/stand-ins';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Started {
  child: ChildProcess;
  /** Standard output so far (the banner). */
  output: () => string;
  credentials: { baseUrl: string; organizationId: string; apiKey: string; adminApiKey: string; bearerToken: string };
}

/** Starts the local API (node directly, so a signal reaches the API process itself) and waits for its banner. */
export async function startLocalApiProcess(stateDir: string, args: string[] = [], env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/local/start.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), LOCAL_STATE_DIR: stateDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (errors += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => output.includes('Ctrl-C') && resolve());
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${output}${errors}`)));
  });
  const credentials = JSON.parse(readFileSync(join(stateDir, 'credentials.json'), 'utf8'));
  return { child, output: () => output, credentials };
}

/** Ctrl-C: answers the exit code. */
export function stopGracefully({ child }: Started): Promise<number | null> {
  child.kill('SIGINT');
  return new Promise((resolve) => child.once('exit', resolve));
}

/** SIGKILL: the process dies where it stands, its stand-ins left running. */
export async function killHard({ child }: Started): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** `npm run admin -- <args>` against the local API of a state folder: its JSON answer. */
export function adminCli(stateDir: string, ...args: string[]): Record<string, string> {
  const output = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'infra/cli/admin.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOCAL_STATE_DIR: stateDir },
    encoding: 'utf8',
  });
  return JSON.parse(output) as Record<string, string>;
}
