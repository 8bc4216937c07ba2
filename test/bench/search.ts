/**
 * Reference search benchmark: 1,000,000 generated hotels.
 *
 *   npm run bench:search [-- --hotels 1000000 --seed 42 --queries 1000]
 *
 * The parent process generates the inventory, builds and serializes the index (raw and gzipped)
 * and writes the query sets; a fresh child process (like a Lambda cold start) loads the artifact,
 * reports load time and resident memory, then runs the name, geo, filter and advanced queries and
 * prints p50/p95/p99 latencies. Figures only: nothing is asserted.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { SeededRandom } from '../../infra/synthetic/prng';
import {
  advancedSearch,
  buildSearchIndex,
  computeStatisticsArtifact,
  loadIndex,
  search,
  serializeIndex,
  serializeStatistics,
  type AdvancedSearchQuery,
  type ReferenceSearchQuery,
} from '../../shared/reference/search/search-index';
import { foldText } from '../../shared/platform/text';
import { CITIES, COUNTRIES } from '../../infra/synthetic/world-data';

interface NameProbe {
  query: ReferenceSearchQuery;
  /** Folded name of the hotel the misspelt query came from. */
  expectedName: string;
  /** A dropped word can make the query fit other hotels better (e.g. without the city). */
  droppedWord: boolean;
}

interface QuerySets {
  name: NameProbe[];
  geo: ReferenceSearchQuery[];
  filter: ReferenceSearchQuery[];
  advanced: AdvancedSearchQuery[];
}

const { values: options } = parseArgs({
  options: {
    hotels: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: '42' },
    queries: { type: 'string', default: '1000' },
    serve: { type: 'string' },
  },
});

const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

// ---------------------------------------------------------------- realistic misspellings

const KEYBOARD_NEIGHBOURS: Record<string, string> = {
  a: 'qsz',
  b: 'vgn',
  c: 'xdv',
  d: 'sfe',
  e: 'wrd',
  f: 'dgr',
  g: 'fht',
  h: 'gjy',
  i: 'uok',
  j: 'hku',
  k: 'jli',
  l: 'kop',
  m: 'nj',
  n: 'bmh',
  o: 'ipl',
  p: 'ol',
  q: 'wa',
  r: 'eft',
  s: 'adw',
  t: 'rgy',
  u: 'yji',
  v: 'cbf',
  w: 'qes',
  x: 'zsc',
  y: 'tuh',
  z: 'xa',
};

/** One or two typical user mistakes: a typo, a dropped word, swapped words, no accents, lower case. */
function misspell(random: SeededRandom, name: string): { text: string; droppedWord: boolean } {
  let words = name.split(' ');
  let droppedWord = false;
  const mistakes = random.int(1, 2);
  for (let i = 0; i < mistakes; i++) {
    const kind = random.int(0, 5);
    if (kind === 0 && words.length > 2) {
      words.splice(random.int(1, words.length - 1), 1);
      droppedWord = true;
    } else if (kind === 1 && words.length > 1) words.reverse();
    else if (kind === 2) words = foldText(words.join(' ')).split(' ');
    else {
      const target = words.reduce((longest, word, index) => (word.length > (words[longest] as string).length ? index : longest), 0);
      words[target] = typo(random, words[target] as string, kind);
    }
  }
  const text = words.join(' ');
  return { text: random.chance(0.5) ? text.toLowerCase() : text, droppedWord };
}

function typo(random: SeededRandom, word: string, kind: number): string {
  if (word.length < 4) return word;
  const at = random.int(1, word.length - 2);
  if (kind === 3) return word.slice(0, at) + word.slice(at + 1); // dropped letter
  if (kind === 4) return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2); // swapped letters
  const letter = (word[at] as string).toLowerCase();
  const neighbour = KEYBOARD_NEIGHBOURS[letter] ? random.pick([...KEYBOARD_NEIGHBOURS[letter]]) : letter;
  return word.slice(0, at) + neighbour + word.slice(at + 1); // neighbouring key
}

// ---------------------------------------------------------------- query sets

