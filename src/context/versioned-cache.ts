/**
 * A read-through cache that cannot be poisoned by a read racing an invalidation: a value loaded
 * from the database is kept only if no invalidation arrived while it was being loaded.
 * Entries also expire after `maxAgeMs`, a backstop should an invalidation ever be lost.
 */
export class VersionedCache<K, V> {
  private readonly entries = new Map<K, { value: V; storedAt: number }>();
  private generation = 0;

  constructor(private readonly maxAgeMs: number) {}

  async get(key: K, load: () => Promise<V | null>): Promise<V | null> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.storedAt < this.maxAgeMs) return hit.value;
    const generationAtLoad = this.generation;
    const value = await load();
    if (value !== null && generationAtLoad === this.generation) {
      this.entries.set(key, { value, storedAt: Date.now() });
    }
    return value;
  }

  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  deleteWhere(predicate: (value: V) => boolean): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (predicate(entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
