/**
 * infra/cli/map-on-threads.ts when a worker fails: its rows are matched on this thread and the
 * results are those of mapHotels. The workers here are stand-ins that fail at once (they throw or
 * stop), so every row set aside for a worker is this thread's.
 */
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { describe, it, jest } from '@jest/globals';
import { generateReferenceHotels } from '../../../infra/synthetic/generator';
import { mapOnThreads } from '../../../infra/cli/map-on-threads';
import { buildMatchingIndex, mapHotels, type PartnerHotel } from '../../../shared/mapping';

const reference = [...generateReferenceHotels({ count: 400, seed: 31 })];
const index = buildMatchingIndex(reference);
// Enough rows for a chunk on each of three threads; every hotel twice (the cross-row rule has work).
const partners: PartnerHotel[] = [...reference, ...reference].map(({ name, city, country, lat, lon }, i) => ({
  id: `P-${i}`,
  name,
  city,
  country,
  lat,
  lon,
}));

const failingWorkers: Record<string, string> = {
  throws: `throw new Error('no index for you');`,
  stops: `process.exit(3);`,
};

describe('matching on threads when a worker fails', () => {
  for (const [how, source] of Object.entries(failingWorkers)) {
    it(`matches the rows of a worker that ${how} on this thread, with the results of one thread`, async () => {
      const written = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        const { results, rowsPerThread } = await mapOnThreads(index, partners, {
          mode: 'STANDARD',
          threads: 3,
          startWorker: () => new Worker(source, { eval: true }),
        });
        assert.deepEqual(rowsPerThread, [partners.length, 0, 0]);
        assert.deepEqual(results, mapHotels(index, partners, { mode: 'STANDARD' }));
        const messages = written.mock.calls.map(([text]) => String(text)).filter((text) => text.startsWith('a matching thread failed'));
        assert.equal(messages.length, 2, messages.join(''));
      } finally {
        written.mockRestore();
      }
    });
  }
});
