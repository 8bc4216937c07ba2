/**
 * A job's finishing stage, in parts on the chunk queue, each part within a fixed memory whatever
 * the job's size:
 *
 * 1. **claims**, one message per part of the reference hotels (by a hash of their ids): every
 *    chunk's claims file (its MATCHED rows' hotel, partner id, score and method), that part's
 *    hotels only; the cross-row rule over the hotels claimed more than once (one reference hotel is
 *    one partner hotel: shared-claims.ts), what it changed written as the part's file;
 * 2. **views**, one message per run of chunks: their results with the rule's changes applied (their
 *    files written again, for exports), written as a part of the views (result-views.ts);
 * 3. **scores**, one message per engine partition that more than one part holds: the parts' runs
 *    merged, best score first;
 * 4. the message that ends the last stage writes the views' manifest, sets the job's counts from
 *    the parts and completes the job (lifecycle.ts).
 *
 * Safe to repeat: each part writes the same files from the same inputs, is counted once (number and
 * string sets on the job), and whichever delivery finds a stage's parts all counted starts the next.
 */
import { decisionThresholds, resolveSharedClaims, type MappingResult, type MatchingIndex, type PartnerHotel } from '../mapping';
import type { ObjectStore } from '../platform/objects/object-store';
import { defineSettings } from '../platform/config';
import type { Queue } from '../platform/queue/queue';
import {
  addScoreFigures,
  emptyScoreFigures,
  jobObjects,
  type FinishingPlan,
  type ScoreFigures,
  type FinishingState,
  type JobCounts,
  type MappingJob,
  type StoredResult,
} from './job';
import {
  mergePartition,
  partitionsToMerge,
  readMergedPartition,
  readViewPart,
  VIEW_BLOCK_ROWS,
  writeViewPart,
  writeViewsManifest,
  type MergedPartition,
  type ViewPart,
} from './result-views';
import { log } from '../platform/logging';
import type { ChunkMessage, FinishingMessage } from './queues';
import type { MappingJobStore } from './store';
import { readChunkResults, toJsonLines } from './results-files';
import type { ClaimedAway } from '../mapping-book';
import { inventoryChunkRows } from '../partner-inventories';

/** How the finishing stage is cut: the job's rows per claims part and per views part. */
export const FINISHING_SETTINGS = defineSettings({ claimPartRows: 'FINISHING_CLAIM_PART_ROWS', viewPartRows: 'FINISHING_VIEW_PART_ROWS' });

export interface FinishingSizes {
  /** A claims part takes the claims of about this many of the job's rows (a few dozen bytes each). */
  claimPartRows: number;
  /** A views part holds the rows of as many whole chunks as make at most this many (about 1 KB each in memory), and at least one chunk. */
  viewPartRows: number;
}

export const DEFAULT_FINISHING_SIZES: FinishingSizes = { claimPartRows: 500_000, viewPartRows: 100_000 };

export function finishingPlan(job: Pick<MappingJob, 'counts' | 'chunkCount'>, sizes: FinishingSizes): FinishingPlan {
  return {
    claimParts: Math.max(1, Math.ceil(job.counts.total / sizes.claimPartRows)),
    viewParts: Math.max(1, Math.ceil(job.chunkCount / chunksPerViewPart(job, sizes))),
  };
}

function chunksPerViewPart(job: Pick<MappingJob, 'counts'>, sizes: Pick<FinishingSizes, 'viewPartRows'>): number {
  return Math.max(1, Math.floor(sizes.viewPartRows / inventoryChunkRows(job.counts.total)));
}

export interface FinishingPorts {
  jobs: Pick<MappingJobStore, 'get' | 'finishing' | 'planFinishing' | 'finishingPartDone' | 'planMerges' | 'setCounts'>;
  /** Where the stages' messages go (the chunk queue). */
  finishing: Pick<Queue<ChunkMessage>, 'sendAll'>;
  /** The chunk's rows, or undefined when the inventory is gone. */
  rows(job: MappingJob, chunk: number): Promise<PartnerHotel[] | undefined>;
  index(job: MappingJob): Promise<MatchingIndex>;
  putResultsFile(key: string, jsonLines: string): Promise<void>;
  readResultsFile(key: string): Promise<string | undefined>;
  /** The job's views' files (the results bucket). */
  views: Pick<ObjectStore, 'get' | 'put'>;
}

