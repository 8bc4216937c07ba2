/**
 * KMS returns an ECDSA signature as DER (SEQUENCE { INTEGER r, INTEGER s }); a JWS ES256 signature
 * is r and s as two 32-byte big-endian numbers, side by side (RFC 7518, section 3.4).
 */

/** P-256: r and s are 32 bytes each. */
const P256_NUMBER_BYTES = 32;

/** The JWS form (r || s, 64 bytes) of a DER-encoded P-256 ECDSA signature; throws on anything else. */
export function joseSignatureFromDer(der: Uint8Array): Uint8Array {
  const reader = new DerReader(der);
  reader.expect(0x30, 'a SEQUENCE');
  const sequenceEnd = reader.readLength() + reader.position;
  if (sequenceEnd !== der.length) throw malformed('the SEQUENCE does not span the signature');
  const r = reader.readPositiveInteger();
  const s = reader.readPositiveInteger();
  if (reader.position !== der.length) throw malformed('bytes follow s');
  const signature = new Uint8Array(2 * P256_NUMBER_BYTES);
  signature.set(r, P256_NUMBER_BYTES - r.length);
  signature.set(s, 2 * P256_NUMBER_BYTES - s.length);
  return signature;
}

function malformed(why: string): Error {
  return new Error(`Malformed DER ECDSA signature: ${why}.`);
}

class DerReader {
  position = 0;

  constructor(private readonly bytes: Uint8Array) {}

  expect(tag: number, what: string): void {
    if (this.bytes[this.position++] !== tag) throw malformed(`expected ${what}`);
  }

  /** Short form, or the long form's one length byte (0x81): a P-256 signature is at most 72 bytes. */
  readLength(): number {
    const first = this.byte();
    if (first < 0x80) return first;
    if (first !== 0x81) throw malformed('a length longer than one byte');
    const length = this.byte();
    if (length < 0x80) throw malformed('a long-form length that fits the short form');
    return length;
  }

  /** An INTEGER's value without its sign byte: at most 32 bytes, positive, minimally encoded. */
  readPositiveInteger(): Uint8Array {
    this.expect(0x02, 'an INTEGER');
    const length = this.readLength();
    if (length === 0 || this.position + length > this.bytes.length) throw malformed('an INTEGER of a wrong length');
    let value = this.bytes.subarray(this.position, this.position + length);
    this.position += length;
    if (value[0]! & 0x80) throw malformed('a negative INTEGER');
    if (value[0] === 0 && value.length > 1) {
      if (!(value[1]! & 0x80)) throw malformed('an INTEGER with a needless leading zero');
      value = value.subarray(1);
    }
    if (value.length > P256_NUMBER_BYTES) throw malformed('an INTEGER longer than 32 bytes');
    return value;
  }

  private byte(): number {
    if (this.position >= this.bytes.length) throw malformed('it ends early');
    return this.bytes[this.position++]!;
  }
}
