/**
 * Delivering a completed job's export file to each of the organization's active destinations: one
 * file delivery per destination, sent by attempts on the file-deliveries queue and retried on the
 * webhooks' schedule (1, 5 and 30 minutes after a failure). An attempt is recorded once, under a
 * condition; a message delivered twice may write the file twice, which is harmless (the same bytes
 * under the same name, each write whole). A delivery that ends FAILED counts against its
 * destination: FAILURES_BEFORE_DISABLING in a row disable it, with the reason, and tell the
 * partner with DELIVERY_DESTINATION_DISABLED.
 */
import type { Clock } from '../platform/clock';
import { log } from '../platform/logging';
import { recordCount } from '../platform/metrics';
import type { ObjectStore } from '../platform/objects/object-store';
import { MAX_QUEUE_DELAY_SECONDS, type Queue, type Scheduler } from '../platform/queue/queue';
import type { SecretBox } from '../platform/secrets/secret-box';
import { RETRY_DELAYS_SECONDS } from '../webhooks';
import { FAILURES_BEFORE_DISABLING, locationOf, secretContext, type DeliveryDestination } from './destination';
import { deliveredFileName, fileDeliveryIdOf, type FileDelivery, type FileDeliveryAttempt, type FileDeliveryStatus } from './file-delivery';
import { fileDeliveryQueue, type FileDeliveryMessage } from './queues';
import type { DestinationStore, FileDeliveryStore } from './store';
import { asTransferFailure, type FileTransfer, type OpenedCredentials } from './transfer';

/** What delivery counts (the dashboard reads these names). */
export const FILE_DELIVERY_METRICS = {
  fileDeliveryAttempts: 'FileDeliveryAttempts',
  destinationsDisabled: 'DeliveryDestinationsDisabled',
} as const;

export interface DispatchPorts {
  destinations: Pick<DestinationStore, 'get' | 'list' | 'replace' | 'replaceWithEvent'>;
  deliveries: FileDeliveryStore;
  /** The results bucket, where export files are. */
  files: Pick<ObjectStore, 'get'>;
  secrets: SecretBox;
  transfers: (destination: DeliveryDestination) => FileTransfer;
  queue: Queue<FileDeliveryMessage>;
  scheduler: Scheduler;
  clock: Clock;
}

export type StartPorts = Pick<DispatchPorts, 'destinations' | 'deliveries' | 'queue' | 'clock'>;

/** An export file a job's completion hands to the destinations. */
export interface CompletedExport {
  organizationId: string;
  mappingJobId: string;
  fileKey: string;
  contentType: string;
  sizeBytes: number;
}

/** Where a job's file is delivered, as its completion event tells it. */
export interface DeliveryPlaced {
  destinationId: string;
  name: string;
  type: DeliveryDestination['type'];
  location: string;
  fileDeliveryId: string;
}

/** One delivery per active destination (once, however often asked), each with its first attempt queued. */
export async function startFileDeliveries(ports: StartPorts, completed: CompletedExport): Promise<DeliveryPlaced[]> {
  const destinations = (await ports.destinations.list(completed.organizationId)).filter((destination) => destination.status === 'ACTIVE');
  const placed: DeliveryPlaced[] = [];
  const fileName = deliveredFileName(completed.mappingJobId, completed.fileKey);
  for (const destination of destinations) {
    const now = ports.clock.now().toISOString();
    const delivery: FileDelivery = {
      id: fileDeliveryIdOf(completed.mappingJobId, destination.id),
      organizationId: completed.organizationId,
      destinationId: destination.id,
      mappingJobId: completed.mappingJobId,
      fileKey: completed.fileKey,
      fileName,
      contentType: completed.contentType,
      sizeBytes: completed.sizeBytes,
      location: locationOf(destination, fileName),
      status: 'PENDING',
      attempts: [],
      createdAt: now,
      updatedAt: now,
    };
    const current = (await ports.deliveries.create(delivery))
      ? delivery
      : (await ports.deliveries.get(delivery.organizationId, delivery.id))!;
    // Queued again when an earlier run stopped before its first attempt: a second write is harmless.
    if (current.attempts.length === 0)
      await ports.queue.send({ organizationId: current.organizationId, fileDeliveryId: current.id, attempt: 1 });
    placed.push({
      destinationId: destination.id,
      name: destination.name,
      type: destination.type,
      location: current.location,
      fileDeliveryId: current.id,
    });
  }
  return placed;
}