/** What the rule changed of a claimant: applied to its row by the views stage. */
interface ClaimChange {
  chunk: number;
  partnerHotelId: string;
  status: MappingResult['status'];
  score: number;
  reason?: string;
  /** The engine's own answer, before the rule. */
  unclaimed: ClaimedAway;
}

/** A MATCHED row's claim on its hotel, as its chunk's claims file holds it: [hotel, partner id, score, method, reason]. */
type ClaimLine = [string, string, number, MappingResult['method'], string | null];

/** Reads of one stage made at once. */
const READS_AT_ONCE = 16;

/** A chunk's claims file: its MATCHED rows' claims, written beside its results before it is counted. */
export function claimsFileOf(results: readonly MappingResult[]): string {
  return results
    .flatMap((result) =>
      result.status === 'MATCHED' && result.referenceHotelId !== null
        ? [[result.referenceHotelId, result.partnerHotelId, result.score, result.method, result.reason ?? null] satisfies ClaimLine]
        : [],
    )
    .map((claim) => JSON.stringify(claim))
    .join('\n');
}

/** FNV-1a: which claims part a reference hotel falls in. */
function claimPartOf(hotelId: string, parts: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < hotelId.length; i++) hash = Math.imul(hash ^ hotelId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % parts;
}

async function inGroups<T>(count: number, read: (i: number) => Promise<T>): Promise<T[]> {
  const all: T[] = [];
  for (let start = 0; start < count; start += READS_AT_ONCE)
    all.push(...(await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, count - start) }, (_, i) => read(start + i)))));
  return all;
}

const lines = (text: string | undefined) => (text ? text.split('\n') : []);

/** The rule over one part's hotels: the claims it held, or undefined when the partner inventory is gone (the rule needs the contested rows). */
async function finishClaims(ports: FinishingPorts, job: MappingJob, plan: FinishingPlan, part: number): Promise<number | undefined> {
  const claimsByHotel = new Map<string, MappingResult[]>();
  const chunkOf = new Map<string, number>();
  await inGroups(job.chunkCount, async (chunk) => {
    const file = await ports.readResultsFile(jobObjects.claims(job, chunk));
    if (file === undefined) throw new Error(`The claims of chunk ${chunk} of job ${job.id} are missing.`);
    for (const line of lines(file)) {
      const [hotelId, partnerHotelId, score, method, reason] = JSON.parse(line) as ClaimLine;
      if (claimPartOf(hotelId, plan.claimParts) !== part) continue;
      const claim: MappingResult = {
        partnerHotelId,
        partnerHotelName: '',
        referenceHotelId: hotelId,
        referenceHotelName: null,
        status: 'MATCHED',
        method,
        score,
        evidence: null,
        candidates: [],
      };
      if (reason !== null) claim.reason = reason;
      (claimsByHotel.get(hotelId) ?? claimsByHotel.set(hotelId, []).get(hotelId)!).push(claim);
      chunkOf.set(partnerHotelId, chunk);
    }
  });
  const shared = [...claimsByHotel.values()].filter((claims) => claims.length > 1);
  const changes: ClaimChange[] = [];
  if (shared.length > 0) {
    const inputs = await inputsOf(ports, job, shared.flat(), chunkOf);
    if (!inputs) return undefined;
    const own = new Map(
      shared
        .flat()
        .map((claim) => [claim, { status: claim.status, score: claim.score, ...(claim.reason !== undefined && { reason: claim.reason }) }]),
    );
    for (const claim of resolveSharedClaims(
      await ports.index(job),
      shared,
      (partnerHotelId) => inputs.get(partnerHotelId)!,
      decisionThresholds({}).match,
    )) {
      const { partnerHotelId, status, score, reason } = claim;
      changes.push({
        chunk: chunkOf.get(partnerHotelId)!,
        partnerHotelId,
        status,
        score,
        ...(reason !== undefined && { reason }),
        unclaimed: own.get(claim)!,
      });
    }
  }
  await ports.putResultsFile(jobObjects.claimChanges(job, part), changes.map((change) => JSON.stringify(change)).join('\n'));
  return chunkOf.size;
}

