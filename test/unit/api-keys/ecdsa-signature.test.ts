import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, it } from '@jest/globals';
import { joseSignatureFromDer } from '../../../shared/api-keys/ecdsa-signature';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const message = new TextEncoder().encode('header.payload');

/** A DER INTEGER, minimally encoded: leading zeros dropped, one 0x00 added when the high bit is set. */
function derInteger(bytes: Uint8Array): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const value = Buffer.from(bytes.subarray(start));
  const body = value[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value;
  return Buffer.concat([Buffer.from([0x02, body.length]), body]);
}

/** What KMS answers for this r || s. */
function derOf(joseSignature: Uint8Array): Buffer {
  const body = Buffer.concat([derInteger(joseSignature.subarray(0, 32)), derInteger(joseSignature.subarray(32))]);
  return Buffer.concat([Buffer.from(body.length < 0x80 ? [0x30, body.length] : [0x30, 0x81, body.length]), body]);
}

/**
 * Signs until r or s (as `which` says) has a leading zero byte that DER drops (the next byte's high
 * bit clear, else DER would put a sign byte back): about one signature in 512.
 */
function signatureWithLeadingZero(which: 'r' | 's'): Buffer {
  const at = which === 'r' ? 0 : 32;
  for (let attempt = 0; attempt < 50_000; attempt++) {
    const signature = sign('sha256', message, { key: privateKey, dsaEncoding: 'ieee-p1363' });
    if (signature[at] === 0 && signature[at + 1]! < 0x80) return signature;
  }
  throw new Error(`no signature with a leading zero in ${which}`);
}

describe('ECDSA signatures from DER (KMS) to JWS (r || s)', () => {
  it('converts signatures of every shape back to the r || s they encode, and they verify', () => {
    // Node signs DER as KMS does: with r or s whose high bit is set, DER adds a 0x00 byte; with a leading zero, it drops it.
    for (let i = 0; i < 300; i++) {
      const der = sign('sha256', message, { key: privateKey, dsaEncoding: 'der' });
      const jose = joseSignatureFromDer(der);
      assert.equal(jose.length, 64);
      assert.ok(verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jose), `signature ${i}`);
    }
  });

  it('pads r or s that has a leading zero byte back to 32 bytes', () => {
    for (const which of ['r', 's'] as const) {
      const jose = signatureWithLeadingZero(which);
      const der = derOf(jose);
      assert.ok(der.length < 72 - 1, `${which}: DER drops the zero byte`);
      assert.deepEqual(Buffer.from(joseSignatureFromDer(der)), jose, which);
      assert.ok(verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, joseSignatureFromDer(der)), which);
    }
  });

  it('places small and high-bit numbers right-aligned in their 32 bytes', () => {
    const highBit = new Uint8Array(32).fill(0xff);
    const small = Uint8Array.from([...new Array(30).fill(0), 0x01, 0x02]);
    const jose = Buffer.concat([highBit, small]);
    const der = derOf(jose);
    assert.deepEqual([...der.subarray(0, 5)], [0x30, 2 + 33 + 2 + 2, 0x02, 33, 0x00], 'r carries a sign byte');
    assert.deepEqual(Buffer.from(joseSignatureFromDer(der)), jose);
  });

  it('refuses what is not a P-256 ECDSA signature', () => {
    const valid = derOf(sign('sha256', message, { key: privateKey, dsaEncoding: 'ieee-p1363' }));
    const integer = (bytes: number[]) => Buffer.from([0x02, bytes.length, ...bytes]);
    const sequence = (...parts: Buffer[]) => Buffer.concat([Buffer.from([0x30, Buffer.concat(parts).length]), ...parts]);
    const one = integer([1]);
    const cases: Record<string, Uint8Array> = {
      empty: new Uint8Array(0),
      'not a SEQUENCE': Buffer.concat([Buffer.from([0x31]), valid.subarray(1)]),
      'cut short': valid.subarray(0, valid.length - 1),
      'bytes after it': Buffer.concat([valid, Buffer.from([0])]),
      'one INTEGER': sequence(one),
      'three INTEGERs': sequence(one, one, one),
      'a negative r': sequence(integer([0x80]), one),
      'a needless leading zero': sequence(integer([0x00, 0x01]), one),
      'an r of 33 bytes': sequence(integer([0x01, ...new Array<number>(32).fill(0)]), one),
      'an empty INTEGER': sequence(integer([]), one),
    };
    for (const [what, der] of Object.entries(cases)) {
      assert.throws(() => joseSignatureFromDer(der), /Malformed DER ECDSA signature/, what);
    }
  });
});
