/** What the API shows of destinations and deliveries: never a credential, sealed or not. */
import { s3SetupPolicies, type DeliveryDestination } from './destination';
import type { FileDelivery } from './file-delivery';

/** `accountId`: the stage's AWS account, which an S3 destination's role must trust. */
export function destinationView(destination: DeliveryDestination, accountId: string) {
  const { s3, s3Compatible, sftp } = destination;
  return {
    id: destination.id,
    name: destination.name,
    type: destination.type,
    status: destination.status,
    ...(s3 && {
      s3: {
        bucket: s3.bucket,
        region: s3.region,
        prefix: s3.prefix,
        roleArn: s3.roleArn,
        externalId: s3.externalId,
        setup: s3SetupPolicies(s3, accountId),
      },
    }),
    ...(s3Compatible && {
      s3Compatible: {
        endpoint: s3Compatible.endpoint,
        bucket: s3Compatible.bucket,
        region: s3Compatible.region,
        prefix: s3Compatible.prefix,
        accessKeyId: s3Compatible.accessKeyId,
        forcePathStyle: s3Compatible.forcePathStyle,
      },
    }),
    ...(sftp && {
      sftp: {
        host: sftp.host,
        port: sftp.port,
        username: sftp.username,
        authentication: sftp.privateKeySealed ? ('PRIVATE_KEY' as const) : ('PASSWORD' as const),
        hostKeyFingerprint: sftp.hostKeyFingerprint,
        folder: sftp.folder,
      },
    }),
    failedInARow: destination.failedInARow,
    disabledReason: destination.disabledReason ?? null,
    disabledAt: destination.disabledAt ?? null,
    lastDeliveredAt: destination.lastDeliveredAt ?? null,
    createdAt: destination.createdAt,
    updatedAt: destination.updatedAt,
  };
}

export function fileDeliveryView(delivery: FileDelivery) {
  return {
    id: delivery.id,
    destinationId: delivery.destinationId,
    mappingJobId: delivery.mappingJobId,
    fileName: delivery.fileName,
    location: delivery.location,
    sizeBytes: delivery.sizeBytes,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({
      number: attempt.number,
      attemptedAt: attempt.attemptedAt,
      succeeded: attempt.succeeded,
      durationMs: attempt.durationMs,
      reasonCode: attempt.reasonCode ?? null,
      error: attempt.error ?? null,
    })),
    nextAttemptAt: delivery.nextAttemptAt ?? null,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}
