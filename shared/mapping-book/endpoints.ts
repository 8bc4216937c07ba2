/** The mapping book's endpoints: its entries, a decision on one, and the change feed. */
import { randomUUID } from 'node:crypto';
import { conflict, invalidInput, notFound } from '../platform/errors';
import type { Implementation } from '../platform/http/endpoint';
import { decodeCursor, encodeCursor } from '../platform/table';
import { answerSearchOf, referenceFactsIn, type ReferenceHotelFacts, type ReferenceHotelShown, type ScoreOrder } from '../mapping';
import { referenceHotelShown } from '../reference';
import { connectedSupplierCodes } from '../suppliers';
import { bookStatistics, currentEntry, decideEntry, listEntries, searchEntries, withdrawDecision } from './book';
import { formatPosition, parsePosition } from './change-log';
import { SCORE_STEPS, type ScoredKey } from './entry-search';
import { OWN_SOURCE, type BookEntry } from './entries';
import { mappingBookRoutes } from './routes';
import { bookPorts, exportPorts } from './services';
import { requestBookExport } from './exports';
import { changeView, entryView } from './views';
import { statisticsView } from './statistics';

/** A page's cursor in key order: the key of its last entry, in the platform's cursor form. */
const CURSOR = { partition: {}, attributes: ['after'] } as const;
const encodeKey = (key: string) => encodeCursor({ after: key })!;
const decodeKey = (cursor: string | undefined) => decodeCursor(cursor, CURSOR)?.after ?? null;

/** A page's cursor in a score order: the order, and the score and key of its last entry. */
const scoredCursor = (order: ScoreOrder) => ({ partition: { order }, attributes: ['score', 'after'] }) as const;
const encodeScored = (order: ScoreOrder, { score, key }: ScoredKey) => encodeCursor({ order, score: String(score), after: key })!;
function decodeScored(order: ScoreOrder, cursor: string | undefined): ScoredKey | null {
  const decoded = decodeCursor(cursor, scoredCursor(order));
  if (decoded === undefined) return null;
  const score = Number(decoded.score);
  if (!Number.isInteger(score) || score < 0 || score > SCORE_STEPS) throw invalidInput('cursor: is not a cursor of this list.');
  return { score, key: decoded.after! };
}

export const getMappingBook: Implementation<typeof mappingBookRoutes.getMappingBook> = async ({ principal }, runtime) => {
  const ports = bookPorts(runtime);
  const [statistics, end, state] = await Promise.all([
    bookStatistics(ports, principal.organizationId),
    ports.log.endPosition(principal.organizationId),
    ports.store.state(principal.organizationId),
  ]);
  return { status: 200, json: { ...statisticsView(statistics), position: formatPosition(end), writing: state.writing ?? null } };
};

export const listBookEntries: Implementation<typeof mappingBookRoutes.listBookEntries> = async ({ principal, query }, runtime) => {
  const { limit = 100, cursor, order, partnerHotelId, name, city, country, referenceHotelId, supplier, ...filter } = query;
  const connected = await connectedSupplierCodes(runtime, principal.organizationId);
  const asked = answerSearchOf({ name, city, country, referenceHotelId, supplier }, connected);
  const search = asked || partnerHotelId !== undefined ? { ...asked, ...(partnerHotelId !== undefined && { partnerHotelId }) } : undefined;
  const view = (entries: BookEntry[]) => entries.map((entry) => entryView(entry, connected));
  // A search or an order reads the generation's search columns; a plain listing walks its index.
  if (search || order) {
    const start = order ? { order, after: decodeScored(order, cursor) } : { order: 'KEY' as const, afterKey: decodeKey(cursor) };
    const page = await searchEntries(bookPorts(runtime), principal.organizationId, search ?? {}, filter, limit, start);
    const nextCursor = page.next === null ? null : order ? encodeScored(order, page.next) : encodeKey(page.next.key);
    return { status: 200, json: { entries: view(page.entries), nextCursor, total: page.total } };
  }
  const page = await listEntries(bookPorts(runtime), principal.organizationId, filter, limit, decodeKey(cursor));
  return { status: 200, json: { entries: view(page.entries), nextCursor: page.nextKey === null ? null : encodeKey(page.nextKey) } };
};

export const getBookEntry: Implementation<typeof mappingBookRoutes.getBookEntry> = async ({ principal, query }, runtime) => {
  const id = { source: query.source ?? OWN_SOURCE, partnerHotelId: query.partnerHotelId };
  const [entry, connected] = await Promise.all([
    currentEntry(bookPorts(runtime), principal.organizationId, id),
    connectedSupplierCodes(runtime, principal.organizationId),
  ]);
  if (!entry) throw notFound(`The book has no entry ${id.partnerHotelId} of source ${id.source}.`);
  return { status: 200, json: entryView(entry, connected) };
};

