/**
 * The local runtime's queues kept in a folder (.local/queues/): one JSON file per message, written
 * to a temporary name and renamed, so a crash leaves each message either whole or not sent.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageStore, StoredMessage } from '../../shared/platform/queue/in-process';

export function messageFolder(directory: string): MessageStore {
  mkdirSync(directory, { recursive: true });
  const fileOf = (id: string) => join(directory, `${id}.json`);
  return {
    load: () =>
      readdirSync(directory)
        .filter((name) => name.endsWith('.json'))
        .map((name) => JSON.parse(readFileSync(join(directory, name), 'utf8')) as StoredMessage),
    put(message) {
      const temporary = join(directory, `${message.id}.tmp`);
      writeFileSync(temporary, JSON.stringify(message));
      renameSync(temporary, fileOf(message.id));
    },
    remove: (id) => rmSync(fileOf(id), { force: true }),
  };
}
