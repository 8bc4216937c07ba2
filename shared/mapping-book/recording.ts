/**
 * Answers recorded into the book after the request that gave them: the request puts a message in
 * the transaction that charges it, so the answers charged are the answers recorded, and the book's
 * record queue writes them, one message of a book at a time. Requests that record at once never race
 * for the feed's head, however many there are.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { messagePut } from '../platform/events/outbox';
import type { Table, TransactItem } from '../platform/table';
import { recordEngineRows } from './book';
import type { JobRow } from './entries';
import type { BookPorts } from './ports';
import { mappingBookRecordQueue, type RecordMessage } from './queues';

export interface RecordingRequest {
  organizationId: string;
  /** Names the request: a message relayed twice is recorded once. */
  requestId: string;
  /** The API key that asked. */
  requestedBy: string;
  at: string;
}

/** The write that asks the record queue to record `rows`, for the transaction of what they are recorded for. */
export function recordingWrite(table: Table, request: RecordingRequest, rows: readonly JobRow[]): TransactItem {
  const { organizationId, requestId, requestedBy, at } = request;
  const message: RecordMessage = { organizationId, requestId, requestedBy, rows: gzipSync(JSON.stringify(rows)).toString('base64') };
  return messagePut(table, mappingBookRecordQueue, message, { id: `${organizationId}-${requestId}`, at });
}

/** Records a message's rows into its book (see recordEngineRows): recording the same rows again changes nothing. */
export function recordQueuedRows(
  ports: Pick<BookPorts, 'store' | 'files' | 'kept' | 'log' | 'clock'>,
  message: RecordMessage,
): Promise<void> {
  const rows = JSON.parse(gunzipSync(Buffer.from(message.rows, 'base64')).toString('utf8')) as JobRow[];
  return recordEngineRows(ports, message.organizationId, rows, { kind: 'MATCH', requestedBy: message.requestedBy });
}
