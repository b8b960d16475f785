import { RecentMap } from "./recent-map";
import { clock } from "./clock";

/**
 * A read-through cache that cannot be poisoned by a read racing an invalidation: a value loaded
 * from the database is kept only if no invalidation arrived while it was being loaded.
 * Entries also expire after `maxAgeMs`, a backstop should an invalidation ever be lost, and at
 * least the `capacity` most recently loaded are kept (RecentMap).
 */
export class VersionedCache<K, V> {
  private readonly entries: RecentMap<K, { value: V; storedAt: number }>;
  private generation = 0;

  constructor(
    private readonly maxAgeMs: number,
    capacity = 100_000,
  ) {
    this.entries = new RecentMap(capacity);
  }

  async get(key: K, load: () => Promise<V | null>): Promise<V | null> {
    const hit = this.entries.get(key);
    if (hit && clock.nowMs() - hit.storedAt < this.maxAgeMs) return hit.value;
    const generationAtLoad = this.generation;
    const value = await load();
    if (value !== null && generationAtLoad === this.generation) {
      this.entries.set(key, { value, storedAt: clock.nowMs() });
    }
    return value;
  }

  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  deleteWhere(predicate: (value: V) => boolean): void {
    this.generation++;
    this.entries.deleteWhere(({ value }) => predicate(value));
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
