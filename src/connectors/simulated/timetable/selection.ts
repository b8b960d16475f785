/**
 * Choosing a few good options out of many: a round-robin over three rankings (cheapest,
 * fastest, fewest connections) so that the result mixes all three kinds of "best".
 */

export interface Rankable {
  /** Comparable price (e.g. the adult fare). */
  price: number;
  durationMinutes: number;
  connections: number;
  /** Unique and stable, so ties break the same way in every process. */
  key: string;
}

const byKey = (a: Rankable, b: Rankable) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const cheapest = (a: Rankable, b: Rankable) =>
  a.price - b.price || a.durationMinutes - b.durationMinutes || byKey(a, b);
const fastest = (a: Rankable, b: Rankable) =>
  a.durationMinutes - b.durationMinutes || a.price - b.price || byKey(a, b);
const fewestConnections = (a: Rankable, b: Rankable) => a.connections - b.connections || cheapest(a, b);

/**
 * Up to `limit` options, taken in turn from the cheapest, the fastest and the fewest-connections
 * rankings, skipping ones already taken. Deterministic for a given set of options.
 */
export function pickBestMix<T extends Rankable>(options: readonly T[], limit: number): T[] {
  if (options.length <= limit) return [...options];
  const rankings = [cheapest, fastest, fewestConnections].map((order) => [...options].sort(order));
  const picked = new Set<T>();
  for (let rank = 0; picked.size < limit; rank++) {
    for (const ranking of rankings) {
      if (picked.size < limit) picked.add(ranking[rank]!);
    }
  }
  return [...picked];
}
