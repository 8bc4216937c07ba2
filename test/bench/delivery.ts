/**
 * `npm run bench:delivery`: what delivering a completed job's export adds per million mappings.
 * Three bills: the completion's export file, written once when someone listens (the worker's own
 * code timed here, reading the job's results files back from s3rver; billed at the mapping-exports
 * worker's memory); its transfer by the file-deliveries worker (timed here
 * against a real SFTP server, Debian's sftp-server behind ssh2, and s3rver, on loopback, rounds
 * interleaved; billed at the worker's memory); and the bytes that leave AWS (nothing for an S3
 * bucket in the same region, the internet rate for an SFTP server or another store). Rows are
 * 2,000 real engine results (a 50,000-hotel synthetic reference) repeated under new partner ids, in
 * the default format (every field, two connected suppliers), plain and gzip.
 *   npm run bench:delivery [-- --rows 1000000 --rounds 3]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { resolveFormat, type ExportFormatConfig } from '../../shared/export-format';
import type { DeliveryDestination } from '../../shared/file-deliveries/destination';
import { S3Transfer } from '../../shared/file-deliveries/s3-transfer';
import { SftpTransfer } from '../../shared/file-deliveries/sftp-transfer';
import type { FileTransfer } from '../../shared/file-deliveries/transfer';
import { buildMatchingIndex, mapHotels } from '../../shared/mapping';
import { writeExportFile } from '../../shared/mapping-jobs/export';
import { jobObjects, type MappingJob } from '../../shared/mapping-jobs/job';
import { resultsFileBytes, toJsonLines } from '../../shared/mapping-jobs/results-files';
import { resultObjectStoreOf } from '../../shared/platform/objects/services';
import { localRuntime } from '../../infra/local/messaging';
import { fileDeliveryQueue } from '../../shared/file-deliveries/queues';
import { mappingExportQueue } from '../../shared/mapping-jobs/queues';
import { newLocalTokenSigningKey, provisionLocalStack } from '../../infra/local/stack';
import { mappingDataset } from '../../infra/synthetic/mapping-dataset';
import { startSftpServer } from '../support/sftp-server';
import { PRICES } from '../../infra/aws-prices';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '3' } } });
const ROWS = Number(args.rows);
const ROUNDS = Number(args.rounds);
const SAMPLE_ROWS = 2_000;
const SUPPLIERS = ['HOTELBEDS', 'EXPEDIA'];
const perMillion = 1e6 / ROWS;
const gbOf = (memoryMb: number) => memoryMb / 1024;

process.env.LOG_LEVEL = 'error';
const s3DataDir = mkdtempSync(join(tmpdir(), 'bench-delivery-'));
const folder = mkdtempSync(join(tmpdir(), 'bench-delivery-sftp-'));
const stack = await provisionLocalStack({
  s3DataDir,
  localTokenSigningKey: newLocalTokenSigningKey(),
  localSecretsKey: randomBytes(32).toString('base64'),
});
const sftp = await startSftpServer();
try {
  const dataset = mappingDataset({ referenceCount: 50_000, partnerCount: SAMPLE_ROWS + 100, seed: 20261128 });
  const sample = mapHotels(buildMatchingIndex(dataset.reference()), dataset.partners, { mode: 'STANDARD' }).slice(0, SAMPLE_ROWS);
  // A completed job's results files, as its chunks write them; the completion's export reads them back.
  const runtime = localRuntime(stack.config).runtime;
  const objects = resultObjectStoreOf(runtime);
  const now = new Date().toISOString();
  const job: MappingJob = {
    id: randomUUID(),
    organizationId: 'bench',
    partnerInventoryId: randomUUID(),
    mode: 'STANDARD',
    status: 'COMPLETED',
    reference: { artifactsId: 'bench', dataVersionId: 'bench', matchingIndexKey: 'bench' },
    chunkCount: Math.ceil(ROWS / SAMPLE_ROWS),
    counts: { total: ROWS, processed: ROWS, matched: 0, review: 0, unmatched: 0, unchanged: 0 },
    createdAt: now,
    completedAt: now,
    updatedAt: now,
  };
  for (let chunk = 0; chunk < job.chunkCount; chunk++) {
    const rows = sample
      .slice(0, Math.min(SAMPLE_ROWS, ROWS - chunk * SAMPLE_ROWS))
      .map((result) => ({ ...result, partnerHotelId: `${result.partnerHotelId}-${chunk}` }));
    await objects.put(jobObjects.results(job, chunk), resultsFileBytes(toJsonLines(rows)), 'application/gzip');
  }

  const files: { label: string; bytes: Buffer; writeSeconds: number }[] = [];
  for (const compression of ['none', 'gzip'] as const) {
    const saved: ExportFormatConfig = {
      id: 'bench',
      format: 'csv',
      delimiter: ',',
      includeHeader: true,
      compression,
      updatedAt: new Date().toISOString(),
    };
    const started = performance.now();
    const file = await writeExportFile(
      { jobs: { decisions: async () => [] }, objects },
      job,
      resolveFormat(saved, SUPPLIERS),
      `bench-${compression}`,
    );
    const writeSeconds = (performance.now() - started) / 1000;
    files.push({ label: `csv${compression === 'gzip' ? '.gz' : ''}`, bytes: (await objects.get(file.key))!, writeSeconds });
  }

  const bucket = `bench-delivery-${Date.now()}`;
  await new S3Client({
    region: 'us-east-1',
    endpoint: stack.config.s3Endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  }).send(new CreateBucketCommand({ Bucket: bucket }));
  const base = { organizationId: 'bench', status: 'ACTIVE' as const, failedInARow: 0, createdAt: '', updatedAt: '', revision: 1 };
  const policy = { allowLoopback: true };
  const targets: { label: string; destination: DeliveryDestination; transfer: FileTransfer; credentials: Record<string, string> }[] = [
    {
      label: 'SFTP',
      destination: {
        ...base,
        id: randomUUID(),
        name: 'sftp',
        type: 'SFTP',
        sftp: { host: '127.0.0.1', port: sftp.port, username: sftp.username, hostKeyFingerprint: sftp.hostKeyFingerprint, folder },
      },
      transfer: new SftpTransfer({ policy }),
      credentials: { password: sftp.password },
    },
    {
      label: 'S3-compatible',
      destination: {
        ...base,
        id: randomUUID(),
        name: 's3',
        type: 'S3_COMPATIBLE',
        s3Compatible: {
          endpoint: stack.config.s3Endpoint!,
          bucket,
          region: 'us-east-1',
          prefix: '',
          accessKeyId: 'S3RVER',
          secretAccessKeySealed: '',
          forcePathStyle: true,
        },
      },
      transfer: new S3Transfer({
        policy,
        assumeRole: async () => ({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', sessionToken: '' }),
      }),
      credentials: { secretAccessKey: 'S3RVER' },
    },
  ];

  // Rounds interleave the targets and the files: the machine's speed drifts within the hour.
  const seconds = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const file of files) {
      for (const target of targets) {
        const started = performance.now();
        await target.transfer.put(target.destination, target.credentials, {
          name: `mapping-bench.${file.label}`,
          bytes: file.bytes,
          contentType: 'text/csv',
        });
        const key = `${target.label} ${file.label}`;
        seconds.set(key, [...(seconds.get(key) ?? []), (performance.now() - started) / 1000]);
      }
    }
  }
  const delivered = statSync(join(folder, `mapping-bench.${files[0]!.label}`)).size;
  if (delivered !== files[0]!.bytes.length) throw new Error(`the SFTP file has ${delivered} bytes, the export ${files[0]!.bytes.length}`);

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const usd = (value: number) => `$${value.toFixed(5)}`;
  console.log(
    `${ROWS.toLocaleString('en')} rows, ${ROUNDS} interleaved rounds; prices of ${PRICES.asOf} (${PRICES.region}); figures per million mappings`,
  );
  for (const file of files) {
    const writeCost = file.writeSeconds * perMillion * gbOf(mappingExportQueue.lambda.memoryMb) * PRICES.lambda.perGbSecond;
    const outCost = ((file.bytes.length * perMillion) / 1e9) * PRICES.dataTransferOut.perGb;
    console.log(
      `\n${file.label}: ${(file.bytes.length / 2 ** 20).toFixed(1)} MB (${(file.bytes.length / ROWS).toFixed(0)} B/row); written in ${file.writeSeconds.toFixed(1)} s = ${usd(writeCost)} at ${mappingExportQueue.lambda.memoryMb} MB`,
    );
    for (const target of targets) {
      const transferSeconds = median(seconds.get(`${target.label} ${file.label}`)!);
      // The worker also reads the file from the results bucket: one GET, in-region, free of transfer.
      const workerCost = transferSeconds * perMillion * gbOf(fileDeliveryQueue.lambda.memoryMb) * PRICES.lambda.perGbSecond;
      // One GET of the file per delivery, a job's; the partner's bucket bills its PUT to the partner.
      const requests = (PRICES.s3.perThousandReads / 1000) * perMillion;
      const leaving = target.label === 'SFTP' ? outCost : 0;
      console.log(
        `  ${target.label.padEnd(14)} transfer ${transferSeconds.toFixed(2)} s (median; ${(file.bytes.length / 2 ** 20 / transferSeconds).toFixed(0)} MB/s) = ${usd(workerCost)} at ${fileDeliveryQueue.lambda.memoryMb} MB` +
          ` + transfer out ${usd(leaving)}${target.label === 'SFTP' ? '' : ' (same-region S3; an S3-compatible store outside AWS pays ' + usd(outCost) + ')'}` +
          ` + requests ${usd(requests)} => ${usd(writeCost + workerCost + leaving + requests)} with the file written`,
      );
    }
  }
} finally {
  await sftp.close();
  await stack.stop();
  rmSync(s3DataDir, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
}
