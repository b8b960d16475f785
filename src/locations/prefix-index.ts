/** One searchable string and the number of the record it belongs to. */
export interface KeyEntry {
  key: string;
  owner: number;
}

/** Sorts after every folded key that starts with a given prefix (folded keys are plain ASCII). */
const AFTER_ALL_CONTINUATIONS = "\uffff";

/**
 * Keys sorted once, so that all keys starting with a prefix form one contiguous run found by
 * two binary searches: a lookup costs O(log n + matches) and no string scan.
 */
export class PrefixIndex {
  private readonly keys: string[];
  private readonly owners: Int32Array;

  constructor(entries: readonly KeyEntry[]) {
    const sorted = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.owner - b.owner));
    this.keys = sorted.map((entry) => entry.key);
    this.owners = Int32Array.from(sorted, (entry) => entry.owner);
  }

  /** Calls `visit` with the owner of every key that starts with `prefix` (an owner may repeat). */
  forEachOwnerWithPrefix(prefix: string, visit: (owner: number) => void): void {
    const end = this.firstKeyNotBefore(prefix + AFTER_ALL_CONTINUATIONS);
    for (let i = this.firstKeyNotBefore(prefix); i < end; i++) visit(this.owners[i]!);
  }

  private firstKeyNotBefore(target: string): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
