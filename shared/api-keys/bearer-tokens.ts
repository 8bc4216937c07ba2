/**
 * Bearer tokens: short-lived HS256 JWTs issued in exchange for an API key (OAuth 2.0 client
 * credentials). A token names the key it came from, so revoking the key ends its tokens too.
 */
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
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

/** Resolves the signing secret; production reads it from Secrets Manager once per container. */
export type SigningSecretSource = () => Promise<Uint8Array>;

export class BearerTokens {
  constructor(private readonly secret: SigningSecretSource) {}

  async issue(claims: TokenClaims, now: Date): Promise<IssuedToken> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const accessToken = await new SignJWT({ key: claims.keyId, role: claims.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.organizationId)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + TOKEN_LIFETIME_SECONDS)
      .sign(await this.secret());
    return { accessToken, expiresIn: TOKEN_LIFETIME_SECONDS };
  }

  /**
   * The token's claims, or undefined when it is malformed, badly signed or expired at `now`, or is
   * not one `issue` could have made: without exp or iat, living longer than TOKEN_LIFETIME_SECONDS,
   * or issued in the future (beyond a little clock skew): no token the API accepts lives past an hour.
   */
  async verify(token: string, now: Date): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, await this.secret(), {
        algorithms: ['HS256'],
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
