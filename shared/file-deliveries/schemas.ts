import * as v from 'valibot';
import { NextCursor, pageQuery, Text, Timestamp, Uuid } from '../platform/http/schemas';
import { MAX_URL_LENGTH } from '../platform/network/destinations';
import { DESTINATION_STATUSES, DESTINATION_TYPES, MAX_DESTINATIONS_PER_ORGANIZATION } from './destination';
import { FILE_DELIVERY_STATUSES } from './file-delivery';
import { FAILURE_REASONS } from './transfer';

const Name = v.pipe(Text({ maxLength: 100 }), v.description('A label for people'));
const Bucket = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens'),
  v.description('The bucket name'),
);
const Region = v.pipe(
  v.string(),
  v.regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'must be a region such as eu-west-1'),
  v.description("The bucket's region"),
);
const Prefix = v.pipe(
  v.string(),
  v.maxLength(512, 'must be at most 512 characters'),
  v.regex(/^(?!\/)[A-Za-z0-9!_.*'()/-]*$/, "must not start with / and may hold only letters, digits and !_.*'()/-"),
  v.description('Keys start with it; a / is added when it does not end with one. Default: none'),
);
const Secret = (what: string) =>
  v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(16_384, 'is too long'),
    v.description(`${what}: stored encrypted, never returned`),
  );
const Fingerprint = v.pipe(
  v.string(),
  v.regex(
    /^SHA256:[A-Za-z0-9+/]{43}$/,
    'must be an OpenSSH SHA-256 fingerprint: SHA256: and 43 base64 characters (ssh-keygen -lf the host key)',
  ),
  v.description("The server's host key fingerprint as `ssh-keygen -lf` prints it; a server presenting another key gets nothing"),
  v.examples(['SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s']),
);
const Folder = v.pipe(
  v.string(),
  v.maxLength(1024, 'must be at most 1,024 characters'),
  v.regex(/^\/[^\0\n\r]*$/, 'must be an absolute path (start with /)'),
  v.description('The absolute folder files are written into; it must exist. Default /'),
);

export const CreateDestinationRequest = v.variant('type', [
  v.strictObject({
    type: v.literal('S3'),
    name: Name,
    bucket: Bucket,
    region: Region,
    prefix: v.optional(Prefix),
    roleArn: v.pipe(
      v.string(),
      v.regex(/^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/, 'must be an IAM role ARN (arn:aws:iam::<account>:role/<name>)'),
      v.description('The role the service assumes; its trust policy is in the answer (setup)'),
    ),
  }),
  v.strictObject({
    type: v.literal('S3_COMPATIBLE'),
    name: Name,
    endpoint: v.pipe(
      Text({ maxLength: MAX_URL_LENGTH }),
      v.description('https:// URL of the S3 API on a public address (checked again on every delivery)'),
    ),
    bucket: Bucket,
    region: v.optional(Region),
    prefix: v.optional(Prefix),
    accessKeyId: v.pipe(Text({ maxLength: 128 }), v.description('The access key id')),
    secretAccessKey: Secret('The secret access key'),
    forcePathStyle: v.optional(
      v.pipe(v.boolean(), v.description('Path-style URLs (endpoint/bucket/key); default true, as most S3-compatible stores want')),
    ),
  }),
  v.strictObject({
    type: v.literal('SFTP'),
    name: Name,
    host: v.pipe(Text({ maxLength: 253 }), v.description('Host name or IP address on a public address (checked again on every delivery)')),
    port: v.optional(
      v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1), v.maxValue(65_535), v.description('Default 22')),
    ),
    username: v.pipe(Text({ maxLength: 100 }), v.description('The user to log in as')),
    password: v.optional(Secret('The password (give a password or a privateKey)')),
    privateKey: v.optional(Secret('An OpenSSH or PEM private key (give a password or a privateKey)')),
    passphrase: v.optional(Secret("The private key's passphrase, when it has one")),
    hostKeyFingerprint: Fingerprint,
    folder: v.optional(Folder),
  }),
]);

export const UpdateDestinationRequest = v.strictObject({
  name: v.optional(Name),
  status: v.optional(
    v.pipe(
      v.picklist(['ACTIVE', 'INACTIVE'], 'must be ACTIVE or INACTIVE'),
      v.description('INACTIVE pauses deliveries; ACTIVE resumes them, also after the service DISABLED the destination'),
    ),
  ),
  hostKeyFingerprint: v.optional(v.pipe(Fingerprint, v.description("SFTP: the server's new host key, after the partner rotated it"))),
  password: v.optional(Secret('SFTP: a new password (replaces the private key)')),
  privateKey: v.optional(Secret('SFTP: a new private key (replaces the password)')),
  passphrase: v.optional(Secret("SFTP: the new private key's passphrase")),
  accessKeyId: v.optional(v.pipe(Text({ maxLength: 128 }), v.description('S3_COMPATIBLE: a new access key id (with secretAccessKey)'))),
  secretAccessKey: v.optional(Secret('S3_COMPATIBLE: a new secret access key')),
});

