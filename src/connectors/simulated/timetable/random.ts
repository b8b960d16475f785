/**
 * Deterministic pseudo-randomness for the simulated airline. Everything derives from string
 * keys such as "ZA|LHR|JFK|2026-03-07", so the same search gives the same flights and prices
 * in every process and after every restart. Math.random is never used.
 */

/**
 * A well-mixed 32-bit hash of a string: FNV-1a over UTF-16 code units, then the MurmurHash3
 * finaliser so that keys differing in one character land far apart.
 */
function hashString(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A number in [0, 1) fixed by `key`: one deterministic draw. */
export function unitHash(key: string): number {
  return hashString(key) / 0x1_0000_0000;
}

/**
 * A seeded generator (mulberry32) of numbers in [0, 1), for when one key needs several draws.
 * Each call to the returned function advances its own state only.
 */
export function seededRandom(key: string): () => number {
  let state = hashString(key);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}

/** An integer in [min, max] (both inclusive) from a draw in [0, 1). */
export function intBetween(draw: number, min: number, max: number): number {
  return min + Math.floor(draw * (max - min + 1));
}
