/**
 * Runs a real `cdk synth` (with esbuild bundling, no Docker, no credentials) into a folder and
 * tells where each route's bundle landed. Used by the synth test and the bundle-size benchmark.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { routeList } from '../shared/routes';
import type { RouteDefinition } from '../shared/platform/http/route';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface SynthesizedFunction {
  route: RouteDefinition;
  /** The bundle folder (what is zipped and uploaded). */
  assetDir: string;
}

export async function synthesize(outDir: string, stage = 'synth'): Promise<SynthesizedFunction[]> {
  await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '-c', `stage=${stage}`, '-o', outDir], {
    cwd: ROOT,
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const template = JSON.parse(readFileSync(join(outDir, `HotelMapping-${stage}.template.json`), 'utf8')) as {
    Resources: Record<string, { Type: string; Properties: { Description?: string }; Metadata?: Record<string, string> }>;
  };
  const functions = Object.values(template.Resources).filter((r) => r.Type === 'AWS::Lambda::Function');
  return routeList.map((route) => {
    const fn = functions.find((f) => f.Properties.Description === `${route.method} ${route.path}`);
    const assetPath = fn?.Metadata?.['aws:asset:path'];
    if (!assetPath) throw new Error(`No bundled function for ${route.method} ${route.path}`);
    return { route, assetDir: join(outDir, assetPath) };
  });
}
