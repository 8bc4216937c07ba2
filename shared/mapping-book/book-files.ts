import type { ByteRange, ObjectStore } from '../platform/objects/object-store';
import { BOOK_DERIVED_PREFIX } from './files';

/**
 * The book's files as one store: its derived files (BOOK_DERIVED_PREFIX) in the results bucket, the
 * rest in the files bucket. The results bucket is reached on first use only, so a function that
 * never reads a derived file needs no access to it.
 */
export class BookFiles implements Pick<ObjectStore, 'get' | 'put' | 'delete' | 'expireLater' | 'size'> {
  constructor(
    private readonly kept: Pick<ObjectStore, 'get' | 'put' | 'delete' | 'expireLater' | 'size'>,
    private readonly derived: () => Pick<ObjectStore, 'get' | 'put' | 'delete' | 'expireLater' | 'size'>,
  ) {}

  private storeOf(key: string) {
    return key.startsWith(BOOK_DERIVED_PREFIX) ? this.derived() : this.kept;
  }

  get(key: string, range?: ByteRange): Promise<Buffer | undefined> {
    return this.storeOf(key).get(key, range);
  }

  put(key: string, body: Buffer | string, contentType: string): Promise<void> {
    return this.storeOf(key).put(key, body, contentType);
  }

  size(key: string): Promise<number | undefined> {
    return this.storeOf(key).size(key);
  }

  async delete(keys: readonly string[]): Promise<void> {
    const [derived, kept] = split(keys);
    if (kept.length > 0) await this.kept.delete(kept);
    if (derived.length > 0) await this.derived().delete(derived);
  }

  async expireLater(keys: readonly string[]): Promise<void> {
    const [derived, kept] = split(keys);
    if (kept.length > 0) await this.kept.expireLater(kept);
    if (derived.length > 0) await this.derived().expireLater(derived);
  }
}

function split(keys: readonly string[]): [string[], string[]] {
  return [keys.filter((key) => key.startsWith(BOOK_DERIVED_PREFIX)), keys.filter((key) => !key.startsWith(BOOK_DERIVED_PREFIX))];
}