export const reviewBookEntry: Implementation<typeof mappingBookRoutes.reviewBookEntry> = async ({ principal, body }, runtime) => {
  const ports = bookPorts(runtime);
  const id = { source: body.source ?? OWN_SOURCE, partnerHotelId: body.partnerHotelId };
  const entry = await currentEntry(ports, principal.organizationId, id);
  if (!entry) throw notFound(`The book has no entry ${id.partnerHotelId} of source ${id.source}.`);
  const decidedAt = runtime.clock.now().toISOString();
  const cause = { kind: 'REVIEW' as const, decidedBy: principal.keyId };
  // MAPPING_ERROR_RESOLVED, as a decision on a job's row tells it, in the decision's transaction (the outbox).
  const told = (decision: 'MATCH' | 'NO_MATCH' | 'WITHDRAW', referenceHotelId: string | null) =>
    ports.store.eventItem({
      id: randomUUID(),
      type: 'MAPPING_ERROR_RESOLVED',
      organizationId: principal.organizationId,
      occurredAt: decidedAt,
      data: {
        mappingJobId: null,
        ...id,
        decision,
        referenceHotelId,
        previousStatus: entry.status,
        previousReferenceHotelId: entry.referenceHotelId,
        ...(body.note !== undefined && { note: body.note }),
        decidedBy: principal.keyId,
        decidedAt,
      },
    });
  if (body.decision === 'WITHDRAW') {
    if (!entry.decision) throw conflict(`The entry ${id.partnerHotelId} of source ${id.source} has no decision to withdraw.`);
    const withdrawn = entry.decision.decidedAt;
    const undone = await withdrawDecision(
      ports,
      principal.organizationId,
      id,
      { withdrawnDecidedAt: withdrawn, decidedBy: principal.keyId, decidedAt },
      cause,
      {
        expectedDecidedAt: body.expectedDecidedAt ?? withdrawn,
        writes: [told('WITHDRAW', entry.engine.referenceHotelId)],
      },
    );
    return { status: 200, json: entryView(undone, await connectedSupplierCodes(runtime, principal.organizationId)) };
  }
  // The entry's own hotels as it holds them; any other (a candidate too: they carry no codes) as the current reference has it.
  let hotel: Pick<ReferenceHotelShown, 'referenceHotelName'> & ReferenceHotelFacts = { referenceHotelName: '' };
  if (body.decision === 'MATCH') {
    const held = [entry.engine, entry].find(
      (pointed) => pointed.referenceHotelId === body.referenceHotelId && pointed.referenceHotelName !== null,
    );
    const found = held
      ? { ...referenceFactsIn(held), referenceHotelName: held.referenceHotelName! }
      : await referenceHotelShown(runtime, body.referenceHotelId);
    if (!found) throw invalidInput(`referenceHotelId: no reference hotel has the id ${body.referenceHotelId}.`);
    hotel = found;
  }
  const decided = await decideEntry(
    ports,
    principal.organizationId,
    id,
    {
      decision: body.decision,
      referenceHotelId: body.decision === 'MATCH' ? body.referenceHotelId : null,
      referenceHotelName: body.decision === 'MATCH' ? hotel.referenceHotelName : null,
      ...referenceFactsIn(hotel),
      ...(body.note !== undefined && { note: body.note }),
      decidedBy: principal.keyId,
      decidedAt,
      partner: entry.partner,
    },
    cause,
    { expectedDecidedAt: body.expectedDecidedAt, writes: [told(body.decision, body.decision === 'MATCH' ? body.referenceHotelId : null)] },
  );
  return { status: 200, json: entryView(decided, await connectedSupplierCodes(runtime, principal.organizationId)) };
};

export const listBookChanges: Implementation<typeof mappingBookRoutes.listBookChanges> = async ({ principal, query }, runtime) => {
  const { log } = bookPorts(runtime);
  if (query.after !== undefined && query.since !== undefined) throw invalidInput('after, since: give one of them, not both');
  const after =
    query.after !== undefined
      ? parsePosition(query.after)
      : query.since !== undefined
        ? await log.positionAt(principal.organizationId, new Date(query.since))
        : await log.oldestPosition(principal.organizationId);
  const [page, connected] = await Promise.all([
    log.read(principal.organizationId, after, query.limit ?? 100),
    connectedSupplierCodes(runtime, principal.organizationId),
  ]);
  return {
    status: 200,
    json: {
      changes: page.changes.map((change) => changeView(change, connected)),
      position: formatPosition(page.position),
      hasMore: page.more,
    },
  };
};

export const countBookChanges: Implementation<typeof mappingBookRoutes.countBookChanges> = async ({ principal, query }, runtime) => {
  const { log } = bookPorts(runtime);
  const after = query.after === undefined ? await log.oldestPosition(principal.organizationId) : parsePosition(query.after);
  const { position, ...counts } = await log.counts(principal.organizationId, after);
  return { status: 200, json: { ...counts, position: formatPosition(position) } };
};

export const exportMappingBook: Implementation<typeof mappingBookRoutes.exportMappingBook> = async ({ principal, query }, runtime) => {
  const answer = await requestBookExport(exportPorts(runtime), principal.organizationId, query.source ?? OWN_SOURCE);
  const {
    format: { fields, format, compression },
    source,
  } = answer;
  if (answer.status === 'READY') {
    const { fileUrl, expiresAt, position, rowCount } = answer;
    return { status: 200, json: { fileUrl, expiresAt, position, rowCount, source, format, compression, fields } };
  }
  return {
    status: 202,
    json: { status: 'PREPARING' as const, source, format, compression, fields },
    headers: { 'retry-after': String(answer.retryAfterSeconds) },
  };
};
