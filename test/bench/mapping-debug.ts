import { readFileSync } from 'node:fs';
import { buildReferenceIndex, HotelMatcher, readPartnerInventory, readReferenceInventory } from '../../shared/mapping';
const dir = '/work/shared/data/poi-matching-singapore/';
async function load(rows: AsyncIterable<any>) { const out: any[] = []; for await (const r of rows) if (!('error' in r)) out.push(r.hotel); return out; }
const reference = await load(readReferenceInventory(readFileSync(dir + 'reference.csv'), 'csv'));
const partners = await load(readPartnerInventory(readFileSync(dir + 'partner.csv'), 'csv'));
const index = buildReferenceIndex(reference);
const matcher = new HotelMatcher(index, { mode: 'STANDARD', maxCandidates: 10 });
for (const name of process.argv.slice(2)) {
  for (const p of partners.filter((p) => p.name === name)) {
    const row = matcher.matchRow(p);
    console.log(p.name, p.lat, p.lon, row.result.status, row.result.score, row.result.reason);
    for (const c of row.scored) console.log('   ', c.logOdds.toFixed(2), index.data.names[c.hotel], JSON.stringify(c.evidence));
  }
}
{
  const { compareNames, referenceNameView } = await import('../../shared/mapping/scoring');
  const hits = index.data.names.map((n, i) => [n, i] as const).filter(([n]) => n.startsWith('Martin Place Residence'));
  for (const [, a] of hits) for (const [, b] of hits) console.log(a, b, compareNames(referenceNameView(index, a), referenceNameView(index, b)), index.data.latitudes[a], index.data.latitudes[b]);
}
