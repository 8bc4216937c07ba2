/** The names a delivery writes and pins: the documented file name, the hidden temporary name, OpenSSH's fingerprint. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from '@jest/globals';
import ssh2 from 'ssh2';
import { deliveredFileName, fileDeliveryIdOf } from '../../../shared/file-deliveries/file-delivery';
import { hostKeyFingerprint, temporaryName } from '../../../shared/file-deliveries/sftp-transfer';

describe('delivery names', () => {
  it("names a delivered file as a download is named: mapping-<job id> and the export's extension", () => {
    const job = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
    assert.equal(deliveredFileName(job, `exports/mapping-jobs/org/${job}/completed.csv`), `mapping-${job}.csv`);
    assert.equal(deliveredFileName(job, `exports/mapping-jobs/org/${job}/completed.csv.gz`), `mapping-${job}.csv.gz`);
    assert.equal(deliveredFileName(job, `exports/mapping-jobs/org/${job}/completed.xlsx`), `mapping-${job}.xlsx`);
  });

  it('writes under a hidden temporary name of its own each time', () => {
    const [one, two] = [temporaryName('mapping-1.csv'), temporaryName('mapping-1.csv')];
    assert.match(one, /^\.mapping-1\.csv\.[0-9a-f]{8}\.part$/);
    assert.notEqual(one, two);
  });

  it('gives one delivery id per job and destination, UUID-shaped', () => {
    assert.equal(fileDeliveryIdOf('job-1', 'destination-1'), fileDeliveryIdOf('job-1', 'destination-1'));
    assert.notEqual(fileDeliveryIdOf('job-1', 'destination-1'), fileDeliveryIdOf('job-1', 'destination-2'));
    assert.match(fileDeliveryIdOf('job-1', 'destination-1'), /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("fingerprints a host key as ssh-keygen -lf does: SHA256: and the unpadded base64 of the key blob's digest", () => {
    // A key ssh-keygen made, and what `ssh-keygen -lf` printed for it (ssh2's own generator now and
    // then makes a public key its parser refuses, so the test holds a fixed one).
    const key = ssh2.utils.parseKey('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEP4ZFBNu7Az5D6v5IbU8Go4ptUZT0LJkrVvZWb29sWR');
    assert.ok(!(key instanceof Error));
    const blob = key.getPublicSSH();
    const fingerprint = hostKeyFingerprint(blob);
    assert.equal(fingerprint, 'SHA256:6vNqEAbRu23yyg1h7+yApzpFOzt+O2I3tpiDfZMw6ew');
    assert.equal(fingerprint, `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`);
  });
});