function buildQuerySets(sampledHotels: ReferenceHotel[], count: number, seed: number): QuerySets {
  const random = new SeededRandom(seed, 7);
  const page = { limit: 20, offset: 0 };
  const name = Array.from({ length: count }, (): NameProbe => {
    const hotel = random.pick(sampledHotels);
    const { text, droppedWord } = misspell(random, hotel.name);
    return { query: { q: text, ...page }, expectedName: foldText(hotel.name), droppedWord };
  });
  const geo = Array.from({ length: count }, (): ReferenceSearchQuery => {
    const city = random.pick(CITIES);
    return { lat: city.lat, lon: city.lon, radius: random.int(1, 25), ...page };
  });
  const filter = Array.from({ length: count }, (): ReferenceSearchQuery => {
    const city = random.pick(CITIES);
    const query: ReferenceSearchQuery = { ...page, offset: random.chance(0.2) ? random.int(1, 5) * 20 : 0 };
    const roll = random.float();
    if (roll < 0.4) query.country = random.chance(0.5) ? city.country.code : city.country.name.toLowerCase();
    else if (roll < 0.8) query.city = city.name;
    else if (roll < 0.9) query.region = city.region;
    if (random.chance(0.5)) query.rating = random.int(2, 5);
    return query;
  });
  const advanced = Array.from({ length: count }, (): AdvancedSearchQuery => {
    const hotel = random.pick(sampledHotels);
    const query: AdvancedSearchQuery = {
      ...page,
      sortBy: random.pick(['name', 'rating', 'created'] as const),
      sortDir: random.pick(['asc', 'desc'] as const),
    };
    const roll = random.float();
    if (roll < 0.3) query.name = (hotel.name.split(' ')[0] as string).slice(0, 4);
    else if (roll < 0.6) query.country = random.pick(COUNTRIES).name;
    else if (roll < 0.8) query.city = hotel.city;
    if (random.chance(0.3)) query.rating = random.int(3, 5);
    if (random.chance(0.3)) query.hasCoordinates = true;
    return query;
  });
  return { name, geo, filter, advanced };
}

// ---------------------------------------------------------------- parent: generate, build, store

