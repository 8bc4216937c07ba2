/**
 * Mapping throughput of this engine against another checkout's (an older commit), on the same
 * data: the 1M / 100k synthetic base set of bench:mapping, one engine per process. Run it
 * alternately for each engine, since the machine's speed drifts: every process prints the partner
 * hotels per CPU-second of each of its passes (the first warms up).
 *
 *   git worktree add --detach /tmp/before <commit> && ln -s "$PWD/node_modules" /tmp/before/
 *   npx tsx test/bench/mapping-ab.ts [--engine /tmp/before] [--passes 2]
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { MappingResult, PartnerHotel, ReferenceHotel } from '../../shared/mapping';
import { mappingDataset } from '../../infra/synthetic/mapping-dataset';

const { values: args } = parseArgs({ options: { engine: { type: 'string' }, passes: { type: 'string', default: '2' } } });
const engineDirectory = path.resolve(args.engine ?? path.join(import.meta.dirname, '../..'));
type Engine = {
  buildMatchingIndex(hotels: Iterable<ReferenceHotel>): unknown;
  mapHotels(index: unknown, partners: Iterable<PartnerHotel>, options: { mode: 'STANDARD' }): MappingResult[];
};
const engine = (await import(pathToFileURL(path.join(engineDirectory, 'shared/mapping/index.ts')).href)) as Engine;

const dataset = mappingDataset({ referenceCount: 1_000_000, partnerCount: 100_000, seed: 20261122 });
const index = engine.buildMatchingIndex(dataset.reference());
dataset.shufflePartners();
for (let pass = 1; pass <= Number(args.passes); pass++) {
  const before = process.cpuUsage();
  engine.mapHotels(index, dataset.partners, { mode: 'STANDARD' });
  const used = process.cpuUsage(before);
  const perCpuSecond = dataset.partners.length / ((used.user + used.system) / 1e6);
  console.log(`${engineDirectory} pass ${pass}: ${Math.round(perCpuSecond)} partner hotels per CPU-second`);
}