/** The partner rows of the contested claims, read from the chunks that hold them. */
async function inputsOf(
  ports: FinishingPorts,
  job: MappingJob,
  contested: readonly MappingResult[],
  chunkOf: ReadonlyMap<string, number>,
): Promise<Map<string, PartnerHotel> | undefined> {
  const wanted = new Set(contested.map((result) => result.partnerHotelId));
  const inputs = new Map<string, PartnerHotel>();
  for (const chunk of new Set(contested.map((result) => chunkOf.get(result.partnerHotelId)!))) {
    const rows = await ports.rows(job, chunk);
    if (!rows) return undefined;
    for (const row of rows) if (wanted.has(row.id)) inputs.set(row.id, row);
  }
  return inputs;
}

/** A part of the views: its chunks' results with the rule's changes applied (their files written again). */
async function finishViews(
  ports: FinishingPorts,
  job: MappingJob,
  plan: FinishingPlan,
  sizes: Pick<FinishingSizes, 'viewPartRows'>,
  part: number,
): Promise<number> {
  const from = part * chunksPerViewPart(job, sizes);
  const to = Math.min(job.chunkCount, from + chunksPerViewPart(job, sizes));
  const changes = new Map<string, ClaimChange>();
  for (const text of await inGroups(plan.claimParts, (claimPart) => ports.readResultsFile(jobObjects.claimChanges(job, claimPart)))) {
    for (const line of lines(text)) {
      const change = JSON.parse(line) as ClaimChange;
      if (change.chunk >= from && change.chunk < to) changes.set(change.partnerHotelId, change);
    }
  }
  const chunks = await inGroups(to - from, async (i) => {
    const chunk = from + i;
    const results = await readChunkResults(ports, job, chunk);
    let changed = false;
    for (const result of results) {
      const change = changes.get(result.partnerHotelId);
      if (change?.chunk !== chunk) continue;
      result.status = change.status;
      result.score = change.score;
      if (change.reason === undefined) delete result.reason;
      else result.reason = change.reason;
      // A repeated pass finds the rule applied: the own answer is the first pass's.
      result.unclaimed ??= change.unclaimed;
      changed = true;
    }
    if (changed) await ports.putResultsFile(jobObjects.results(job, chunk), toJsonLines(results));
    return results.map((result): StoredResult => ({ ...result, chunk }));
  });
  return (await writeViewPart(ports.views, job, part, chunks.flat())).rows;
}

async function viewParts(ports: FinishingPorts, job: MappingJob, plan: FinishingPlan): Promise<ViewPart[]> {
  return inGroups(plan.viewParts, async (part) => {
    const index = await readViewPart(ports.views, job, part);
    if (!index) throw new Error(`Part ${part} of the views of job ${job.id} is missing.`);
    return index;
  });
}

/** The views' manifest, once every part is written and every partition merged; the job's counts and score figures, summed from the parts. */
async function finishManifest(
  ports: FinishingPorts,
  job: MappingJob,
  plan: FinishingPlan,
): Promise<{ counts: Omit<JobCounts, 'total'>; scores?: ScoreFigures }> {
  const parts = await viewParts(ports, job, plan);
  const merged: Record<string, MergedPartition> = {};
  for (const partition of plan.merges ?? []) merged[partition] = await readMergedPartition(ports.views, job, partition);
  await writeViewsManifest(ports.views, job, parts, merged);
  const counts = parts.reduce(
    (sum, part) => ({
      processed: sum.processed + part.counts.processed,
      matched: sum.matched + part.counts.matched,
      review: sum.review + part.counts.review,
      unmatched: sum.unmatched + part.counts.unmatched,
      unchanged: sum.unchanged + part.counts.unchanged,
    }),
    { processed: 0, matched: 0, review: 0, unmatched: 0, unchanged: 0 },
  );
  const scores = parts.every((part) => part.scores)
    ? parts.reduce((sum, part) => addScoreFigures(sum, part.scores!), emptyScoreFigures())
    : undefined;
  return { counts, ...(scores && { scores }) };
}

