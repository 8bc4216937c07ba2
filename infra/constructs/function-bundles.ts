/**
 * Every function's bundle, made by one esbuild build over all the function files: esbuild reads
 * each module once for all of them, where a build per function read the AWS SDK and the rest again
 * for each of the ninety-odd. Each bundle is whole, nothing shared between them (a Lambda has only
 * its bundle): minified, with its source map, the AWS SDK inside, CommonJS for Node.js 22.
 *
 * The build runs at the first function whose asset CDK bundles, into a folder of the process's own;
 * each function's asset then takes its folder's files, which CDK hashes and stages as usual. A
 * stack whose bundling is skipped (the infrastructure tests) builds nothing.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { buildSync } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FUNCTIONS_DIR = join(ROOT, 'functions');

/** Every function file under functions/, as its handler name: `mapping-jobs/chunk`, `webhooks/subscriptions/create`. */
function handlers(): string[] {
  return readdirSync(FUNCTIONS_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.slice(0, -'.ts'.length).split(sep).join('/'));
}

let built: string | undefined;

/** The folder of every function's bundle (`<handler>/index.js` and its map), built once per process. */
function bundlesFolder(): string {
  if (built) return built;
  const outdir = mkdtempSync(join(tmpdir(), 'hotel-mapping-bundles-'));
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  buildBundles(handlers(), outdir);
  built = outdir;
  return outdir;
}

/** The bundles of the functions of `handlerNames`, as Lambda runs them, into `outdir` (`<handler>/index.js`). */
export function buildBundles(handlerNames: readonly string[], outdir: string): void {
  buildSync({
    entryPoints: Object.fromEntries(handlerNames.map((handler) => [`${handler}/index`, join(FUNCTIONS_DIR, `${handler}.ts`)])),
    outdir,
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    minify: true,
    sourcemap: true,
    // Prefer a package's ES module build: esbuild follows its static imports into the bundle, where
    // a UMD build's requires inside its factory are left for run time, when no node_modules exist.
    mainFields: ['module', 'main'],
    // Native addons a package only tries (ssh2's crypto binding and cpu-features, each in a
    // try/catch with a JavaScript fallback) stay out: Lambda runs the fallback.
    external: ['*.node', 'cpu-features'],
    logLevel: 'warning',
    // A module that reads import.meta reads __dirname first where it is bundled (shared/console/endpoints.ts).
    logOverride: { 'empty-import-meta': 'silent' },
  });
}

/** The guides' Markdown, as shared/docs/guide-pages.ts finds it in Lambda. */
const shipGuides = (outputDir: string) => copyFilesInto(join(ROOT, 'docs', 'guides'), /\.md$/, join(outputDir, 'guides'));

/** Functions that serve files from beside their bundle: the files, copied there. */
const FILES_BESIDE: Record<string, (outputDir: string) => void> = {
  // swagger-ui's files, and the docs' own (guides.css, swagger-init.js), as shared/docs/endpoints.ts finds them in Lambda.
  'docs/asset': (outputDir) => {
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css'])
      copyFileSync(join(ROOT, 'node_modules', 'swagger-ui-dist', file), join(outputDir, file));
    copyFilesInto(join(ROOT, 'shared', 'docs', 'page'), /\.(js|css)$/, join(outputDir, 'docs'));
  },
  // Each guide's page, and the index of them all (their titles and sections).
  'docs/guide': shipGuides,
  'docs/guides': shipGuides,
  // The review console's page files, as shared/console/endpoints.ts finds them in Lambda.
  'console/asset': (outputDir) => copyFilesInto(join(ROOT, 'shared', 'console', 'page'), /\.(js|css)$/, join(outputDir, 'console')),
};

/** The files of `folder` whose names match, into the new folder `into`. */
function copyFilesInto(folder: string, names: RegExp, into: string): void {
  mkdirSync(into);
  for (const file of readdirSync(folder).filter((name) => names.test(name))) copyFileSync(join(folder, file), join(into, file));
}

/** The code of the function of `handler`: its bundle (and the files it serves), as an asset. */
export function functionCode(handler: string): lambda.Code {
  if (!existsSync(join(FUNCTIONS_DIR, `${handler}.ts`))) throw new Error(`No function file functions/${handler}.ts.`);
  return lambda.Code.fromAsset(FUNCTIONS_DIR, {
    // The bundle's own bytes name the asset: a change anywhere it reaches deploys it, and nothing else does.
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: the local build always answers.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      // Names the handler: CDK keeps one staging per set of bundling options.
      command: ['bundle', handler],
      local: {
        tryBundle(outputDir) {
          cpSync(join(bundlesFolder(), handler), outputDir, { recursive: true });
          FILES_BESIDE[handler]?.(outputDir);
          return true;
        },
      },
    },
  });
}
