import { clock } from "../clock";
/** A token bucket's settings: it holds up to `capacity` tokens and regains `refillPerSecond` a second. */
export interface BucketSettings {
  capacity: number;
  refillPerSecond: number;
}

/** What a store answered: tokens handed out (0 when fewer than `need` were there) and what is left. */
export interface TokenGrant {
  granted: number;
  tokensLeft: number;
}

/**
 * Where buckets live. `take` refills the bucket for the time since it was last touched, then
 * hands out up to `want` whole tokens if at least `need` are there (`need` ≤ `want`), atomically.
 */
export interface TokenBucketStore {
  /** Synchronous where the store can be (memory), so a take need not wait a tick. */
  take(key: string, want: number, need: number): TokenGrant | Promise<TokenGrant>;
}

/** Tokens after `elapsedMs` of refill, never above capacity. */
export function refilled(tokens: number, elapsedMs: number, settings: BucketSettings): number {
  return Math.min(settings.capacity, tokens + (elapsedMs / 1000) * settings.refillPerSecond);
}

/** The grant rule both stores apply (PostgreSQL in SQL, see postgres-token-buckets.ts). */
export function grant(available: number, want: number, need: number): number {
  const whole = Math.floor(available);
  return whole >= need ? Math.min(want, whole) : 0;
}

/** Buckets in this process's memory: the store on SQLite, where one process serves the database. */
export class MemoryTokenBuckets implements TokenBucketStore {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly settings: BucketSettings) {}

  take(key: string, want: number, need: number): TokenGrant {
    const now = clock.nowMs();
    const bucket = this.buckets.get(key);
    const available = bucket ? refilled(bucket.tokens, now - bucket.at, this.settings) : this.settings.capacity;
    const granted = grant(available, want, need);
    this.buckets.set(key, { tokens: available - granted, at: now });
    return { granted, tokensLeft: available - granted };
  }
}
