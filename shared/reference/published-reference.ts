/**
 * The current publication's search index and statistics, loaded from the object store on first
 * use and kept for the life of the Lambda container. Each call checks the CURRENT pointer (one
 * small, eventually consistent read) and reloads only when a new publication has replaced it.
 */
import type { CurrentReference } from './inventory';
import type { ObjectStore } from '../platform/objects/object-store';
import { loadIndex, loadStatistics, type ReferenceSearchIndex, type ReferenceStatistics } from './search/search-index';

interface Loaded<T> {
  artifactsId: string;
  value: Promise<T>;
}

export class PublishedReference {
  private index?: Loaded<ReferenceSearchIndex>;
  private statistics?: Loaded<ReferenceStatistics>;

  constructor(
    private readonly store: { getCurrent(options: { consistent: boolean }): Promise<CurrentReference | undefined> },
    private readonly objects: ObjectStore,
  ) {}

  /** The current search index; undefined before the first publication. */
  async searchIndex(): Promise<ReferenceSearchIndex | undefined> {
    const current = await this.store.getCurrent({ consistent: false });
    if (!current) return undefined;
    if (this.index?.artifactsId !== current.artifactsId) {
      const value = this.read(current.artifacts.indexKey).then(loadIndex);
      this.index = { artifactsId: current.artifactsId, value };
      value.catch(() => this.index?.value === value && (this.index = undefined));
    }
    return this.index.value;
  }

  /** The current statistics aggregates; undefined before the first publication. */
  async currentStatistics(): Promise<ReferenceStatistics | undefined> {
    const current = await this.store.getCurrent({ consistent: false });
    if (!current) return undefined;
    if (this.statistics?.artifactsId !== current.artifactsId) {
      const value = this.read(current.artifacts.statisticsKey).then(loadStatistics);
      this.statistics = { artifactsId: current.artifactsId, value };
      value.catch(() => this.statistics?.value === value && (this.statistics = undefined));
    }
    return this.statistics.value;
  }

  /** Reads an artifact; a failed read is not cached, so the next request tries again. */
  private async read(key: string): Promise<Uint8Array> {
    const bytes = await this.objects.get(key);
    if (!bytes) throw new Error(`The reference artifact ${key} is missing.`);
    return bytes;
  }
}
