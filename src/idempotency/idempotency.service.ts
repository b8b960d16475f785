import type { Database } from "../db/database";
import { queryRows } from "../db/query-rows";
import { dateFrom, sqlTimestamp } from "../db/sql-values";
import { writeBatch } from "../db/write-batch";
import { appError } from "../errors/app-error";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import type { Logger } from "../logger";
import { fromLiveTenant } from "../tenants/live-tenant";
import { clock } from "../clock";
import { deleteRule, type RetentionRule } from "../retention/retention-rule";

/** Keys are kept this long after their first use (interface §4.6). */
export const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * How long a first request may hold its key. A process that dies mid-request leaves its claim
 * behind; after this a retry may run the request again (the order rules then keep it from
 * booking or charging twice).
 */
const CLAIM_LEASE_MS = 60_000;
/** Key scope of requests on owner paths, which belong to no tenant. */
export const OWNER_SCOPE = "owner";

export interface IdempotentRequest {
  /** The tenant id, or OWNER_SCOPE. */
  scope: string;
  tenantId: string | null;
  key: string;
  /** requestFingerprint() of the operation and its input. */
  fingerprint: string;
}

/** A response as stored and replayed: status and the exact body text. */
export interface StoredResponse {
  status: number;
  body: string;
}

/**
 * What a first request answers. An answer that shows a secret once (an issued API key, a
 * webhook signing secret) gives `replayBody`, the same answer with the secret redacted: that is
 * what the record keeps and repeats receive, so no secret is ever stored.
 */
export interface FirstResponse extends StoredResponse {
  replayBody?: string;
}

interface RecordRow extends Record<string, unknown> {
  fingerprint: string;
  responseStatus: number | null;
  responseBody: string | null;
  lockedUntil: unknown;
  expiresAt: unknown;
}

/**
 * Idempotency keys as one mechanism for every POST and GraphQL mutation (decisions §5), enforced
 * by the database's unique (scope, key), so it holds across processes: the first request claims
 * the key and runs; a repeat gets its exact response once it finished, 409
 * `idempotency_request_in_progress` while it runs, and 422 `idempotency_key_reused` if it is a
 * different request. Keys expire after 24 hours.
 */
export class IdempotencyService {
  constructor(
    private readonly db: Database,
    private readonly log: Logger,
  ) {}

  /**
   * Runs `work` once per key, or replays what it answered. `work` returns the response to keep;
   * when it throws, the claim is released, so the request may be retried with the same key.
   */
  async run(request: IdempotentRequest, work: () => Promise<FirstResponse>): Promise<StoredResponse & { replayed: boolean }> {
    // Two passes at most: the second follows a claim that expired (or was released) under us.
    for (let pass = 0; pass < 2; pass++) {
      const now = clock.now();
      if (await this.claim(request, now)) return this.execute(request, work);
      const [existing] = await queryRows<RecordRow>(
        this.db,
        Sql.sql`SELECT "fingerprint", "responseStatus", "responseBody", "lockedUntil", "expiresAt"
          FROM "IdempotencyRecord" WHERE "scope" = ${request.scope} AND "key" = ${request.key}`,
      );
      if (!existing) {
        // Not claimed and not there: released meanwhile, or the tenant is gone.
        if (pass === 0) continue;
        throw appError("tenant_not_found");
      }
      if (dateFrom(existing.expiresAt) <= now) {
        await this.clearExpired(request, now);
        continue;
      }
      if (existing.fingerprint !== request.fingerprint) throw appError("idempotency_key_reused", { field: "Idempotency-Key" });
      if (existing.responseStatus !== null && existing.responseBody !== null) {
        return { status: existing.responseStatus, body: existing.responseBody, replayed: true };
      }
      if (existing.lockedUntil !== null && dateFrom(existing.lockedUntil) > now) throw appError("idempotency_request_in_progress");
      if (await this.takeOver(request, existing.lockedUntil, now)) return this.execute(request, work);
      throw appError("idempotency_request_in_progress");
    }
    throw appError("idempotency_request_in_progress");
  }

