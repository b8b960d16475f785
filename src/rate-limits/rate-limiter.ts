import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { deleteRule, type RetentionRule } from "../retention/retention-rule";
import type { Config } from "../config";
import type { Database } from "../db/database";
import { PostgresTokenBuckets } from "./postgres-token-buckets";
import { MemoryTokenBuckets, refilled, type BucketSettings, type TokenBucketStore, type TokenGrant } from "./token-buckets";
import { clock } from "../clock";

/** The answer to one take, with what the RateLimit-* headers report. */
export interface RateLimitVerdict {
  allowed: boolean;
  /** The bucket's capacity. */
  limit: number;
  /** Whole tokens left for the key. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until the refused take could succeed (at least 1); 0 when allowed. */
  retryAfterSeconds: number;
}

/**
 * Unused leased tokens are dropped after this long: a process that stopped seeing a key's
 * traffic does not keep a lease to spend on top of a bucket that has refilled meanwhile.
 */
const LEASE_TTL_MS = 1000;

interface KeyState {
  /** Tokens this process took from the store and has not spent yet. */
  leased: number;
  leasedAt: number;
  /** The store's bucket as last seen. */
  bucketTokens: number;
  bucketAt: number;
  /** A take from the store in progress for this key: concurrent requests wait for it. */
  storeTake: Promise<void> | null;
}

/**
 * One token bucket per key. Each take asks the store for tokens, a lease of `leaseSize` at a
 * time, and spends leased tokens locally without asking again; a key known to be short of
 * tokens is refused without asking either. With a shared store (PostgreSQL) that makes a
 * key's traffic cost one round trip per lease, and bounds the error to the leases the
 * processes hold (each about 100 ms of the refill rate). With leaseSize 0 every take asks the
 * store: exact, for the in-memory store.
 */
export class RateLimiter {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    private readonly store: TokenBucketStore,
    private readonly settings: BucketSettings,
    private readonly leaseSize: number,
  ) {}

  /** The most tokens one take can need: a bucket's worth. */
  get capacity(): number {
    return this.settings.capacity;
  }

  /**
   * Takes `cost` tokens (at most the capacity, so any operation can pass when the bucket is
   * full). Answers at once (no promise) when leased tokens, the known bucket or a synchronous
   * store settle it: the common case, and every case on SQLite.
   */
  take(key: string, cost: number): RateLimitVerdict | Promise<RateLimitVerdict> {
    const need = Math.min(Math.max(1, cost), this.settings.capacity);
    const state = this.stateOf(key);
    const settled = this.takeLocally(state, need);
    if (settled) return settled;
    if (!state.storeTake) {
      const answer = this.store.take(key, Math.max(need - state.leased, Math.min(this.leaseSize, this.settings.capacity)), need - state.leased);
      if (!(answer instanceof Promise)) {
        this.receive(state, answer);
        return this.takeLocally(state, need) ?? this.verdict(state, clock.nowMs(), need);
      }
      state.storeTake = answer
        .then((grant) => this.receive(state, grant))
        .finally(() => {
          state.storeTake = null;
        });
    }
    // Concurrent requests for the key wait for the one store take in progress, then try again.
    return state.storeTake.then(() => this.take(key, cost));
  }

  /** Spends leased tokens, or refuses when the known bucket cannot cover `need`; null when the store must be asked. */
  private takeLocally(state: KeyState, need: number): RateLimitVerdict | null {
    const now = clock.nowMs();
    if (now - state.leasedAt > LEASE_TTL_MS) state.leased = 0;
    if (state.leased >= need) {
      state.leased -= need;
      return this.verdict(state, now, 0);
    }
    const available = state.leased + refilled(state.bucketTokens, now - state.bucketAt, this.settings);
    return available < need ? this.verdict(state, now, need) : null;
  }

  private receive(state: KeyState, { granted, tokensLeft }: TokenGrant): void {
    const now = clock.nowMs();
    if (granted > 0) {
      state.leased += granted;
      state.leasedAt = now;
    }
    state.bucketTokens = tokensLeft;
    state.bucketAt = now;
  }

  private stateOf(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      // Unknown until the store is asked: assumed full, so the first take asks.
      state = { leased: 0, leasedAt: 0, bucketTokens: this.settings.capacity, bucketAt: 0, storeTake: null };
      this.keys.set(key, state);
    }
    return state;
  }

  /** `refusedNeed` > 0: refused, needing that many tokens. */
  private verdict(state: KeyState, now: number, refusedNeed: number): RateLimitVerdict {
    const { capacity, refillPerSecond } = this.settings;
    const tokens = Math.min(capacity, state.leased + refilled(state.bucketTokens, now - state.bucketAt, this.settings));
    return {
      allowed: refusedNeed === 0,
      limit: capacity,
      remaining: Math.floor(tokens),
      resetSeconds: Math.ceil((capacity - tokens) / refillPerSecond),
      retryAfterSeconds: refusedNeed === 0 ? 0 : Math.max(1, Math.ceil((refusedNeed - tokens) / refillPerSecond)),
    };
  }
}

/**
 * The limiter the configuration asks for, or null when `RATE_LIMIT_RPS=0`. Each key's bucket
 * holds a second's allowance plus the burst (`RATE_LIMIT_RPS + RATE_LIMIT_BURST` tokens) and
 * regains `RATE_LIMIT_RPS` a second. PostgreSQL: one bucket
 * row per key shared by every process, taken in leases of 100 ms of the rate. SQLite (one
 * process): in memory, exact.
 */
export function createRateLimiter(config: Config, db: Database): RateLimiter | null {
  if (config.RATE_LIMIT_RPS === 0) return null;
  const settings = bucketSettings(config);
  if (db.provider === "postgresql") {
    return new RateLimiter(new PostgresTokenBuckets(db.prisma, settings), settings, Math.ceil(settings.refillPerSecond / 10));
  }
  return new RateLimiter(new MemoryTokenBuckets(settings), settings, 0);
}

/**
 * PostgreSQL's bucket rows (none without limiting, or on SQLite, whose buckets are in memory): a
 * bucket untouched for as long as it takes to fill, and at least an hour, is full, as a new one
 * is; it is removed, and made again at the key's next request.
 */
export function rateLimitRetention(config: Config, db: Database): RetentionRule | null {
  if (config.RATE_LIMIT_RPS === 0 || db.provider !== "postgresql") return null;
  const { capacity, refillPerSecond } = bucketSettings(config);
  const idleSeconds = Math.max(3600, Math.ceil(capacity / refillPerSecond));
  // By the database's clock, as the buckets' refills are.
  return deleteRule(db, "RateLimitBucket", ["key"], "refilledAt", () => Sql.sql`"refilledAt" < (clock_timestamp() AT TIME ZONE 'UTC') - ${idleSeconds}::int * interval '1 second'`);
}

function bucketSettings(config: Config): BucketSettings {
  return { capacity: config.RATE_LIMIT_RPS + config.RATE_LIMIT_BURST, refillPerSecond: config.RATE_LIMIT_RPS };
}
