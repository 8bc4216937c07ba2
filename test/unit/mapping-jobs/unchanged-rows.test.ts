import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { buildMatchingIndex, FACTLESS_ENGINE_VERSION, type PartnerHotel } from '../../../shared/mapping';
import type { EngineAnswer } from '../../../shared/mapping-book';
import type { MappingJob } from '../../../shared/mapping-jobs/job';
import { answerRows, rowBasis } from '../../../shared/mapping-jobs/unchanged-rows';

const job = {
  mode: 'STANDARD' as const,
  supplier: undefined,
  reference: { artifactsId: 'pub-7', dataVersionId: 'data-7', matchingIndexKey: 'index-7' },
};
const row: PartnerHotel = {
  id: 'H-1',
  name: 'Hotel Lutetia',
  address: '45 Boulevard Raspail',
  city: 'Paris',
  postalCode: '75006',
  country: 'FR',
  lat: 48.8511,
  lon: 2.3271,
};

describe("a row's basis: what the engine's answer for it is a function of", () => {
  it('is the same for the same row, mode, supplier and publication, whatever the order of its fields', () => {
    const reordered = Object.fromEntries(Object.entries(row).reverse()) as unknown as PartnerHotel;
    assert.equal(rowBasis(job, reordered), rowBasis(job, row));
    assert.match(rowBasis(job, row), /^[\w-]{16}$/);
  });

  it('changes with any field of the row, the mode, the supplier or the publication', () => {
    const bases = [
      rowBasis(job, row),
      ...(['name', 'address', 'city', 'postalCode', 'country', 'region'] as const).map((field) =>
        rowBasis(job, { ...row, [field]: 'other' }),
      ),
      rowBasis(job, { ...row, lat: 48.8512 }),
      rowBasis(job, { ...row, rating: 4 }),
      rowBasis(job, { ...row, supplierCode: 'HOTELBEDS', supplierHotelId: '1234' }),
      rowBasis(job, { ...row, supplierCode: 'HOTELBEDS', supplierHotelId: '1235' }),
      rowBasis({ ...job, mode: 'HYBRID', supplier: { id: 's-1', code: 'HOTELBEDS', name: 'Hotelbeds' } }, row),
      rowBasis({ ...job, mode: 'HYBRID', supplier: { id: 's-2', code: 'EXPEDIA', name: 'Expedia' } }, row),
      rowBasis({ ...job, reference: { ...job.reference, artifactsId: 'pub-8' } }, row),
    ];
    assert.equal(new Set(bases).size, bases.length);
  });

  it('is the same whether a field the row lacks is absent or undefined', () => {
    assert.equal(rowBasis(job, { ...row, region: undefined }), rowBasis(job, row));
  });
});

describe("a row the book answered before answers carried their hotel's facts", () => {
  it('is answered again by the engine for its supplier codes and place, and not charged; a changed row is charged', async () => {
    const index = buildMatchingIndex([
      {
        id: 'lutetia',
        name: 'Hotel Lutetia',
        address: '45 Boulevard Raspail',
        postalCode: '75006',
        city: 'Paris',
        country: 'France',
        lat: 48.8511,
        lon: 2.3271,
        supplierCodes: { HOTELBEDS: '111' },
      },
    ]);
    const changed = { ...row, id: 'H-2', name: 'Hotel Lutetia Paris' };
    const factless: EngineAnswer = {
      status: 'MATCHED',
      method: 'FUZZY',
      referenceHotelId: 'lutetia',
      referenceHotelName: 'Hotel Lutetia',
      score: 0.9,
      evidence: null,
      candidates: [],
      basis: rowBasis(job, row, FACTLESS_ENGINE_VERSION),
    };
    const held = [factless, { ...factless, basis: 'another basis' }];
    const answers = await answerRows({ heldAnswers: async () => held, index: async () => index }, job as unknown as MappingJob, [
      row,
      changed,
    ]);
    assert.equal(answers.mapped, 2, 'the engine answered both');
    const [refreshed, charged] = answers.results;
    assert.deepEqual(
      [refreshed!.unchanged, refreshed!.supplierCodes, refreshed!.referenceHotelCity],
      [true, { HOTELBEDS: '111' }, 'Paris'],
    );
    assert.equal(charged!.unchanged, undefined);
  });
});
