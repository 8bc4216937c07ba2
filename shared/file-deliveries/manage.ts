/** Registering, changing and testing destinations: host checks, sealed credentials, the connection test. */
import { randomUUID } from 'node:crypto';
import ssh2 from 'ssh2';
import type { Clock } from '../platform/clock';
import { conflict, invalidInput, limitReached, notFound } from '../platform/errors';
import type { SecretBox } from '../platform/secrets/secret-box';
import {
  locationOf,
  MAX_DESTINATIONS_PER_ORGANIZATION,
  secretContext,
  type DeliveryDestination,
  type SecretPurpose,
  type SftpTarget,
} from './destination';
import { openCredentials } from './dispatch';
import type { DestinationStore } from './store';
import { asTransferFailure, type FailureReason, type FileTransfer } from './transfer';

export interface ManagePorts {
  destinations: DestinationStore;
  secrets: SecretBox;
  /** Why a host (SFTP) or an endpoint's URL (S3-compatible) may not be connected to, after DNS resolution; undefined when it may. */
  hostProblem(host: string): Promise<string | undefined>;
  urlProblem(url: string): Promise<string | undefined>;
  transfers: (destination: DeliveryDestination) => FileTransfer;
  clock: Clock;
  newId(): string;
}

type Secrets = { password?: string; privateKey?: string; passphrase?: string; secretAccessKey?: string };

export type CreateDestination =
  | { type: 'S3'; name: string; bucket: string; region: string; prefix?: string; roleArn: string }
  | ({
      type: 'S3_COMPATIBLE';
      name: string;
      endpoint: string;
      bucket: string;
      region?: string;
      prefix?: string;
      accessKeyId: string;
      forcePathStyle?: boolean;
    } & Secrets)
  | ({ type: 'SFTP'; name: string; host: string; port?: number; username: string; hostKeyFingerprint: string; folder?: string } & Secrets);

export type UpdateDestination = {
  name?: string;
  status?: 'ACTIVE' | 'INACTIVE';
  hostKeyFingerprint?: string;
  accessKeyId?: string;
} & Secrets;

export async function createDestination(
  ports: ManagePorts,
  organizationId: string,
  input: CreateDestination,
): Promise<DeliveryDestination> {
  const now = ports.clock.now().toISOString();
  const base = {
    id: ports.newId(),
    organizationId,
    name: input.name,
    status: 'ACTIVE' as const,
    failedInARow: 0,
    createdAt: now,
    updatedAt: now,
    revision: 1,
  };
  let destination: DeliveryDestination;
  if (input.type === 'S3') {
    destination = {
      ...base,
      type: 'S3',
      s3: {
        bucket: input.bucket,
        region: input.region,
        prefix: folderPrefix(input.prefix),
        roleArn: input.roleArn,
        externalId: randomUUID(),
      },
    };
  } else if (input.type === 'S3_COMPATIBLE') {
    const problem = await ports.urlProblem(input.endpoint);
    if (problem) throw invalidInput(`endpoint: ${problem}.`);
    if (input.secretAccessKey === undefined) throw invalidInput('secretAccessKey: required for an S3_COMPATIBLE destination.');
    destination = {
      ...base,
      type: 'S3_COMPATIBLE',
      s3Compatible: {
        endpoint: input.endpoint,
        bucket: input.bucket,
        region: input.region ?? 'us-east-1',
        prefix: folderPrefix(input.prefix),
        accessKeyId: input.accessKeyId,
        secretAccessKeySealed: await seal(ports, base, 'secret-access-key', input.secretAccessKey),
        forcePathStyle: input.forcePathStyle ?? true,
      },
    };
  } else {
    const problem = await ports.hostProblem(input.host);
    if (problem) throw invalidInput(`host: ${problem}.`);
    const sealed = await sftpCredentials(ports, base, input);
    if (!sealed.passwordSealed && !sealed.privateKeySealed) throw invalidInput('Give a password or a privateKey for an SFTP destination.');
    destination = {
      ...base,
      type: 'SFTP',
      sftp: {
        host: input.host,
        port: input.port ?? 22,
        username: input.username,
        hostKeyFingerprint: input.hostKeyFingerprint,
        folder: input.folder ?? '/',
        ...sealed,
      },
    };
  }
  if (!(await ports.destinations.create(destination))) {
    throw limitReached(
      `Your organization has ${MAX_DESTINATIONS_PER_ORGANIZATION} delivery destinations, the most it may have; delete one first.`,
    );
  }
  return destination;
}

