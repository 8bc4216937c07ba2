import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from '@jest/globals';
import { DEMO_REFERENCE, REVIEW_DEMO } from '../../../infra/local/seed';
import { generateReferenceHotels } from '../../../infra/synthetic/generator';
import { REVIEW_DEMO_KINDS, reviewDemoCsv, reviewDemoRows } from '../../../infra/synthetic/review-queue';

describe('the review demo inventory', () => {
  const reference = [...generateReferenceHotels({ count: DEMO_REFERENCE.hotels, seed: DEMO_REFERENCE.seed })];

  it('is the file the generator writes from the demo reference (npm run demo:review-queue), so it cannot drift from it', () => {
    assert.equal(readFileSync(REVIEW_DEMO.file, 'utf8'), reviewDemoCsv(reference, REVIEW_DEMO.rows, REVIEW_DEMO.seed));
  });

  it('holds every kind of doubt, about in its share, each row a hotel of its own', () => {
    const rows = reviewDemoRows(reference, REVIEW_DEMO.rows, REVIEW_DEMO.seed);
    assert.equal(new Set(rows.map((row) => row.hotel.id)).size, REVIEW_DEMO.rows);
    for (const [kind, share] of Object.entries(REVIEW_DEMO_KINDS)) {
      const count = rows.filter((row) => row.kind === kind).length;
      assert.ok(Math.abs(count / rows.length - share) < 0.02, `${kind}: ${count}`);
    }
    const outlet = rows.find((row) => row.kind === 'chainOutlet' && row.hotel.address === undefined)!;
    assert.ok(outlet.hotel.name.endsWith(outlet.hotel.city!), outlet.hotel.name);
  });
});
