/**
 * The layout rules of the contributor's guide ("Where does X go?"), checked over the import graph:
 * capabilities use the platform and each other's public entry only; the platform never imports a
 * capability; functions/ holds Lambda entries and nothing else; no import runs in a circle.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from '@jest/globals';
import { EVENT_RELAY } from '../../../shared/platform/events/relay';
import { queueList } from '../../../shared/queues';
import { routeList } from '../../../shared/routes';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SHARED = join(ROOT, 'shared');
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm;

interface Import {
  from: string;
  to: string;
}

function sourceFiles(directory: string): string[] {
  // Spread: arrays made by Node itself fail deepStrictEqual against arrays of the test's realm.
  return [...readdirSync(directory)].flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import of the files, resolved to the file it names. */
function importsOf(files: string[]): Import[] {
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((match) => match[1] ?? match[2] ?? match[3]!)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({ from: relative(ROOT, file), to: relative(ROOT, resolveModule(dirname(file), specifier)) })),
  );
}

function resolveModule(directory: string, specifier: string): string {
  const base = resolve(directory, specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`Cannot resolve ${specifier} from ${directory}`);
}

/** `shared/<capability>/…` -> the capability; the platform and the route table are not capabilities. */
function capabilityOf(path: string): string | undefined {
  const [top, name, ...rest] = path.split(sep);
  return top === 'shared' && name !== 'platform' && rest.length > 0 ? name : undefined;
}

/**
 * Words of the business: each names a capability's concept. The platform's code (comments aside)
 * never says them; OpenAPI 3.1 calls the requests an API sends `webhooks`, so the document builder may.
 */
const BUSINESS_WORDS = /stripe|payment|price|billing|credit|inventor|supplier|webhook|mapping.?job|api.?key.?store/i;
const BUSINESS_WORD_EXEMPTIONS: Readonly<Record<string, RegExp>> = { [join('shared', 'platform', 'http', 'openapi.ts')]: /webhook/i };

/** The code of a file, its comments blanked (line numbers kept). */
function codeOf(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** `file:line: word` for each business word in the platform's code. */
function businessWordsIn(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const exempt = BUSINESS_WORD_EXEMPTIONS[relative(ROOT, file)];
    return codeOf(file)
      .split('\n')
      .flatMap((line, index) => {
        const words = [...line.matchAll(new RegExp(BUSINESS_WORDS, 'gi'))].map(([word]) => word).filter((word) => !exempt?.test(word));
        return words.map((word) => `${relative(ROOT, file)}:${index + 1}: ${word}`);
      });
  });
}

/** The circles of a graph of imports: each strongly connected group of more than one file (Tarjan's). */
function importCircles(imports: readonly Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of imports) next.set(from, [...(next.get(from) ?? []), to]);
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!order.has(to)) {
        visit(to);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(to)!));
      } else if (stack.includes(to)) lowest.set(file, Math.min(lowest.get(file)!, order.get(to)!));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1) circles.push(group.sort());
  };
  for (const file of next.keys()) if (!order.has(file)) visit(file);
  return circles;
}

const capabilities = readdirSync(SHARED).filter((name) => name !== 'platform' && statSync(join(SHARED, name)).isDirectory());
const sharedImports = importsOf(sourceFiles(SHARED));

describe('the layout', () => {
  it('has a public entry for every capability', () => {
    assert.ok(capabilities.length >= 8, capabilities.join(', '));
    for (const capability of capabilities) assert.ok(existsSync(join(SHARED, capability, 'index.ts')), `shared/${capability}/index.ts`);
  });

  it('never imports from the platform up into a capability or the route table', () => {
    const upward = sharedImports.filter(
      ({ from, to }) => from.startsWith(`shared${sep}platform${sep}`) && !to.startsWith(`shared${sep}platform${sep}`),
    );
    assert.deepEqual(upward, []);
  });

  it('keeps business words out of the platform', () => {
    assert.deepEqual(businessWordsIn(sourceFiles(join(SHARED, 'platform'))), []);
  });

  it('finds a business word in code, not in comments', () => {
    const folder = mkdtempSync(join(tmpdir(), 'layout-'));
    try {
      const planted = join(folder, 'planted.ts');
      writeFileSync(planted, '/** Stripe keys, in a comment. */\n// a webhook, in a comment\nexport const stripeKey = "whsec";\n');
      assert.deepEqual(businessWordsIn([planted]), [`${relative(ROOT, planted)}:3: stripe`]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('uses another capability only through its public entry', () => {
    const intoInternals = sharedImports.filter(({ from, to }) => {
      const target = capabilityOf(to);
      return target !== undefined && target !== capabilityOf(from) && to !== join('shared', target, 'index.ts');
    });
    assert.deepEqual(intoInternals, []);
  });

  it('keeps product code free of the local runtime, tools, tests and function files', () => {
    const outward = sharedImports.filter(({ to }) => !to.startsWith(`shared${sep}`) && !to.startsWith(`node_modules${sep}`));
    assert.deepEqual(outward, []);
  });

  it('keeps each unit test in the folder of what it tests', () => {
    // A capability's or the platform's tests under its own name; tools' tests under their folder's.
    const toolFolders: Record<string, string> = {
      cli: 'infra/cli',
      'matcher-training': 'infra/matcher-training',
      bench: 'test/bench',
      architecture: 'test/unit/architecture',
      synthetic: 'infra/synthetic',
    };
    const folders = [...readdirSync(join(ROOT, 'test', 'unit'))].filter((name) => statSync(join(ROOT, 'test', 'unit', name)).isDirectory());
    const misplaced = folders.filter(
      (name) => !(capabilities.includes(name) || name === 'platform' || (toolFolders[name] && existsSync(join(ROOT, toolFolders[name])))),
    );
    assert.deepEqual(misplaced, []);
  });

  it("keeps each function file in the folder of its capability (or the platform's)", () => {
    const folders = [...readdirSync(join(ROOT, 'functions'))];
    assert.deepEqual(
      folders.filter((name) => !(capabilities.includes(name) || name === 'platform')),
      [],
    );
  });

  it('has no circle of imports, inside a room or between rooms, in product code and the infrastructure', () => {
    const infraImports = importsOf(sourceFiles(join(ROOT, 'infra')));
    assert.deepEqual(importCircles([...sharedImports, ...infraImports]), []);
    // The check finds a circle where there is one.
    assert.deepEqual(
      importCircles([
        { from: 'a', to: 'b' },
        { from: 'b', to: 'c' },
        { from: 'c', to: 'a' },
        { from: 'c', to: 'd' },
      ]),
      [['a', 'b', 'c']],
    );
  });

  it('holds Lambda entries and nothing else in functions/', () => {
    const entries = sourceFiles(join(ROOT, 'functions')).map((file) => relative(join(ROOT, 'functions'), file).replace(/\.ts$/, ''));
    const lambdas = [
      ...routeList.map((route) => route.handler),
      ...queueList.flatMap((queue) => [queue.handler, ...(queue.deadLetterHandler ? [queue.deadLetterHandler] : [])]),
      EVENT_RELAY.handler,
    ];
    assert.deepEqual(entries.sort(), lambdas.map((handler) => handler.split('/').join(sep)).sort());
  });
});