  private async execute(request: IdempotentRequest, work: () => Promise<FirstResponse>): Promise<StoredResponse & { replayed: boolean }> {
    let response: FirstResponse;
    try {
      response = await work();
    } catch (error) {
      await writeBatch(this.db, [
        Sql.sql`DELETE FROM "IdempotencyRecord" WHERE "scope" = ${request.scope} AND "key" = ${request.key} AND "responseStatus" IS NULL`,
      ]).catch((releaseError: unknown) => this.log.error({ err: releaseError }, "idempotency claim could not be released"));
      throw error;
    }
    try {
      await writeBatch(this.db, [
        Sql.sql`UPDATE "IdempotencyRecord" SET "responseStatus" = ${response.status}, "responseBody" = ${response.replayBody ?? response.body}, "lockedUntil" = NULL
          WHERE "scope" = ${request.scope} AND "key" = ${request.key}`,
      ]);
    } catch (error) {
      // The work is done and its answer is owed to this caller; a retry after the lease finds
      // the order rules in the way of doing it twice.
      this.log.error({ err: error }, "idempotent response could not be stored");
    }
    return { status: response.status, body: response.body, replayed: false };
  }

  /** Inserts the claim; false when the key is already there (or the tenant is gone). */
  private async claim(request: IdempotentRequest, now: Date): Promise<boolean> {
    const { provider } = this.db;
    const values = Sql.sql`${request.scope}, ${request.key}, ${request.tenantId}, ${request.fingerprint},
      ${sqlTimestamp(provider, new Date(now.getTime() + CLAIM_LEASE_MS))}, ${sqlTimestamp(provider, now)},
      ${sqlTimestamp(provider, new Date(now.getTime() + IDEMPOTENCY_LIFETIME_MS))}`;
    // A tenant's key is written only while the tenant is not deleted (as every tenant-owned row).
    const source = request.tenantId === null ? Sql.sql`SELECT ${values} WHERE 1 = 1` : Sql.sql`SELECT ${values} ${fromLiveTenant(provider, request.tenantId)}`;
    const [inserted] = await writeBatch(this.db, [
      Sql.sql`INSERT INTO "IdempotencyRecord" ("scope", "key", "tenantId", "fingerprint", "lockedUntil", "createdAt", "expiresAt")
        ${source} ON CONFLICT ("scope", "key") DO NOTHING`,
    ]);
    return inserted === 1;
  }

  /** Claims a key whose first request died (lease over, no response); only one caller wins. */
  private async takeOver(request: IdempotentRequest, lockedUntil: unknown, now: Date): Promise<boolean> {
    const { provider } = this.db;
    const lease = sqlTimestamp(provider, new Date(now.getTime() + CLAIM_LEASE_MS));
    const previous = lockedUntil === null ? Sql.sql`"lockedUntil" IS NULL` : Sql.sql`"lockedUntil" = ${sqlTimestamp(provider, dateFrom(lockedUntil))}`;
    const [taken] = await writeBatch(this.db, [
      Sql.sql`UPDATE "IdempotencyRecord" SET "lockedUntil" = ${lease}
        WHERE "scope" = ${request.scope} AND "key" = ${request.key} AND "responseStatus" IS NULL AND ${previous}`,
    ]);
    return taken === 1;
  }

  private async clearExpired(request: IdempotentRequest, now: Date): Promise<void> {
    await writeBatch(this.db, [
      Sql.sql`DELETE FROM "IdempotencyRecord" WHERE "scope" = ${request.scope} AND "key" = ${request.key}
        AND "expiresAt" <= ${sqlTimestamp(this.db.provider, now)}`,
    ]);
  }
}

/** A key is removed once its 24 hours are over (`expiresAt`): a repeat after that runs as new. */
export function idempotencyRetention(db: Database): RetentionRule {
  return deleteRule(db, "IdempotencyRecord", ["scope", "key"], "expiresAt", (now) => Sql.sql`"expiresAt" <= ${sqlTimestamp(db.provider, now)}`);
}
