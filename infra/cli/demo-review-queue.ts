/**
 * `npm run demo:review-queue`: writes infra/local/demo/review-queue.csv, the demo inventory whose
 * job leaves a review queue (infra/synthetic/review-queue.ts), from the demo reference.
 */
import { writeFileSync } from 'node:fs';
import { DEMO_REFERENCE, REVIEW_DEMO } from '../local/seed';
import { generateReferenceHotels } from '../synthetic/generator';
import { reviewDemoCsv } from '../synthetic/review-queue';

const reference = [...generateReferenceHotels({ count: DEMO_REFERENCE.hotels, seed: DEMO_REFERENCE.seed })];
writeFileSync(REVIEW_DEMO.file, reviewDemoCsv(reference, REVIEW_DEMO.rows, REVIEW_DEMO.seed));
process.stdout.write(`${REVIEW_DEMO.file}: ${REVIEW_DEMO.rows} hotels\n`);
