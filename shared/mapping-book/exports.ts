/**
 * The whole book as one file in the organization's export format (export-format), per source, for a
 * partner who reads the book whole and then follows the feed. Asked for by repeating one request, with
 * the lifecycle of every prepared export (export-format/prepared-export.ts): the first prepares the
 * file on the queue and answers 202; once ready, the file is answered (a fresh URL each time) while it
 * is current: the book unchanged, the format the same, and the file less than EXPORT_KEPT_DAYS old.
 */
import { randomUUID } from 'node:crypto';
import {
  downloadLink,
  openExportFile,
  prepareNamedExport,
  requestPreparedExport,
  resolveFormat,
  sameFormat,
  XLSX_MAX_ROWS,
  type ExportHolder,
  type ResolvedExportFormat,
} from '../export-format';
import { conflict } from '../platform/errors';
import type { ExportFormatConfig } from '../export-format';
import { toExportRow } from '../mapping';
import type { ObjectStore } from '../platform/objects/object-store';
import type { Queue } from '../platform/queue/queue';
import { bookStatistics, listEntries } from './book';
import { formatPosition } from './change-log';
import type { BookEntry } from './entries';
import { BOOK_EXPORTS_PREFIX, EXPORT_KEPT_DAYS } from './files';
import type { BookPorts } from './ports';
import type { BookExport } from './store';

/** A file still being prepared after this long is prepared again by the next request (its message was lost or failed). */
export const EXPORT_OVERDUE_MINUTES = 15;
/** When to ask again while a file is prepared. */
export const EXPORT_RETRY_SECONDS = 5;
/** Entries read per page while the file is written. */
const EXPORT_PAGE = 5_000;

export interface ExportPorts extends Pick<BookPorts, 'store' | 'files' | 'kept' | 'log' | 'clock'> {
  exportFormat(organizationId: string): Promise<ExportFormatConfig | undefined>;
  /** The codes of the suppliers the organization is connected to: the file shows their hotel codes. */
  connectedSuppliers(organizationId: string): Promise<string[]>;
  exportFiles: Pick<ObjectStore, 'put' | 'presignedDownloadUrl'>;
  exports: Pick<Queue<{ organizationId: string; exportId: string; source: string }>, 'send'>;
}

export type ExportAnswer =
  | {
      status: 'READY';
      fileUrl: string;
      expiresAt: string;
      position: string;
      rowCount: number;
      format: ResolvedExportFormat;
      source: string;
    }
  | { status: 'PREPARING'; format: ResolvedExportFormat; source: string; retryAfterSeconds: number };

/** Answers the ready file, or prepares one (or is preparing it) and says when to ask again. */
export async function requestBookExport(ports: ExportPorts, organizationId: string, source: string): Promise<ExportAnswer> {
  const [saved, connected, held, end] = await Promise.all([
    ports.exportFormat(organizationId),
    ports.connectedSuppliers(organizationId),
    ports.store.bookExport(organizationId, source),
    ports.log.endPosition(organizationId),
  ]);
  const format = resolveFormat(saved, connected);
  const answer = await requestPreparedExport(sourceExport(ports, organizationId, source, format, held, formatPosition(end)));
  const ready = answer.status === 'READY' && readyFile(answer.held);
  if (ready) {
    return {
      status: 'READY',
      ...(await downloadLink(ports.exportFiles, ready.key, ports.clock.now(), `mapping-book-${source}-${ready.position}`)),
      position: ready.position,
      rowCount: ready.rowCount,
      format: answer.held.format,
      source,
    };
  }
  return { status: 'PREPARING', format: answer.held.format, source, retryAfterSeconds: EXPORT_RETRY_SECONDS };
}

/** A ready export's file, as its item holds it. */
function readyFile({ position, readyAt, key, rowCount }: BookExport) {
  return position !== undefined && readyAt !== undefined && key !== undefined && rowCount !== undefined
    ? { position, readyAt, key, rowCount }
    : undefined;
}

/**
 * A source's export as the lifecycle holds it, for a request in `format` with the feed at
 * `position`; `first`, the export the request read with them (read again after a claim lost).
 */
