/**
 * Accuracy on the labelled Singapore POI set (real OpenStreetMap vs Foursquare places): STANDARD
 * mode, precision / recall / F1 of MATCHED rows as defined in the data set's README.
 *   npm run bench:accuracy
 */
import { buildMatchingIndex, mapHotels } from '../../shared/mapping';
import { scoreMatches } from './mapping-metrics';
import { loadSingaporeSet } from './singapore-set';

const { reference, partners, truth } = await loadSingaporeSet();

const started = performance.now();
const index = buildMatchingIndex(reference);
const built = performance.now();
const results = mapHotels(index, partners, { mode: 'STANDARD' });
const finished = performance.now();

const metrics = scoreMatches(results, (partnerId) => truth.get(partnerId));
console.log(`Singapore POI set: ${reference.length} reference, ${partners.length} partner rows, ${truth.size} with a labelled match`);
console.log(`index build ${(built - started).toFixed(0)} ms, mapping ${(finished - built).toFixed(0)} ms (${Math.round(partners.length / ((finished - built) / 1000))} rows/s)`);
console.log(`MATCHED ${metrics.matched} (correct ${metrics.correct}), REVIEW ${metrics.review} (correct candidate ${metrics.reviewCorrect}), UNMATCHED ${metrics.unmatched}`);
console.log(`precision ${metrics.precision.toFixed(3)}  recall ${metrics.recall.toFixed(3)}  F1 ${metrics.f1.toFixed(3)}`);
