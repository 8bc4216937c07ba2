/**
 * A job's results files: each chunk's results as JSON lines, gzip-compressed, in the results
 * bucket. The finishing stage writes them again where the cross-row rule changed a row
 * (finishing.ts); exports stream them.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { MappingResult } from '../mapping';
import { jobObjects, type MappingJob } from './job';
import type { ChunkResult } from './unchanged-rows';

export function toJsonLines(results: readonly MappingResult[]): string {
  return results.map((result) => JSON.stringify(result)).join('\n');
}

/** A results file as stored: its JSON lines gzip-compressed, a fifth of their bytes. */
export function resultsFileBytes(jsonLines: string): Buffer {
  return gzipSync(jsonLines, { level: 1 });
}

export function resultsFileText(bytes: Buffer): string {
  return gunzipSync(bytes).toString('utf8');
}

/** A chunk's results as its file holds them; fails loudly when the file is missing. */
export async function readChunkResults(
  ports: { readResultsFile(key: string): Promise<string | undefined> },
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  chunk: number,
): Promise<ChunkResult[]> {
  const file = await ports.readResultsFile(jobObjects.results(job, chunk));
  if (file === undefined) throw new Error(`The results of chunk ${chunk} of job ${job.id} are missing.`);
  return file === '' ? [] : file.split('\n').map((line) => JSON.parse(line) as ChunkResult);
}
