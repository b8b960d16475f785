import type { PrismaClient } from "../generated/prisma-sqlite/client";
import type { BucketSettings, TokenBucketStore, TokenGrant } from "./token-buckets";

/**
 * Buckets in the `RateLimitBucket` table, shared by every process on the database. One
 * statement locks the key's row, refills it by the database clock (so processes' clocks need
 * not agree), applies the grant rule of token-buckets.ts and writes the rest back. A key's first
 * take creates its row, full.
 */
export class PostgresTokenBuckets implements TokenBucketStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly settings: BucketSettings,
  ) {}

  async take(key: string, want: number, need: number): Promise<TokenGrant> {
    const taken = await this.update(key, want, need);
    if (taken) return taken;
    await this.prisma.$executeRaw`
      INSERT INTO "RateLimitBucket" ("key", "tokens", "refilledAt")
      VALUES (${key}, ${this.settings.capacity}, clock_timestamp() AT TIME ZONE 'UTC')
      ON CONFLICT ("key") DO NOTHING`;
    const afterCreate = await this.update(key, want, need);
    if (!afterCreate) throw new Error(`rate-limit bucket ${key} vanished after its creation`);
    return afterCreate;
  }

  private async update(key: string, want: number, need: number): Promise<TokenGrant | null> {
    const { capacity, refillPerSecond } = this.settings;
    const rows = await this.prisma.$queryRaw<Array<{ granted: number; tokensLeft: number }>>`
      WITH locked AS (
        SELECT "tokens", "refilledAt", clock_timestamp() AT TIME ZONE 'UTC' AS "now"
        FROM "RateLimitBucket" WHERE "key" = ${key} FOR UPDATE
      ), available AS (
        SELECT LEAST(${capacity}::float8, "tokens" + ${refillPerSecond}::float8 * EXTRACT(EPOCH FROM ("now" - "refilledAt"))::float8) AS "tokens", "now"
        FROM locked
      ), decided AS (
        SELECT "tokens", "now",
               CASE WHEN FLOOR("tokens") >= ${need}::float8 THEN LEAST(${want}::float8, FLOOR("tokens")) ELSE 0 END AS "granted"
        FROM available
      )
      UPDATE "RateLimitBucket" AS bucket
      SET "tokens" = decided."tokens" - decided."granted", "refilledAt" = decided."now"
      FROM decided
      WHERE bucket."key" = ${key}
      RETURNING decided."granted" AS "granted", bucket."tokens" AS "tokensLeft"`;
    const row = rows[0];
    return row ? { granted: Number(row.granted), tokensLeft: Number(row.tokensLeft) } : null;
  }
}