/** Fields sent replace the stored ones; credentials are replaced whole (a new password drops the key, and so on). */
export async function updateDestination(
  ports: ManagePorts,
  organizationId: string,
  id: string,
  input: UpdateDestination,
): Promise<DeliveryDestination> {
  const current = await requireDestination(ports, organizationId, id);
  const next: DeliveryDestination = { ...current, updatedAt: ports.clock.now().toISOString() };
  if (input.name !== undefined) next.name = input.name;
  if (input.status !== undefined && input.status !== current.status) {
    next.status = input.status;
    // Resumed by the partner: its failures are counted afresh.
    next.failedInARow = 0;
    delete next.disabledReason;
    delete next.disabledAt;
  }
  const sftpFields = input.hostKeyFingerprint ?? input.password ?? input.privateKey ?? input.passphrase;
  const s3Fields = input.accessKeyId ?? input.secretAccessKey;
  if (sftpFields !== undefined && !next.sftp)
    throw invalidInput('hostKeyFingerprint, password, privateKey and passphrase apply to SFTP destinations only.');
  if (s3Fields !== undefined && !next.s3Compatible)
    throw invalidInput('accessKeyId and secretAccessKey apply to S3_COMPATIBLE destinations only.');
  if (next.sftp) {
    if (input.hostKeyFingerprint !== undefined) next.sftp = { ...next.sftp, hostKeyFingerprint: input.hostKeyFingerprint };
    if (input.password !== undefined || input.privateKey !== undefined) {
      const { passwordSealed: _p, privateKeySealed: _k, passphraseSealed: _s, ...rest } = next.sftp;
      next.sftp = { ...rest, ...(await sftpCredentials(ports, next, input)) };
    } else if (input.passphrase !== undefined) {
      throw invalidInput('passphrase: send it with the privateKey it opens.');
    }
  }
  if (next.s3Compatible && s3Fields !== undefined) {
    if (input.secretAccessKey === undefined) throw invalidInput('secretAccessKey: send it with the accessKeyId it belongs to.');
    next.s3Compatible = {
      ...next.s3Compatible,
      accessKeyId: input.accessKeyId ?? next.s3Compatible.accessKeyId,
      secretAccessKeySealed: await seal(ports, next, 'secret-access-key', input.secretAccessKey),
    };
  }
  if (!(await ports.destinations.replace(next)))
    throw conflict('Another request changed the destination meanwhile: read it again and retry.');
  return { ...next, revision: next.revision + 1 };
}

export async function requireDestination(
  ports: Pick<ManagePorts, 'destinations'>,
  organizationId: string,
  id: string,
): Promise<DeliveryDestination> {
  const destination = await ports.destinations.get(organizationId, id);
  if (!destination) throw notFound(`Your organization has no delivery destination ${id}.`);
  return destination;
}

export interface TestOutcome {
  succeeded: boolean;
  fileName: string;
  location: string;
  durationMs: number;
  reasonCode: FailureReason | null;
  message: string;
}

/** Writes a small file and removes it again: what a delivery would meet, answered at once. Counts toward nothing. */
export async function testDestination(ports: ManagePorts, destination: DeliveryDestination): Promise<TestOutcome> {
  const started = ports.clock.now();
  const fileName = `hotel-mapping-connection-test-${started.getTime()}.txt`;
  const location = locationOf(destination, fileName);
  const elapsed = () => ports.clock.now().getTime() - started.getTime();
  try {
    const transfer = ports.transfers(destination);
    const credentials = await openCredentials(ports.secrets, destination);
    await transfer.put(destination, credentials, {
      name: fileName,
      bytes: Buffer.from(`Connection test of delivery destination ${destination.id} at ${started.toISOString()}\n`),
      contentType: 'text/plain',
    });
    await transfer.remove(destination, credentials, fileName);
    return { succeeded: true, fileName, location, durationMs: elapsed(), reasonCode: null, message: `Wrote and removed ${fileName}.` };
  } catch (error) {
    const failure = asTransferFailure(error);
    return { succeeded: false, fileName, location, durationMs: elapsed(), reasonCode: failure.reasonCode, message: failure.message };
  }
}

/** `exports` -> `exports/`; none stays none. */
function folderPrefix(prefix: string | undefined): string {
  if (!prefix) return '';
  return prefix.endsWith('/') ? prefix : `${prefix}/`;
}

async function seal(
  ports: Pick<ManagePorts, 'secrets'>,
  destination: Pick<DeliveryDestination, 'organizationId' | 'id'>,
  purpose: SecretPurpose,
  value: string,
): Promise<string> {
  return ports.secrets.seal(value, secretContext(destination, purpose));
}

type SealedSftpCredentials = Pick<SftpTarget, 'passwordSealed' | 'privateKeySealed' | 'passphraseSealed'>;

async function sftpCredentials(
  ports: Pick<ManagePorts, 'secrets'>,
  destination: Pick<DeliveryDestination, 'organizationId' | 'id'>,
  input: Secrets,
): Promise<SealedSftpCredentials> {
  if (input.password !== undefined && input.privateKey !== undefined) throw invalidInput('Give a password or a privateKey, not both.');
  if (input.passphrase !== undefined && input.privateKey === undefined)
    throw invalidInput('passphrase: send it with the privateKey it opens.');
  if (input.privateKey !== undefined) {
    const parsed = ssh2.utils.parseKey(input.privateKey, input.passphrase);
    if (parsed instanceof Error)
      throw invalidInput(
        `privateKey: ${input.passphrase === undefined ? 'not a private key ssh2 can read (OpenSSH or PEM), or it needs a passphrase' : 'not a private key this passphrase opens'}.`,
      );
    return {
      privateKeySealed: await seal(ports, destination, 'private-key', input.privateKey),
      ...(input.passphrase !== undefined && { passphraseSealed: await seal(ports, destination, 'passphrase', input.passphrase) }),
    };
  }
  if (input.password !== undefined) return { passwordSealed: await seal(ports, destination, 'password', input.password) };
  return {};
}
