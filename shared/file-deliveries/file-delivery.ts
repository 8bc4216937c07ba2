/** A file delivery: one completed job's export file for one destination, written by attempts. */
import { createHash } from 'node:crypto';
import type { FailureReason } from './transfer';

export const FILE_DELIVERY_STATUSES = ['PENDING', 'RETRYING', 'SUCCEEDED', 'FAILED'] as const;
/** FAILED: every retry was spent, or the destination was paused or removed. */
export type FileDeliveryStatus = (typeof FILE_DELIVERY_STATUSES)[number];

export const DELIVERY_HISTORY_DAYS = 30;

export interface FileDeliveryAttempt {
  number: number;
  attemptedAt: string;
  succeeded: boolean;
  durationMs: number;
  reasonCode?: FailureReason | 'DESTINATION_INACTIVE';
  error?: string;
}

export interface FileDelivery {
  id: string;
  organizationId: string;
  destinationId: string;
  mappingJobId: string;
  /** The export file in the results bucket. */
  fileKey: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  /** Where the file lands (destination.ts locationOf). */
  location: string;
  status: FileDeliveryStatus;
  attempts: FileDeliveryAttempt[];
  nextAttemptAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The same job's file to the same destination is one delivery: its id is derived from both. */
export function fileDeliveryIdOf(mappingJobId: string, destinationId: string): string {
  const hex = createHash('sha256').update(`${mappingJobId}\n${destinationId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The documented name of a delivered file, the same as a download's: `mapping-<mappingJobId>` and
 * the export's extension (`.csv`, `.json`, `.jsonl`, `.xlsx`, with `.gz` when compressed). One job,
 * one name: a delivery repeated replaces the file with the same bytes.
 */
export function deliveredFileName(mappingJobId: string, exportKey: string): string {
  const base = exportKey.slice(exportKey.lastIndexOf('/') + 1);
  return `mapping-${mappingJobId}${base.includes('.') ? base.slice(base.indexOf('.')) : ''}`;
}
