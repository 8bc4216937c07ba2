/**
 * Bearer tokens: short-lived ES256 JWTs issued in exchange for an API key (OAuth 2.0 client
 * credentials). A token names the key it came from, so revoking the key ends its tokens too.
 * Signed with a private key only the token endpoint may use; verified with its public half, so a
 * function that verifies tokens cannot make one.
 */
import type { KeyObject } from 'node:crypto';
import { base64url, jwtVerify, errors as joseErrors } from 'jose';
import type { KeyRole } from '../platform/auth/principal';

export const TOKEN_ISSUER = 'hotel-mapping-api';
export const TOKEN_AUDIENCE = 'hotel-mapping-api';
export const TOKEN_LIFETIME_SECONDS = 3600;
/** How far ahead of our clock a token's iat may be: clocks drift, a little. */
export const TOKEN_CLOCK_SKEW_SECONDS = 60;

export interface TokenClaims {
  organizationId: string;
  keyId: string;
  role: KeyRole;
}

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
}

/** The P-256 key pair tokens are signed with: a KMS key in AWS, a local key for the local runtime and tests. */
export interface TokenSigningKey {
  /** The ES256 signature of `signingInput`: r || s, 64 bytes (RFC 7518, section 3.4). */
  sign(signingInput: Uint8Array): Promise<Uint8Array>;
  /** The public half, which is all a verifier needs. */
  publicKey(): Promise<KeyObject>;
}

const ES256_SIGNATURE_BYTES = 64;

export class BearerTokens {
  constructor(private readonly key: TokenSigningKey) {}

  async issue(claims: TokenClaims, now: Date): Promise<IssuedToken> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const header = { alg: 'ES256', typ: 'JWT' };
    const payload = {
      key: claims.keyId,
      role: claims.role,
      sub: claims.organizationId,
      iss: TOKEN_ISSUER,
      aud: TOKEN_AUDIENCE,
      iat: issuedAt,
      exp: issuedAt + TOKEN_LIFETIME_SECONDS,
    };
    // Built by hand, as jose's SignJWT signs only with a key it holds, and KMS never hands its key out.
    const signingInput = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(payload))}`;
    const signature = await this.key.sign(new TextEncoder().encode(signingInput));
    if (signature.length !== ES256_SIGNATURE_BYTES)
      throw new Error(`An ES256 signature is ${ES256_SIGNATURE_BYTES} bytes (got ${signature.length}).`);
    return { accessToken: `${signingInput}.${base64url.encode(signature)}`, expiresIn: TOKEN_LIFETIME_SECONDS };
  }

  /**
   * The token's claims, or undefined when it is malformed, badly signed or expired at `now`, or is
   * not one `issue` could have made: without exp or iat, living longer than TOKEN_LIFETIME_SECONDS,
   * or issued in the future (beyond a little clock skew): no token the API accepts lives past an hour.
   */
  async verify(token: string, now: Date): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, await this.key.publicKey(), {
        algorithms: ['ES256'],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        currentDate: now,
        requiredClaims: ['exp', 'iat'],
      });
      const { sub, key, role, iat, exp } = payload;
      if (typeof sub !== 'string' || typeof key !== 'string' || (role !== 'partner' && role !== 'admin')) {
        return undefined;
      }
      // jose has checked that iat and exp are numbers and that exp is after `now`.
      const nowSeconds = now.getTime() / 1000;
      if (iat! > nowSeconds + TOKEN_CLOCK_SKEW_SECONDS || exp! - iat! > TOKEN_LIFETIME_SECONDS) return undefined;
      return { organizationId: sub, keyId: key, role };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return undefined;
      throw error;
    }
  }
}