/** Makes attempt `message.attempt` of a file delivery, records it and queues what follows. */
export async function attemptFileDelivery(ports: DispatchPorts, message: FileDeliveryMessage): Promise<void> {
  const delivery = await ports.deliveries.get(message.organizationId, message.fileDeliveryId);
  if (!delivery || delivery.attempts.length >= message.attempt) return;
  const started = ports.clock.now();
  const attempt = (outcome: Omit<FileDeliveryAttempt, 'number' | 'attemptedAt' | 'durationMs'>): FileDeliveryAttempt => ({
    number: message.attempt,
    attemptedAt: started.toISOString(),
    durationMs: ports.clock.now().getTime() - started.getTime(),
    ...outcome,
  });
  const destination = await ports.destinations.get(delivery.organizationId, delivery.destinationId);
  if (destination?.status !== 'ACTIVE') {
    const why = destination ? `the destination is ${destination.status}` : 'the destination was deleted';
    await finish(
      ports,
      delivery,
      destination,
      attempt({ succeeded: false, reasonCode: 'DESTINATION_INACTIVE', error: `Not sent: ${why}.` }),
      { last: true },
    );
    return;
  }
  let outcome: FileDeliveryAttempt;
  try {
    const bytes = await ports.files.get(delivery.fileKey);
    if (!bytes) {
      await finish(
        ports,
        delivery,
        destination,
        attempt({ succeeded: false, reasonCode: 'SERVICE_ERROR', error: 'Not sent: the export file has expired.' }),
        { last: true },
      );
      return;
    }
    await ports.transfers(destination).put(destination, await openCredentials(ports.secrets, destination), {
      name: delivery.fileName,
      bytes,
      contentType: delivery.contentType,
    });
    outcome = attempt({ succeeded: true });
  } catch (error) {
    const failure = asTransferFailure(error);
    if (failure.reasonCode === 'SERVICE_ERROR')
      log('error', 'file delivery failed inside the service', { fileDeliveryId: delivery.id, error: String(error) });
    outcome = attempt({ succeeded: false, reasonCode: failure.reasonCode, error: failure.message });
  }
  await finish(ports, delivery, destination, outcome, { last: false });
}

async function finish(
  ports: DispatchPorts,
  delivery: FileDelivery,
  destination: DeliveryDestination | undefined,
  attempt: FileDeliveryAttempt,
  options: { last: boolean },
) {
  const retryDelay = attempt.succeeded || options.last ? undefined : RETRY_DELAYS_SECONDS[attempt.number - 1];
  const status: FileDeliveryStatus = attempt.succeeded ? 'SUCCEEDED' : retryDelay === undefined ? 'FAILED' : 'RETRYING';
  const nextAttemptAt = retryDelay === undefined ? undefined : new Date(ports.clock.now().getTime() + retryDelay * 1000).toISOString();
  if (!(await ports.deliveries.record(delivery, attempt, status, nextAttemptAt))) return;
  log(attempt.succeeded ? 'info' : 'warn', 'file delivery attempt', {
    fileDeliveryId: delivery.id,
    destinationId: delivery.destinationId,
    attempt: attempt.number,
    status,
    reasonCode: attempt.reasonCode,
    durationMs: attempt.durationMs,
  });
  recordCount(FILE_DELIVERY_METRICS.fileDeliveryAttempts, 1, { outcome: attempt.succeeded ? 'succeeded' : 'failed' });
  if (nextAttemptAt) await queueNext(ports, delivery, attempt.number + 1, nextAttemptAt);
  if (destination && (status === 'SUCCEEDED' || (status === 'FAILED' && attempt.reasonCode !== 'DESTINATION_INACTIVE'))) {
    await countOutcome(ports, destination, attempt);
  }
}

async function queueNext(
  ports: Pick<DispatchPorts, 'queue' | 'scheduler' | 'clock'>,
  delivery: FileDelivery,
  number: number,
  at: string,
): Promise<void> {
  const message: FileDeliveryMessage = { organizationId: delivery.organizationId, fileDeliveryId: delivery.id, attempt: number };
  const delaySeconds = Math.max(0, Math.ceil((new Date(at).getTime() - ports.clock.now().getTime()) / 1000));
  if (delaySeconds <= MAX_QUEUE_DELAY_SECONDS) await ports.queue.send(message, { delaySeconds });
  else
    await ports.scheduler.schedule({ name: `file-delivery-${delivery.id}-${number}`, at: new Date(at), queue: fileDeliveryQueue, message });
}

