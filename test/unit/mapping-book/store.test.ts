/** The store's own rules: when the book's newest whole inventory of a source stands for an entry's listing. */
import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { applyJobRow, applyRemoval, OWN_SOURCE, type JobRow } from '../../../shared/mapping-book/entries';
import { asLastListed, unlistedSince } from '../../../shared/mapping-book/store';

const [EARLY, MIDDLE, LATE] = ['2026-11-01T00:00:00.000Z', '2026-11-15T00:00:00.000Z', '2026-11-29T00:00:00.000Z'];

const row: JobRow = {
  partnerHotelId: 'H-1',
  source: OWN_SOURCE,
  partner: { name: 'Hotel du Louvre' },
  status: 'MATCHED',
  method: 'FUZZY',
  referenceHotelId: 'R-1',
  referenceHotelName: 'Hotel du Louvre',
  score: 0.97,
  evidence: null,
  candidates: [],
};

const listedAt = (at: string) => applyJobRow(undefined, row, at, 'job-1', at).entry;

describe('asLastListed', () => {
  it("takes a later whole inventory of the entry's source as the entry's own listing", () => {
    assert.equal(asLastListed(listedAt(EARLY), { listedWhole: { [OWN_SOURCE]: MIDDLE } }).listedAt, MIDDLE);
  });

  it('keeps a later listing of its own, an ended entry, and an entry of a source no whole inventory listed', () => {
    assert.equal(asLastListed(listedAt(LATE), { listedWhole: { [OWN_SOURCE]: MIDDLE } }).listedAt, LATE);
    const ended = applyRemoval(listedAt(EARLY), EARLY, 'job-2', EARLY).entry;
    assert.equal(asLastListed(ended, { listedWhole: { [OWN_SOURCE]: LATE } }), ended);
    const entry = listedAt(EARLY);
    assert.equal(asLastListed(entry, { listedWhole: { HOTELBEDS: LATE } }), entry);
    assert.equal(asLastListed(entry, {}), entry);
  });
});

describe('unlistedSince', () => {
  it("says a row is older than the book's last whole inventory of its source, only when one is later", () => {
    assert.equal(unlistedSince({ listedWhole: { [OWN_SOURCE]: MIDDLE } }, OWN_SOURCE, EARLY), true);
    assert.equal(unlistedSince({ listedWhole: { [OWN_SOURCE]: MIDDLE } }, OWN_SOURCE, MIDDLE), false);
    assert.equal(unlistedSince({ listedWhole: { [OWN_SOURCE]: MIDDLE } }, OWN_SOURCE, LATE), false);
    assert.equal(unlistedSince({ listedWhole: { [OWN_SOURCE]: MIDDLE } }, 'HOTELBEDS', EARLY), false);
    assert.equal(unlistedSince({}, OWN_SOURCE, EARLY), false);
  });
});