function buildPhase(): void {
  const hotelCount = Number(options.hotels);
  const seed = Number(options.seed);
  const queryCount = Number(options.queries);
  const workDirectory = mkdtempSync(join(tmpdir(), 'reference-bench-'));
  console.log(`Reference search benchmark: ${hotelCount.toLocaleString('en')} hotels, seed ${seed}, ${queryCount} queries per kind`);

  let started = performance.now();
  const sampledHotels: ReferenceHotel[] = [];
  const sampleEvery = Math.max(1, Math.floor(hotelCount / 5000));
  let generated = 0;
  for (const hotel of generateReferenceHotels({ count: hotelCount, seed })) {
    if (generated++ % sampleEvery === 0) sampledHotels.push(hotel);
  }
  console.log(`generation only:            ${seconds(performance.now() - started)}`);

  started = performance.now();
  let index: ReturnType<typeof buildSearchIndex> | undefined = buildSearchIndex(generateReferenceHotels({ count: hotelCount, seed }));
  console.log(`index build (incl. gen.):   ${seconds(performance.now() - started)}  (vocabulary ${index.columns.vocabulary.length} words)`);

  started = performance.now();
  const raw = serializeIndex(index);
  const serializeMs = performance.now() - started;
  started = performance.now();
  const gzipped = serializeIndex(index, { gzip: true });
  const gzipMs = performance.now() - started;
  const statistics = serializeStatistics(computeStatisticsArtifact(index.columns));
  console.log(
    `artifact size:              ${megabytes(raw.length)} raw (serialize ${seconds(serializeMs)}), ${megabytes(gzipped.length)} gzipped (serialize ${seconds(gzipMs)})`,
  );
  console.log(`statistics artifact:        ${(statistics.length / 1024).toFixed(1)} KB`);

  const rawPath = join(workDirectory, 'index.bin');
  const gzipPath = join(workDirectory, 'index.bin.gz');
  const queriesPath = join(workDirectory, 'queries.json');
  writeFileSync(rawPath, raw);
  writeFileSync(gzipPath, gzipped);
  writeFileSync(queriesPath, JSON.stringify(buildQuerySets(sampledHotels, queryCount, seed)));
  index = undefined;

  try {
    for (const [label, path] of [
      ['gzipped', gzipPath],
      ['raw', rawPath],
    ] as const) {
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, '--expose-gc', process.argv[1] as string, '--serve', JSON.stringify({ path, queriesPath, label })],
        { stdio: 'inherit' },
      );
      if (child.status !== 0) throw new Error(`serve phase (${label}) failed with status ${child.status}`);
    }
  } finally {
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- child: load and query

function percentiles(durations: number[]): string {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (share: number) => (sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number).toFixed(2);
  return `p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms  max ${(sorted.at(-1) as number).toFixed(2)} ms`;
}

function timeEach<T>(items: T[], run: (item: T) => void): number[] {
  return items.map((item) => {
    const started = performance.now();
    run(item);
    return performance.now() - started;
  });
}

function servePhase(argument: string): void {
  const { path, queriesPath, label } = JSON.parse(argument) as { path: string; queriesPath: string; label: string };
  collectGarbage();
  const rssBefore = process.memoryUsage().rss;
  let started = performance.now();
  const index = loadIndex(readFileSync(path));
  const loadMs = performance.now() - started;
  collectGarbage();
  const memory = process.memoryUsage();
  console.log(
    `\n[${label} artifact] load (read + parse): ${seconds(loadMs)};  RSS after load ${megabytes(memory.rss)} ` +
      `(process before load ${megabytes(rssBefore)}; heap ${megabytes(memory.heapUsed)}, array buffers ${megabytes(memory.arrayBuffers)})`,
  );
  if (label !== 'raw') return;

  const queries = JSON.parse(readFileSync(queriesPath, 'utf8')) as QuerySets;
  started = performance.now();
  search(index, queries.name[0]!.query);
  console.log(`first query after load:     ${(performance.now() - started).toFixed(1)} ms (allocates scoring arrays)`);
  // Warm-up so the figures describe a warm Lambda.
  for (const probe of queries.name.slice(0, 50)) search(index, probe.query);

  // Rank of the misspelt hotel's name, for probes with and without a dropped word.
  const ranks = { kept: [] as number[], dropped: [] as number[] };
  let nameTotal = 0;
  const nameDurations = timeEach(queries.name, (probe) => {
    const page = search(index, probe.query);
    nameTotal += page.total;
    const rank = page.results.findIndex((hotel) => foldText(hotel.name) === probe.expectedName);
    (probe.droppedWord ? ranks.dropped : ranks.kept).push(rank);
  });
  const share = (list: number[], test: (rank: number) => boolean) => `${((100 * list.filter(test).length) / list.length).toFixed(1)}%`;
  const quality = (list: number[]) =>
    `rank 1 ${share(list, (rank) => rank === 0)}, top 10 ${share(list, (rank) => rank >= 0)} (${list.length})`;
  let geoTotal = 0;
  const geoDurations = timeEach(queries.geo, (query) => (geoTotal += search(index, query).total));
  let filterTotal = 0;
  const filterDurations = timeEach(queries.filter, (query) => (filterTotal += search(index, query).total));
  let advancedTotal = 0;
  const advancedDurations = timeEach(queries.advanced, (query) => (advancedTotal += advancedSearch(index, query).total));

  const count = queries.name.length;
  console.log(`name     (${count}): ${percentiles(nameDurations)}  | mean total ${Math.round(nameTotal / count)}`);
  console.log(`  misspelt hotel's name found: all words kept: ${quality(ranks.kept)}; a word dropped: ${quality(ranks.dropped)}`);
  console.log(`geo      (${count}): ${percentiles(geoDurations)}  | mean total ${Math.round(geoTotal / count)}`);
  console.log(`filter   (${count}): ${percentiles(filterDurations)}  | mean total ${Math.round(filterTotal / count)}`);
  console.log(`advanced (${count}): ${percentiles(advancedDurations)}  | mean total ${Math.round(advancedTotal / count)}`);
  console.log('slowest queries:');
  for (const [kind, durations, items] of [
    ['name', nameDurations, queries.name.map((probe) => probe.query)],
    ['geo', geoDurations, queries.geo],
    ['filter', filterDurations, queries.filter],
    ['advanced', advancedDurations, queries.advanced],
  ] as const) {
    const slowest = durations.indexOf(Math.max(...durations));
    console.log(`  ${kind.padEnd(8)} ${(durations[slowest] as number).toFixed(1)} ms  ${JSON.stringify(items[slowest])}`);
  }
  collectGarbage();
  console.log(`RSS after queries:          ${megabytes(process.memoryUsage().rss)}`);
}

if (options.serve) servePhase(options.serve);
else buildPhase();