/** A delivery that ended: success clears the destination's count of failures; a failure adds to it and may disable it. */
async function countOutcome(ports: DispatchPorts, read: DeliveryDestination, attempt: FileDeliveryAttempt): Promise<void> {
  for (let destination: DeliveryDestination | undefined = read; destination?.status === 'ACTIVE';) {
    const now = ports.clock.now().toISOString();
    if (attempt.succeeded) {
      if (await ports.destinations.replace({ ...destination, failedInARow: 0, lastDeliveredAt: now, updatedAt: now })) return;
    } else {
      const failedInARow = destination.failedInARow + 1;
      if (failedInARow < FAILURES_BEFORE_DISABLING) {
        if (await ports.destinations.replace({ ...destination, failedInARow, updatedAt: now })) return;
      } else {
        const disabledReason = `${failedInARow} deliveries in a row failed; the last: ${attempt.error ?? attempt.reasonCode}`;
        const disabled: DeliveryDestination = {
          ...destination,
          status: 'DISABLED',
          failedInARow,
          disabledReason,
          disabledAt: now,
          updatedAt: now,
        };
        const event = {
          id: `${destination.id}-disabled-${destination.revision}`,
          type: 'DELIVERY_DESTINATION_DISABLED',
          organizationId: destination.organizationId,
          occurredAt: now,
          data: {
            destinationId: destination.id,
            name: destination.name,
            type: destination.type,
            reasonCode: attempt.reasonCode ?? 'SERVICE_ERROR',
            reason: disabledReason,
            disabledAt: now,
          },
        };
        if (await ports.destinations.replaceWithEvent(disabled, event)) {
          log('warn', 'delivery destination disabled', { destinationId: destination.id, reasonCode: attempt.reasonCode });
          recordCount(FILE_DELIVERY_METRICS.destinationsDisabled);
          return;
        }
      }
    }
    // Changed meanwhile (another delivery, the partner): counted over what it is now.
    destination = await ports.destinations.get(read.organizationId, read.id);
  }
}

/** A message that failed every time it was processed: the delivery ends FAILED, its reason the service's. */
export async function abandonFileDelivery(ports: DispatchPorts, message: FileDeliveryMessage): Promise<void> {
  const delivery = await ports.deliveries.get(message.organizationId, message.fileDeliveryId);
  if (!delivery || delivery.attempts.length >= message.attempt) return;
  const destination = await ports.destinations.get(delivery.organizationId, delivery.destinationId);
  const attempt: FileDeliveryAttempt = {
    number: message.attempt,
    attemptedAt: ports.clock.now().toISOString(),
    succeeded: false,
    durationMs: 0,
    reasonCode: 'SERVICE_ERROR',
    error: 'The attempt could not be completed: the service failed while processing it.',
  };
  log('error', 'file delivery attempt abandoned', { fileDeliveryId: delivery.id, attempt: message.attempt });
  await finish(ports, delivery, destination, attempt, { last: true });
}

/** The destination's credentials, opened for one transfer. */
export async function openCredentials(secrets: SecretBox, destination: DeliveryDestination): Promise<OpenedCredentials> {
  const open = (sealed: string | undefined, purpose: Parameters<typeof secretContext>[1]) =>
    sealed === undefined ? Promise.resolve(undefined) : secrets.open(sealed, secretContext(destination, purpose));
  const [secretAccessKey, password, privateKey, passphrase] = await Promise.all([
    open(destination.s3Compatible?.secretAccessKeySealed, 'secret-access-key'),
    open(destination.sftp?.passwordSealed, 'password'),
    open(destination.sftp?.privateKeySealed, 'private-key'),
    open(destination.sftp?.passphraseSealed, 'passphrase'),
  ]);
  return {
    ...(secretAccessKey !== undefined && { secretAccessKey }),
    ...(password !== undefined && { password }),
    ...(privateKey !== undefined && { privateKey }),
    ...(passphrase !== undefined && { passphrase }),
  };
}
