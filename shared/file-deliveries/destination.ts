/**
 * A delivery destination: where an organization's completed jobs' export files are written.
 * - `S3`: a bucket in the partner's own AWS account, reached by assuming a role the partner creates
 *   that trusts the service's account under the external id the service issued for the destination;
 * - `S3_COMPATIBLE`: any S3 API at an https endpoint, with an access key (sealed);
 * - `SFTP`: a server reached with a password or a private key (sealed), whose host key must match
 *   the fingerprint the partner pinned.
 * Consecutive failed deliveries disable a destination (DISABLED, with the reason); the partner
 * turns it ACTIVE again.
 */
export const DESTINATION_TYPES = ['S3', 'S3_COMPATIBLE', 'SFTP'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** INACTIVE: paused by the partner; DISABLED: by the service after repeated failures. */
export const DESTINATION_STATUSES = ['ACTIVE', 'INACTIVE', 'DISABLED'] as const;
export type DestinationStatus = (typeof DESTINATION_STATUSES)[number];

/** Destinations one organization may have: lists need no pages. */
export const MAX_DESTINATIONS_PER_ORGANIZATION = 10;
/** Deliveries in a row that end failed (every retry spent) before the destination is DISABLED. */
export const FAILURES_BEFORE_DISABLING = 3;

export interface S3Target {
  bucket: string;
  region: string;
  /** Keys start with it: `exports/` or empty. */
  prefix: string;
  roleArn: string;
  /** Issued by the service, one per destination: the partner's trust policy requires it. */
  externalId: string;
}

export interface S3CompatibleTarget {
  endpoint: string;
  bucket: string;
  region: string;
  prefix: string;
  accessKeyId: string;
  secretAccessKeySealed: string;
  /** Path-style addressing (`https://endpoint/bucket/key`), which most S3-compatible stores want. */
  forcePathStyle: boolean;
}

export interface SftpTarget {
  host: string;
  port: number;
  username: string;
  passwordSealed?: string;
  privateKeySealed?: string;
  passphraseSealed?: string;
  /** OpenSSH's form, `SHA256:` and the unpadded base64 of the key's SHA-256 digest (`ssh-keygen -lf`). */
  hostKeyFingerprint: string;
  /** An absolute folder the files are written into. */
  folder: string;
}

export interface DeliveryDestination {
  id: string;
  organizationId: string;
  name: string;
  type: DestinationType;
  status: DestinationStatus;
  s3?: S3Target;
  s3Compatible?: S3CompatibleTarget;
  sftp?: SftpTarget;
  /** Deliveries that ended failed since the last that succeeded. */
  failedInARow: number;
  /** DISABLED: why, in the words of the last failure. */
  disabledReason?: string;
  disabledAt?: string;
  lastDeliveredAt?: string;
  createdAt: string;
  updatedAt: string;
  /** Counts writes: an edit saves only over the revision it read. */
  revision: number;
}

export type SecretPurpose = 'secret-access-key' | 'password' | 'private-key' | 'passphrase';

/** What a sealed credential is bound to: copied to another destination, it will not open. */
export function secretContext(destination: Pick<DeliveryDestination, 'organizationId' | 'id'>, purpose: SecretPurpose) {
  return { organizationId: destination.organizationId, destinationId: destination.id, purpose };
}

/** Where a file lands, as the history and the completion event show it. */
export function locationOf(destination: DeliveryDestination, fileName: string): string {
  if (destination.s3) return `s3://${destination.s3.bucket}/${destination.s3.prefix}${fileName}`;
  if (destination.s3Compatible)
    return `s3://${destination.s3Compatible.bucket}/${destination.s3Compatible.prefix}${fileName} at ${destination.s3Compatible.endpoint}`;
  const sftp = destination.sftp!;
  return `sftp://${sftp.host}:${sftp.port}${joinPath(sftp.folder, fileName)}`;
}

export function joinPath(folder: string, name: string): string {
  return `${folder.replace(/\/+$/, '')}/${name}`;
}

/**
 * The policies a partner pastes in IAM for an S3 destination: the role's trust policy (the
 * service's account, under the destination's external id) and its permission policy (write and
 * remove objects under the prefix, nothing else).
 */
export function s3SetupPolicies(target: Pick<S3Target, 'bucket' | 'prefix' | 'externalId'>, serviceAccountId: string) {
  return {
    trustPolicy: {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { AWS: `arn:aws:iam::${serviceAccountId}:root` },
          Action: 'sts:AssumeRole',
          Condition: { StringEquals: { 'sts:ExternalId': target.externalId } },
        },
      ],
    },
    permissionPolicy: {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Action: ['s3:PutObject', 's3:DeleteObject'],
          Resource: `arn:aws:s3:::${target.bucket}/${target.prefix}*`,
        },
      ],
    },
  };
}
