/**
 * Where mapping time goes at scale: per partner-row CPU time grouped by what the row carries
 * (coordinates, city) and how it came out.
 *   npx tsx test/bench/mapping-paths.ts [--reference 1000000 --partners 20000]
 */
import { parseArgs } from 'node:util';
import type { ReferenceHotel } from '../../shared/mapping/hotels';
import type { PartnerHotel } from '../../shared/mapping';
import { buildMatchingIndex, HotelMatcher } from '../../shared/mapping';
import { generateReferenceHotels } from '../../infra/synthetic/generator';
import { BenchRandom, damagedPartnerRow, lookAlikeHotel } from '../../infra/synthetic/partner-damage';

const { values: args } = parseArgs({
  options: { reference: { type: 'string', default: '1000000' }, partners: { type: 'string', default: '20000' } },
});
const REFERENCE_COUNT = Number(args.reference);
const PARTNER_COUNT = Number(args.partners);
const SEED = 20261122;
const random = new BenchRandom(SEED);
const partners: PartnerHotel[] = [];
const truth = new Map<string, string>();
const truthIds = new Set<string>();
function* reference(): Generator<ReferenceHotel> {
  let index = 0;
  const noMatch = Math.round(PARTNER_COUNT * 0.1);
  for (const hotel of generateReferenceHotels({ count: REFERENCE_COUNT + noMatch, seed: SEED })) {
    if (index++ >= REFERENCE_COUNT) {
      partners.push(damagedPartnerRow(random, hotel, `P-NONE-${partners.length}`));
      continue;
    }
    yield hotel;
    if (random.chance((PARTNER_COUNT * 0.9) / REFERENCE_COUNT)) {
      const row = damagedPartnerRow(random, hotel, `P-${partners.length}`);
      partners.push(row);
      truth.set(row.id, hotel.id);
      truthIds.add(hotel.id);
      if (random.chance(0.1)) yield lookAlikeHotel(random, hotel, `L-${index}`);
    }
  }
}
const index = buildMatchingIndex(reference());
const matcher = new HotelMatcher(index, { mode: 'STANDARD' });
const groups = new Map<string, { rows: number; ms: number; correct: number }>();
// PROFILE=file.cpuprofile: CPU profile of the mapping loop only (not the index build).
const { Session } = await import('node:inspector/promises');
const session = process.env.PROFILE ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const cpuBefore = process.cpuUsage();
for (const partner of partners) {
  const started = performance.now();
  const result = matcher.match(partner);
  const ms = performance.now() - started;
  const key = `${partner.lat === undefined ? 'no-pin' : 'pin'} ${partner.city ? 'city' : 'no-city'} ${truth.has(partner.id) ? 'true' : 'none'} ${result.status}`;
  const group = groups.get(key) ?? { rows: 0, ms: 0, correct: 0 };
  group.rows += 1;
  group.ms += ms;
  if (result.referenceHotelId === truth.get(partner.id)) group.correct += 1;
  groups.set(key, group);
}
const cpu = process.cpuUsage(cpuBefore);
if (session) {
  const { profile } = await session.post('Profiler.stop');
  (await import('node:fs')).writeFileSync(process.env.PROFILE!, JSON.stringify(profile));
}
console.log(
  `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s = ${Math.round(partners.length / ((cpu.user + cpu.system) / 1e6))} rows per CPU-second`,
);
let total = 0;
for (const group of groups.values()) total += group.ms;
for (const [key, group] of [...groups].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(
    `${key.padEnd(40)} rows ${String(group.rows).padStart(6)}  right candidate ${String(group.correct).padStart(6)}  ${(group.ms / group.rows).toFixed(3)} ms/row  ${((100 * group.ms) / total).toFixed(1)}% of time`,
  );
}
console.log(`total ${(total / 1000).toFixed(2)} s for ${partners.length} rows = ${Math.round(partners.length / (total / 1000))} rows/s`);

// Examples of one group: SHOW="pin city true UNMATCHED" (up to 15).
const show = process.env.SHOW;
if (show) {
  const byId = new Map<string, ReferenceHotel>();
  for (const hotel of generateReferenceHotels({ count: REFERENCE_COUNT, seed: SEED }))
    if ([...truth.values()].length && truthIds.has(hotel.id)) byId.set(hotel.id, hotel);
  let shown = 0;
  for (const partner of partners) {
    const result = matcher.match(partner);
    const key = `${partner.lat === undefined ? 'no-pin' : 'pin'} ${partner.city ? 'city' : 'no-city'} ${truth.has(partner.id) ? 'true' : 'none'} ${result.status}`;
    if (key !== show || shown++ >= 15) continue;
    const hotel = byId.get(truth.get(partner.id) ?? '');
    console.log(`P: ${partner.name} | ${partner.address} | ${partner.postalCode} | ${partner.city} | ${partner.lat},${partner.lon}`);
    console.log(`T: ${hotel?.name} | ${hotel?.address} | ${hotel?.postalCode} | ${hotel?.city} | ${hotel?.lat},${hotel?.lon}`);
    console.log(
      `=> ${result.status} ${result.referenceHotelName} ${result.score} ${result.reason ?? ''} ${JSON.stringify(result.evidence)} ${JSON.stringify(result.candidates.map((c) => [c.referenceHotelName, c.score, c.distanceMeters]))}`,
    );
  }
}

// REPEAT=n: n more passes over the same rows with a fresh matcher, for a steadier CPU figure.
for (let pass = 0; pass < Number(process.env.REPEAT ?? 0); pass++) {
  const fresh = new HotelMatcher(index, { mode: 'STANDARD' });
  const before = process.cpuUsage();
  for (const partner of partners) fresh.match(partner);
  const used = process.cpuUsage(before);
  console.log(
    `pass ${pass + 1}: CPU ${((used.user + used.system) / 1e6).toFixed(2)} s = ${Math.round(partners.length / ((used.user + used.system) / 1e6))} rows per CPU-second`,
  );
}