const DestinationId = v.pipe(Uuid, v.description("The destination's id"), v.examples(['3f9c2a7e-5b1d-4e8a-9c6f-2d4b6e8a0c1f']));
export const DestinationIdParams = v.object({ id: DestinationId });

const Policy = v.pipe(v.record(v.string(), v.unknown()), v.description('An IAM policy document, ready to paste'));

export const DestinationView = v.object({
  id: Uuid,
  name: v.string(),
  type: v.picklist(DESTINATION_TYPES),
  status: v.pipe(
    v.picklist(DESTINATION_STATUSES),
    v.description('DISABLED: by the service after repeated failures (disabledReason); PATCH status ACTIVE resumes it'),
  ),
  s3: v.optional(
    v.object({
      bucket: v.string(),
      region: v.string(),
      prefix: v.string(),
      roleArn: v.string(),
      externalId: v.pipe(v.string(), v.description("Issued by the service for this destination: the role's trust policy requires it")),
      setup: v.pipe(
        v.object({ trustPolicy: Policy, permissionPolicy: Policy }),
        v.description(
          "The role's trust policy (our account, under this destination's external id) and its permission policy (write and remove objects under the prefix)",
        ),
      ),
    }),
  ),
  s3Compatible: v.optional(
    v.object({
      endpoint: v.string(),
      bucket: v.string(),
      region: v.string(),
      prefix: v.string(),
      accessKeyId: v.string(),
      forcePathStyle: v.boolean(),
    }),
  ),
  sftp: v.optional(
    v.object({
      host: v.string(),
      port: v.number(),
      username: v.string(),
      authentication: v.pipe(v.picklist(['PASSWORD', 'PRIVATE_KEY']), v.description('Which credential is stored (never returned)')),
      hostKeyFingerprint: v.string(),
      folder: v.string(),
    }),
  ),
  failedInARow: v.pipe(v.number(), v.description(`Deliveries that failed since the last that succeeded; the destination is DISABLED at 3`)),
  disabledReason: v.nullable(v.string()),
  disabledAt: v.nullable(Timestamp),
  lastDeliveredAt: v.nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const DestinationList = v.object({
  destinations: v.pipe(v.array(DestinationView), v.description(`Newest first; at most ${MAX_DESTINATIONS_PER_ORGANIZATION}`)),
  total: v.number(),
});

const ReasonCode = v.pipe(
  v.picklist([...FAILURE_REASONS, 'DESTINATION_INACTIVE']),
  v.description(
    "AUTH_REFUSED: credentials or the role's trust refused; HOST_KEY_CHANGED: the SFTP server presented another host key (nothing sent); " +
      'NOT_FOUND: no such bucket or folder; ACCESS_DENIED: accepted but may not write there; WRITE_FAILED: the server refused or broke off the write ' +
      '(full disk, quota, dropped connection); TIMEOUT; CONNECTION_FAILED: nothing answered, or the name does not resolve; DESTINATION_NOT_ALLOWED: ' +
      'the host resolves to a private or reserved address; SERVICE_ERROR: the service failed (retried); DESTINATION_INACTIVE: not sent, the destination was paused, disabled or deleted',
  ),
);

export const TestResult = v.object({
  succeeded: v.boolean(),
  fileName: v.pipe(v.string(), v.description('The small file written and then removed')),
  location: v.string(),
  durationMs: v.number(),
  reasonCode: v.nullable(ReasonCode),
  message: v.string(),
});

const AttemptView = v.object({
  number: v.number(),
  attemptedAt: Timestamp,
  succeeded: v.boolean(),
  durationMs: v.number(),
  reasonCode: v.nullable(ReasonCode),
  error: v.nullable(v.string()),
});

export const FileDeliveryView = v.object({
  id: Uuid,
  destinationId: Uuid,
  mappingJobId: Uuid,
  fileName: v.pipe(v.string(), v.description("`mapping-{mappingJobId}` and the export's extension")),
  location: v.string(),
  sizeBytes: v.number(),
  status: v.pipe(
    v.picklist(FILE_DELIVERY_STATUSES),
    v.description(
      'RETRYING: a retry is due at nextAttemptAt (1, 5 and 30 minutes after failures); FAILED: every retry spent, or the destination paused',
    ),
  ),
  attempts: v.array(AttemptView),
  nextAttemptAt: v.nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const FileDeliveryList = v.object({ deliveries: v.array(FileDeliveryView), nextCursor: NextCursor });
export const FileDeliveryListQuery = v.strictObject(pageQuery(20, 100));
