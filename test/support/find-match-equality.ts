/**
 * One labelled set mapped three ways, each row's status, reference hotel and score compared: the
 * CLI (`npm run map`, in a child process, as a partner runs it), a job through the API, and
 * find-match through the API (`view: ENGINE`, requests of 100 hotels).
 *
 * The cross-row claim rule (one reference hotel is one partner hotel) holds among the rows mapped
 * together: a job's rows, the CLI's file, one request's hotels. So the hotels of each request are
 * chosen as a partner holding the whole file would choose them: rows that the engine gives one
 * reference hotel go in one request (`claimGroups`); the rest fill requests in the file's order.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readPartnerInventory, readReferenceInventory, type MappingResult } from '../../shared/mapping';
import { readTabular } from '../../shared/platform/files/tabular';
import type { Runtime } from '../../shared/platform/runtime';
import { importReferenceInventory, referencePortsOf } from '../../shared/reference';
import { completedJob } from './completed-job';
import type { Caller, TestApi } from './test-api';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface EqualityHarness {
  runtime: Runtime;
  request: TestApi['request'];
  messaging: Pick<TestApi['messaging'], 'idle'>;
  caller: Caller;
}

type Answer = Pick<MappingResult, 'status' | 'referenceHotelId' | 'score'>;

export interface Equality {
  rows: number;
  /** Rows whose answer differs, with the three answers: none when all agree. */
  differences: { partnerHotelId: string; cli: Answer | undefined; job: Answer | undefined; findMatch: Answer | undefined }[];
  requests: number;
  /** Requests that held more than one row wanting the same reference hotel. */
  contestedRequests: number;
}

/** Publishes `referenceFile` as the current reference, then maps `partnerFile` the three ways and compares them. */
export async function compareWithJobAndCli(
  harness: EqualityHarness,
  files: { reference: string; partner: string },
  workDirectory: string,
): Promise<Equality> {
  await importReferenceInventory(
    referencePortsOf(harness.runtime),
    readReferenceInventory(readFileSync(files.reference), 'csv'),
    files.reference,
  );
  await harness.messaging.idle();

  const cliOut = join(workDirectory, 'cli-results.jsonl');
  await promisify(execFile)(
    process.execPath,
    [
      join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
      join(ROOT, 'infra/cli/map.ts'),
      '--reference',
      files.reference,
      '--partner',
      files.partner,
      '--out',
      cliOut,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', NODE_OPTIONS: '' },
      maxBuffer: 1 << 24,
    },
  );
  const cli = byPartner(
    readFileSync(cliOut, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as MappingResult),
  );

  const jobId = await completedJob(harness, harness.caller, readFileSync(files.partner, 'utf8'));
  const jobRows: MappingResult[] = [];
  let cursor: string | null = null;
  do {
    const page: any = (
      await harness.request('GET', `/api/v1/mapping/${jobId}/results?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
        as: harness.caller,
      })
    ).body;
    jobRows.push(...page.results);
    cursor = page.nextCursor;
  } while (cursor);
  const job = byPartner(jobRows);

  const hotels = await partnerObjects(files.partner);
  const requests = requestsOf(hotels, cli);
  const found = new Map<string, Answer>();
  let contestedRequests = 0;
  for (const request of requests) {
    const answer = await harness.request('POST', '/api/v1/mapping/match', {
      as: harness.caller,
      json: { hotels: request, view: 'ENGINE' },
    });
    if (answer.status !== 200) throw new Error(`find-match answered ${answer.status}: ${answer.text}`);
    for (const result of answer.body.results) found.set(result.partnerHotelId, result);
    const wanted = request.map((hotel) => cli.get(String(hotel.id))?.referenceHotelId).filter((id) => id);
    if (new Set(wanted).size < wanted.length) contestedRequests++;
  }

  const same = (a: Answer | undefined, b: Answer | undefined) =>
    a !== undefined && b !== undefined && a.status === b.status && a.referenceHotelId === b.referenceHotelId && a.score === b.score;
  const differences = hotels
    .map((hotel) => String(hotel.id))
    .map((id) => ({ partnerHotelId: id, cli: answerOf(cli.get(id)), job: answerOf(job.get(id)), findMatch: answerOf(found.get(id)) }))
    .filter((row) => !same(row.cli, row.job) || !same(row.job, row.findMatch));
  return { rows: hotels.length, differences, requests: requests.length, contestedRequests };
}

const answerOf = (result: Answer | undefined): Answer | undefined =>
  result && { status: result.status, referenceHotelId: result.referenceHotelId, score: result.score };

function byPartner(results: readonly MappingResult[]): Map<string, MappingResult> {
  return new Map(results.map((result) => [result.partnerHotelId, result]));
}

/** The partner file's rows as find-match takes them: each row's cells, the empty ones left out. */
async function partnerObjects(file: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  // Every row the inventory keeps (the same reader as jobs and the CLI): find-match is compared on those.
  const kept = new Set<number>();
  for await (const row of readPartnerInventory(readFileSync(file), 'csv')) if ('hotel' in row) kept.add(row.line);
  for await (const row of readTabular(readFileSync(file), 'csv')) {
    if ('error' in row || !kept.has(row.line)) continue;
    rows.push(Object.fromEntries(Object.entries(row.record as Record<string, string>).filter(([, value]) => value !== '')));
  }
  return rows;
}

/**
 * Requests of at most 100 hotels: the rows whose answer (the CLI's) names one reference hotel
 * together, so a claim's winner and the rows it left in REVIEW meet in one request; then the rest.
 */
function requestsOf(hotels: readonly Record<string, string>[], answers: Map<string, MappingResult>): Record<string, string>[][] {
  const groups = new Map<string, Record<string, string>[]>();
  for (const hotel of hotels) {
    const answer = answers.get(String(hotel.id));
    const wanted = answer?.referenceHotelId ?? `alone:${hotel.id}`;
    groups.set(wanted, [...(groups.get(wanted) ?? []), hotel]);
  }
  const requests: Record<string, string>[][] = [[]];
  for (const group of [...groups.values()].sort((a, b) => b.length - a.length)) {
    if (requests.at(-1)!.length + group.length > 100) requests.push([]);
    requests.at(-1)!.push(...group);
  }
  return requests;
}