function sourceExport(
  ports: ExportPorts,
  organizationId: string,
  source: string,
  format: ResolvedExportFormat,
  first: BookExport | undefined,
  position: string,
): ExportHolder<BookExport> {
  let reads = 0;
  return {
    held: async () => (reads++ === 0 ? first : ports.store.bookExport(organizationId, source)),
    idOf: (held) => held.exportId,
    isCurrent: (held) => {
      const file = readyFile(held);
      const age = file && ports.clock.now().getTime() - Date.parse(file.readyAt);
      return file?.position === position && sameFormat(held.format, format) && age !== undefined && age < EXPORT_KEPT_DAYS * 86_400_000;
    },
    overdueSeconds: EXPORT_OVERDUE_MINUTES * 60,
    next: async () => {
      if (format.format === 'xlsx') await refuseOverSheet(ports, organizationId, source);
      return { exportId: randomUUID(), source, status: 'PREPARING', format, requestedAt: ports.clock.now().toISOString() };
    },
    // One export per book and source at a time: of two requests at once, one prepares it.
    claim: (next, replaced) => ports.store.replaceExport(organizationId, next, replaced?.exportId),
    send: (next) => ports.exports.send({ organizationId, exportId: next.exportId, source }),
    release: (next) => ports.store.releaseExport(organizationId, source, next.exportId),
    now: () => ports.clock.now(),
  };
}

/** An XLSX file is one sheet: a source of more entries than a sheet holds is refused before a file is prepared (a ready one was counted when asked for). */
async function refuseOverSheet(
  ports: Pick<ExportPorts, 'store' | 'files' | 'kept'>,
  organizationId: string,
  source: string,
): Promise<void> {
  const cells = (await bookStatistics(ports, organizationId))[source] ?? {};
  const entries = Object.entries(cells).reduce((sum, [cell, count]) => (cell.startsWith('DELETED#') ? sum : sum + count), 0);
  if (entries > XLSX_MAX_ROWS) {
    throw conflict(
      `The book holds ${entries} entries of ${source}; an XLSX sheet holds at most ${XLSX_MAX_ROWS}. Choose csv or jsonl (PUT /api/v1/export-format).`,
    );
  }
}

/** An entry's row: the job is the one whose row last changed the entry (none when a person, a find-match answer or the reference did). */
function exportRow(entry: BookEntry, format: ResolvedExportFormat) {
  const mappingJobId = entry.cause.kind === 'JOB' ? entry.cause.mappingJobId : null;
  return toExportRow(
    { ...entry, partnerHotelName: entry.partner.name },
    { mappingJobId, partnerInventoryId: null, suppliers: format.suppliers ?? [] },
  );
}

/** The worker: writes the file of the export the message names, unless it has been replaced or is ready already. */
export async function prepareBookExport(
  ports: ExportPorts,
  message: { organizationId: string; exportId: string; source: string },
): Promise<void> {
  const { organizationId, exportId, source } = message;
  const held = { held: () => ports.store.bookExport(organizationId, source), idOf: (current: BookExport) => current.exportId };
  await prepareNamedExport(held, exportId, (current) => writeBookExport(ports, organizationId, current));
}

/** Writes the file of an export of the book (every entry of its source but the DELETED ones, in partner id order) and marks it ready. */
async function writeBookExport(ports: ExportPorts, organizationId: string, held: BookExport): Promise<void> {
  const { exportId, source } = held;
  // Read before the entries: every change before it is in the file; replaying later ones is harmless (each is the entry as it became).
  const position = formatPosition(await ports.log.endPosition(organizationId));
  const writer = await openExportFile(held.format);
  let after: string | null = null;
  do {
    const page: { entries: BookEntry[]; nextKey: string | null } = await listEntries(ports, organizationId, { source }, EXPORT_PAGE, after);
    writer.add(page.entries.map((entry) => exportRow(entry, held.format)));
    after = page.nextKey;
  } while (after !== null);
  const file = await writer.file();
  const key = `${BOOK_EXPORTS_PREFIX}${organizationId}/${exportId}.${file.extension}`;
  await ports.exportFiles.put(key, file.bytes, file.contentType);
  await ports.store.exportReady(organizationId, {
    ...held,
    status: 'READY',
    position,
    readyAt: ports.clock.now().toISOString(),
    key,
    rowCount: writer.rowCount,
  });
}
