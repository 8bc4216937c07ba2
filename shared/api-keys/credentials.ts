/**
 * API keys: format, generation and verification. A key is shown once at creation; only the
 * SHA-256 of its secret part is stored. Keys are 256-bit random, so a fast hash is enough (no
 * password-style stretching is needed for values nobody chose).
 *
 * Format: `hmk_<keyId>_<secret>`; `hmk_<keyId>` is the public prefix shown in listings and is
 * also the OAuth client id.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyRole } from '../platform/auth/principal';

export const API_KEY_PREFIX = 'hmk_';

/**
 * Active (unrevoked) keys an organization may hold: one per environment and integration, with room
 * for a second while one is rotated. The list answers them all in one page, and a runaway script
 * cannot mint keys without end.
 */
export const MAX_ACTIVE_API_KEYS = 25;

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  name: string;
  role: KeyRole;
  /** Public part of the key, e.g. "hmk_3f9a0c1b2d4e". */
  prefix: string;
  secretHash: string;
  createdAt: string;
  revokedAt?: string;
}

export interface IssuedApiKey {
  record: ApiKeyRecord;
  /** The full key; returned to the caller once and never stored. */
  plaintext: string;
}

const KEY_PATTERN = /^hmk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export function issueApiKey(input: { organizationId: string; name: string; role: KeyRole; now: Date }): IssuedApiKey {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const prefix = `${API_KEY_PREFIX}${id}`;
  return {
    plaintext: `${prefix}_${secret}`,
    record: {
      id,
      organizationId: input.organizationId,
      name: input.name,
      role: input.role,
      prefix,
      secretHash: hashSecret(secret),
      createdAt: input.now.toISOString(),
    },
  };
}

export function parseApiKey(text: string): { keyId: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(text.trim());
  return match ? { keyId: match[1]!, secret: match[2]! } : undefined;
}

/** Key id from a public prefix (`hmk_<keyId>`), e.g. an OAuth client id. */
export function keyIdFromPrefix(prefix: string): string | undefined {
  const match = /^hmk_([0-9a-f]{12})$/.exec(prefix.trim());
  return match?.[1];
}

export function secretMatches(secret: string, record: ApiKeyRecord): boolean {
  const expected = Buffer.from(record.secretHash, 'hex');
  const actual = Buffer.from(hashSecret(secret), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function isUsable(record: ApiKeyRecord | undefined): record is ApiKeyRecord {
  return record !== undefined && record.revokedAt === undefined;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