const message = (
  job: Pick<MappingJob, 'organizationId' | 'id'>,
  stage: FinishingMessage['finishing'],
  part: number | string,
): FinishingMessage => ({
  organizationId: job.organizationId,
  mappingJobId: job.id,
  finishing: stage,
  ...(typeof part === 'number' ? { part } : { partition: part }),
});

type Stage = FinishingMessage['finishing'];

const STAGES: readonly Stage[] = ['claims', 'views', 'scores'];

function doneParts(state: FinishingState, stage: Stage): ReadonlySet<number | string> {
  return (stage === 'claims' ? state.doneClaimParts : stage === 'views' ? state.doneViewParts : state.doneMerges) ?? new Set();
}

/**
 * Moves the finishing stage on from where it stands: sends the parts left of the first stage not
 * done (from the start, or once the stage `after` is done: a part of a stage still running sends
 * nothing), or, every stage done, writes the views' manifest and sets the counts ('complete').
 */
async function advance(ports: FinishingPorts, job: MappingJob, state: FinishingState, after?: Stage): Promise<'complete' | 'running'> {
  const plan = state.plan;
  for (const [index, stage] of STAGES.entries()) {
    const parts: (number | string)[] =
      stage === 'claims'
        ? Array.from({ length: plan.claimParts }, (_, part) => part)
        : stage === 'views'
          ? Array.from({ length: plan.viewParts }, (_, part) => part)
          : (plan.merges ??= await ports.jobs.planMerges(job, partitionsToMerge(await viewParts(ports, job, plan))));
    const left = parts.filter((part) => !doneParts(state, stage).has(part));
    if (left.length === 0) continue;
    if (after === undefined || STAGES.indexOf(after) === index - 1)
      await ports.finishing.sendAll(left.map((part) => message(job, stage, part)));
    return 'running';
  }
  const { counts, scores } = await finishManifest(ports, job, plan);
  await ports.jobs.setCounts(job, counts, scores);
  return 'complete';
}

/** Starts (or, delivered again, resumes) the finishing stage of a job whose chunks are all counted: plans it once and sends the parts left. */
export async function startFinishing(ports: FinishingPorts, job: MappingJob, sizes: FinishingSizes): Promise<'complete' | 'running'> {
  return advance(ports, job, await ports.jobs.planFinishing(job, finishingPlan(job, sizes)));
}

/**
 * Runs one part of the finishing stage (once: a part counted before is not run again), then moves
 * the stage on. 'complete' when the views are written and the counts set (the job is to be
 * completed), 'inventory_gone' when the rule cannot read its rows, else 'running'.
 */
export async function runFinishingPart(
  ports: FinishingPorts,
  part: FinishingMessage,
  sizes: FinishingSizes,
): Promise<'complete' | 'inventory_gone' | 'running'> {
  const job = await ports.jobs.get(part.organizationId, part.mappingJobId);
  const state = job?.status === 'RUNNING' ? await ports.jobs.finishing(job) : undefined;
  if (!job || !state) return 'running';
  const { plan } = state;
  const stage = part.finishing;
  const name = part.part ?? part.partition!;
  if (doneParts(state, stage).has(name)) return advance(ports, job, state, stage);
  const started = performance.now();
  let held: number;
  if (stage === 'claims') {
    const claims = await finishClaims(ports, job, plan, name as number);
    if (claims === undefined) return 'inventory_gone';
    held = claims;
  } else if (stage === 'views') held = await finishViews(ports, job, plan, sizes, name as number);
  else {
    await mergePartition(ports.views, job, name as string, await viewParts(ports, job, plan));
    // A merge holds a block of each part's run at a time, whatever the partition's rows.
    held = plan.viewParts * VIEW_BLOCK_ROWS;
  }
  // One line per part: where a job's finishing time goes, and the rows the part held at once (operators, bench:jobs).
  log('info', 'finishing part done', {
    mappingJobId: job.id,
    stage,
    part: name,
    rowsHeld: held,
    ms: Math.round(performance.now() - started),
  });
  return advance(ports, job, await ports.jobs.finishingPartDone(job, stage, name), stage);
}
