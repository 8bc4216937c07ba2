import type { ApiKeyRecord } from './credentials';

/** What partners see of a key: never its hash. */
export function apiKeyView(record: ApiKeyRecord) {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    role: record.role,
    createdAt: record.createdAt,
    revokedAt: record.revokedAt,
  };
}
