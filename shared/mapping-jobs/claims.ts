/**
 * The job's finishing stage: the cross-row rule (one reference hotel is one partner hotel) over
 * every chunk's results at once, so a job gives the same results as `npm run map` on the same
 * files, whatever chunk each row fell in; then the views the results API reads (result-views.ts).
 * Safe to repeat: the rule leaves resolved results as they are, and the same results write the same
 * files.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { countResults, jobObjects, type MappingJob, type StoredResult } from './job';
import { decisionThresholds, resolveSharedClaims, sharedClaims, type MappingResult, type MatchingIndex, type PartnerHotel } from '../mapping';
import type { MappingJobStore } from './store';
import type { ChunkResult } from './unchanged-rows';

/** What the chunk workers read and write a job's rows and results through. */
export interface ClaimPorts {
  jobs: Pick<MappingJobStore, 'setCounts'>;
  /** The chunk's rows, or undefined when the inventory is gone. */
  rows(job: MappingJob, chunk: number): Promise<PartnerHotel[] | undefined>;
  index(job: MappingJob): Promise<MatchingIndex>;
  /** Keeps a chunk's results as a file too: exports stream these files. */
  putResultsFile(key: string, jsonLines: string): Promise<void>;
  readResultsFile(key: string): Promise<string | undefined>;
  /** Writes the views a completed job's results are read through. */
  putResultViews(job: MappingJob, results: readonly StoredResult[]): Promise<void>;
}

/**
 * Resolves the job's shared claims, writes the results' views and sets the job's counts from the
 * results as they end up; false when the partner inventory is gone (the rule needs the contested rows).
 */
export async function resolveJobClaims(ports: ClaimPorts, job: MappingJob): Promise<boolean> {
  const chunks = await Promise.all(Array.from({ length: job.chunkCount }, (_, chunk) => readChunkResults(ports, job, chunk)));
  const results = chunks.flat();
  const chunkOf = new Map<string, number>();
  chunks.forEach((chunkResults, chunk) => chunkResults.forEach((result) => chunkOf.set(result.partnerHotelId, chunk)));
  const shared = sharedClaims(results);
  if (shared.length > 0) {
    const inputs = await inputsOf(ports, job, shared.flat(), chunkOf);
    if (!inputs) return false;
    // The engine's own answer, kept beside what the rule makes of it: a later job answering the row from the book applies the rule again.
    const own = new Map(shared.flat().map((result) => [result, { status: result.status, score: result.score, ...(result.reason !== undefined && { reason: result.reason }) }]));
    const changed = new Set(resolveSharedClaims(await ports.index(job), shared, (partnerHotelId) => inputs.get(partnerHotelId)!, decisionThresholds({}).match));
    const claimed = results.filter((result) => changed.has(result));
    // A repeated pass finds the rule applied: the own answer is the first pass's.
    for (const result of claimed) result.unclaimed ??= own.get(result);
    if (claimed.length > 0) {
      const touched = new Set(claimed.map((result) => chunkOf.get(result.partnerHotelId)!));
      for (const chunk of touched) await ports.putResultsFile(jobObjects.results(job, chunk), toJsonLines(chunks[chunk]!));
    }
  }
  await ports.putResultViews(job, chunks.flatMap((chunkResults, chunk) => chunkResults.map((result) => ({ ...result, chunk }))));
  await ports.jobs.setCounts(job, countResults(results));
  return true;
}

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
export async function readChunkResults(ports: Pick<ClaimPorts, 'readResultsFile'>, job: Pick<MappingJob, 'organizationId' | 'id'>, chunk: number): Promise<ChunkResult[]> {
  const file = await ports.readResultsFile(jobObjects.results(job, chunk));
  if (file === undefined) throw new Error(`The results of chunk ${chunk} of job ${job.id} are missing.`);
  return file === '' ? [] : file.split('\n').map((line) => JSON.parse(line) as ChunkResult);
}

/** The partner rows of the contested results, read from the chunks that hold them. */
async function inputsOf(ports: ClaimPorts, job: MappingJob, contested: readonly MappingResult[], chunkOf: ReadonlyMap<string, number>): Promise<Map<string, PartnerHotel> | undefined> {
  const wanted = new Set(contested.map((result) => result.partnerHotelId));
  const inputs = new Map<string, PartnerHotel>();
  for (const chunk of new Set(contested.map((result) => chunkOf.get(result.partnerHotelId)!))) {
    const rows = await ports.rows(job, chunk);
    if (!rows) return undefined;
    for (const row of rows) if (wanted.has(row.id)) inputs.set(row.id, row);
  }
  return inputs;
}
