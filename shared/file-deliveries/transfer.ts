/** Writing a file to a destination, and the reasons a write fails, in codes a partner's machine can read. */
import { DESTINATION_REFUSED } from '../platform/network/destinations';
import type { DeliveryDestination } from './destination';

export const FAILURE_REASONS = [
  /** The credentials were refused: the password, key, access key, or the role's trust. */
  'AUTH_REFUSED',
  /** The SFTP server presented another host key than the one pinned. */
  'HOST_KEY_CHANGED',
  /** The bucket or folder does not exist. */
  'NOT_FOUND',
  /** The credentials were accepted but may not write there. */
  'ACCESS_DENIED',
  /** The server refused or broke off the write (a full disk, a quota, a dropped connection). */
  'WRITE_FAILED',
  'TIMEOUT',
  /** Nothing answered at the host and port, or the name does not resolve. */
  'CONNECTION_FAILED',
  /** The host resolves to an address the service never connects to (private, loopback, link-local, …). */
  'DESTINATION_NOT_ALLOWED',
  /** The service failed before reaching the destination; it is retried like any failure. */
  'SERVICE_ERROR',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export class TransferFailure extends Error {
  constructor(
    readonly reasonCode: FailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'TransferFailure';
  }
}

/** The destination's credentials, opened for one transfer and never stored or logged. */
export interface OpenedCredentials {
  secretAccessKey?: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
}

export interface DeliveredFile {
  name: string;
  bytes: Buffer;
  contentType: string;
}

export interface FileTransfer {
  /** Writes the file whole under its name: a reader of the destination never sees part of it. */
  put(destination: DeliveryDestination, credentials: OpenedCredentials, file: DeliveredFile): Promise<void>;
  /** Removes a file the service wrote (the connection test's). */
  remove(destination: DeliveryDestination, credentials: OpenedCredentials, name: string): Promise<void>;
}

/** The failure as a TransferFailure: one already is; anything else is the service's own. */
export function asTransferFailure(error: unknown): TransferFailure {
  if (error instanceof TransferFailure) return error;
  return new TransferFailure('SERVICE_ERROR', 'The service failed while delivering; it is retried.');
}

/** Failures of the connection itself, by Node's error code. */
export function connectionFailure(error: NodeJS.ErrnoException, where: string): TransferFailure | undefined {
  switch (error.code) {
    case DESTINATION_REFUSED:
      return new TransferFailure('DESTINATION_NOT_ALLOWED', `Not connected: ${error.message}.`);
    case 'ECONNREFUSED':
      return new TransferFailure('CONNECTION_FAILED', `${where} refused the connection.`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new TransferFailure('CONNECTION_FAILED', `${where}: the host name does not resolve.`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new TransferFailure('CONNECTION_FAILED', `${where} cannot be reached.`);
    case 'ECONNRESET':
    case 'EPIPE':
      return new TransferFailure('WRITE_FAILED', `${where} closed the connection during the transfer.`);
    case 'ETIMEDOUT':
      return new TransferFailure('TIMEOUT', `${where} did not answer in time.`);
    default:
      return undefined;
  }
}
