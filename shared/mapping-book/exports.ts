/**
 * The whole book as one file in the organization's export format (export-format), per source, for a
 * partner who reads the book whole and then follows the feed. Asked for by repeating one request (as
 * a job's large export is): the first prepares the file on the queue and answers 202; once ready,
 * the file is answered (a fresh URL each time) until the book changes, the format changes or it is
 * EXPORT_KEPT_DAYS old; then the next request prepares another.
 */
import { randomUUID } from 'node:crypto';
import { downloadLink, openExportFile, resolveFormat, sameFormat, XLSX_MAX_ROWS, type ResolvedExportFormat } from '../export-format';
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
  const now = ports.clock.now();
  const age = (at: string) => now.getTime() - Date.parse(at);
  if (
    held?.status === 'READY' &&
    held.position === formatPosition(end) &&
    sameFormat(held.format, format) &&
    age(held.readyAt!) < EXPORT_KEPT_DAYS * 86_400_000
  ) {
    return {
      status: 'READY',
      ...(await downloadLink(ports.exportFiles, held.key!, now, `mapping-book-${source}-${held.position}`)),
      position: held.position,
      rowCount: held.rowCount!,
      format: held.format,
      source,
    };
  }
  if (held?.status === 'PREPARING' && age(held.requestedAt) < EXPORT_OVERDUE_MINUTES * 60_000) {
    return { status: 'PREPARING', format: held.format, source, retryAfterSeconds: EXPORT_RETRY_SECONDS };
  }
  if (format.format === 'xlsx') await refuseOverSheet(ports, organizationId, source);
  const next: BookExport = { exportId: randomUUID(), source, status: 'PREPARING', format, requestedAt: now.toISOString() };
  // One export per book and source at a time: of two requests at once, one prepares it.
  if (await ports.store.replaceExport(organizationId, next, held?.exportId))
    await ports.exports.send({ organizationId, exportId: next.exportId, source });
  const preparing = (await ports.store.bookExport(organizationId, source)) ?? next;
  return { status: 'PREPARING', format: preparing.format, source, retryAfterSeconds: EXPORT_RETRY_SECONDS };
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

/** Writes the file of a requested export (every entry of its source but the DELETED ones, in partner id order) and marks it ready. */
export async function prepareBookExport(
  ports: ExportPorts,
  message: { organizationId: string; exportId: string; source: string },
): Promise<void> {
  const { organizationId, exportId, source } = message;
  const held = await ports.store.bookExport(organizationId, source);
  if (held?.exportId !== exportId || held.status !== 'PREPARING') return;
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
