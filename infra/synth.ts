/**
 * Runs a real `cdk synth` (with esbuild bundling, no Docker, and without the caller's AWS
 * credentials) into a folder and tells where each function's bundle landed: every route's and
 * every queue worker's. Used by the synth test and the bundle-size benchmark.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { functionName } from '../shared/platform/http/route';
import { queueList } from '../shared/queues';
import { routeList } from '../shared/routes';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface SynthesizedFunction {
  /** The function file under functions/, without extension. */
  handler: string;
  /** The bundle folder (what is zipped and uploaded). */
  assetDir: string;
  /** Its environment variables; one resolved only at deploy time (a table's name, a key's ARN) reads `<deploy-time>`. */
  environment: Record<string, string>;
}

/** Where AWS credentials would come from: a synth must not need them. */
const CREDENTIAL_VARIABLES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE'];

export async function synthesize(outDir: string, stage = 'synth'): Promise<SynthesizedFunction[]> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CREDENTIAL_VARIABLES.includes(name)));
  await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '-c', `stage=${stage}`, '-o', outDir], {
    cwd: ROOT,
    env: { ...env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  // The stack's template and its nested stacks' (the queue workers live in one).
  const resources: Record<
    string,
    { Type: string; Metadata?: Record<string, string>; Properties?: { Environment?: { Variables?: Record<string, unknown> } } }
  > = {};
  for (const file of readdirSync(outDir).filter((name) => name.endsWith('.template.json'))) {
    Object.assign(resources, (JSON.parse(readFileSync(join(outDir, file), 'utf8')) as { Resources: typeof resources }).Resources);
  }
  const handlers = [
    ...routeList.map((route) => route.handler),
    ...queueList.flatMap((queue) => [queue.handler, ...(queue.deadLetterHandler ? [queue.deadLetterHandler] : [])]),
  ];
  return handlers.map((handler) => {
    // A function's logical id is its name (infra/constructs/service-function.ts) plus CDK's hash suffix.
    const pattern = new RegExp(`^${functionName({ handler })}[0-9A-F]{8}$`);
    const [, fn] = Object.entries(resources).find(([id, r]) => r.Type === 'AWS::Lambda::Function' && pattern.test(id)) ?? [];
    const assetPath = fn?.Metadata?.['aws:asset:path'];
    if (!assetPath) throw new Error(`No bundled function for ${handler}`);
    const variables = Object.entries(fn?.Properties?.Environment?.Variables ?? {});
    const environment = Object.fromEntries(variables.map(([name, value]) => [name, typeof value === 'string' ? value : '<deploy-time>']));
    return { handler, assetDir: join(outDir, assetPath), environment };
  });
}
