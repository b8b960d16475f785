import type { Database } from "../db/database";
import { DatabaseUnavailableError, databaseFault } from "../db/errors";
import { sameLease } from "../db/leases";
import { queryRows } from "../db/query-rows";
import { dateFrom, sqlTimestamp } from "../db/sql-values";
import { writeBatch } from "../db/write-batch";
import { appError } from "../errors/app-error";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import type { Logger } from "../logger";
import { fromLiveTenant } from "../tenants/live-tenant";
import { clock } from "../clock";
import { deleteRule, type RetentionRule } from "../retention/retention-rule";
import { keyRefusal } from "./idempotency-key";

/** Keys are kept this long after their first use (docs/rest-api.md#idempotency). */
export const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/**
 * How long a first request may hold its key. A process that dies mid-request leaves its claim
 * behind; after this a retry may run the request again (the order rules then keep it from
 * booking or charging twice).
 */
const CLAIM_LEASE_MS = 60_000;
/** Key scope of requests on owner paths, which belong to no tenant. */
export const OWNER_SCOPE = "owner";
/** Claims left unsettled by database faults that this process remembers (past this, their lease settles them). */
const MAX_UNSETTLED = 10_000;

export interface IdempotentRequest {
  /** The tenant id, or OWNER_SCOPE. */
  scope: string;
  tenantId: string | null;
  key: string;
  /** How the caller sent the key (IDEMPOTENCY_HEADER, or a GraphQL argument), as refusals name it. */
  field: string;
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
 * A claim of this process that a database fault left in the database as "in progress" although
 * no request of ours runs it: its INSERT's answer was lost, its release after a failure could
 * not be written, or its response could not be stored (then kept here to replay).
 */
interface UnsettledClaim {
  /** The claim's lease as written (its token). */
  lease: number;
  response?: StoredResponse;
}

/**
 * Idempotency keys as one mechanism for every POST and GraphQL mutation (docs/rest-api.md#idempotency), enforced
 * by the database's unique (scope, key), so it holds across processes: the first request claims
 * the key and runs; a repeat gets its exact response once it finished, 409
 * `idempotency_request_in_progress` while it runs, and 422 `idempotency_key_reused` if it is a
 * different request. Keys expire after 24 hours.
 *
 * A database outage must not leave a key stuck: a claim this process made and then could not
 * settle (see UnsettledClaim) is settled as soon as the database takes it (released, or its
 * response stored), and a retry reaching this process meanwhile takes the claim over, or
 * replays the response kept, instead of waiting out the claim's lease with 409s.
 */
export class IdempotencyService {
  /** By key and lease (unsettledKey): a key may have been claimed, and left, more than once. */
  readonly #unsettled = new Map<string, UnsettledClaim>();

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
      const claimed = await this.claim(request, now);
      if (claimed) return this.execute(request, claimed, work);
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
      if (existing.fingerprint !== request.fingerprint) throw keyRefusal("idempotency_key_reused", request.field);
      if (existing.responseStatus !== null && existing.responseBody !== null) {
        return { status: existing.responseStatus, body: existing.responseBody, replayed: true };
      }
      const ours = existing.lockedUntil === null ? undefined : unsettledKey(request, dateFrom(existing.lockedUntil).getTime());
      const unsettled = ours === undefined ? undefined : this.#unsettled.get(ours);
      if (unsettled?.response) return { ...unsettled.response, replayed: true };
      if (!unsettled && existing.lockedUntil !== null && dateFrom(existing.lockedUntil) > now) throw keyRefusal("idempotency_request_in_progress", request.field);
      const taken = await this.takeOver(request, existing.lockedUntil, now);
      if (taken) {
        if (ours) this.#unsettled.delete(ours);
        return this.execute(request, taken, work);
      }
      throw keyRefusal("idempotency_request_in_progress", request.field);
    }
    throw keyRefusal("idempotency_request_in_progress", request.field);
  }

  private async execute(request: IdempotentRequest, lease: Date, work: () => Promise<FirstResponse>): Promise<StoredResponse & { replayed: boolean }> {
    let response: FirstResponse;
    try {
      response = await work();
    } catch (error) {
      await this.release(request, lease).catch((releaseError: unknown) => {
        this.log.error({ err: releaseError }, "idempotency claim could not be released");
        this.settleLater(request, { lease: lease.getTime() }, () => this.release(request, lease));
      });
      throw error;
    }
    const stored = { status: response.status, body: response.replayBody ?? response.body };
    try {
      await this.store(request, stored);
    } catch (error) {
      // The work is done and its answer is owed to this caller; a retry here replays it, and it
      // is stored once the database takes it.
      this.log.error({ err: error }, "idempotent response could not be stored");
      this.settleLater(request, { lease: lease.getTime(), response: stored }, () => this.store(request, stored));
    }
    return { status: response.status, body: response.body, replayed: false };
  }

  /** Deletes this process's claim (while `lease` is still its lease), so a retry runs the request again. */
  private async release(request: IdempotentRequest, lease: Date): Promise<void> {
    await writeBatch(this.db, [
      Sql.sql`DELETE FROM "IdempotencyRecord" WHERE "scope" = ${request.scope} AND "key" = ${request.key} AND "responseStatus" IS NULL
        AND ${sameLease(this.db.provider, lease)}`,
    ]);
  }

  private async store(request: IdempotentRequest, response: StoredResponse): Promise<void> {
    await writeBatch(this.db, [
      Sql.sql`UPDATE "IdempotencyRecord" SET "responseStatus" = ${response.status}, "responseBody" = ${response.body}, "lockedUntil" = NULL
        WHERE "scope" = ${request.scope} AND "key" = ${request.key}`,
    ]);
  }

  /** Remembers a claim a database fault left unsettled and settles it with `write` once the database takes it. */
  private settleLater(request: IdempotentRequest, claim: UnsettledClaim, write: () => Promise<void>): void {
    const key = unsettledKey(request, claim.lease);
    if (this.#unsettled.size >= MAX_UNSETTLED && !this.#unsettled.has(key)) return;
    this.#unsettled.set(key, claim);
    this.db.availability.defer(async () => {
      // A retry took it over meanwhile: nothing of ours is left to settle.
      if (this.#unsettled.get(key) !== claim) return;
      await write();
      if (this.#unsettled.get(key) === claim) this.#unsettled.delete(key);
    });
  }

  /**
   * Inserts the claim; its lease, or null when the key is already there (or the tenant is gone).
   * A claim whose answer a database fault lost may have been written: it is remembered as ours.
   */
  private async claim(request: IdempotentRequest, now: Date): Promise<Date | null> {
    const { provider } = this.db;
    const lease = new Date(now.getTime() + CLAIM_LEASE_MS);
    const values = Sql.sql`${request.scope}, ${request.key}, ${request.tenantId}, ${request.fingerprint},
      ${sqlTimestamp(provider, lease)}, ${sqlTimestamp(provider, now)},
      ${sqlTimestamp(provider, new Date(now.getTime() + IDEMPOTENCY_LIFETIME_MS))}`;
    // A tenant's key is written only while the tenant is not deleted (as every tenant-owned row).
    const source = request.tenantId === null ? Sql.sql`SELECT ${values} WHERE 1 = 1` : Sql.sql`SELECT ${values} ${fromLiveTenant(provider, request.tenantId)}`;
    let inserted: number | undefined;
    try {
      [inserted] = await writeBatch(this.db, [
        Sql.sql`INSERT INTO "IdempotencyRecord" ("scope", "key", "tenantId", "fingerprint", "lockedUntil", "createdAt", "expiresAt")
          ${source} ON CONFLICT ("scope", "key") DO NOTHING`,
      ]);
    } catch (error) {
      // Refused before anything was sent (the database known unreachable), it cannot have been written.
      if (databaseFault(error) && !(error instanceof DatabaseUnavailableError)) this.settleLater(request, { lease: lease.getTime() }, () => this.release(request, lease));
      throw error;
    }
    return inserted === 1 ? lease : null;
  }

  /** Claims a key whose first request died or was left unsettled here (no response); its new lease, or null when another caller won. */
  private async takeOver(request: IdempotentRequest, lockedUntil: unknown, now: Date): Promise<Date | null> {
    const { provider } = this.db;
    const lease = new Date(now.getTime() + CLAIM_LEASE_MS);
    const previous = lockedUntil === null ? Sql.sql`"lockedUntil" IS NULL` : sameLease(provider, dateFrom(lockedUntil));
    const [taken] = await writeBatch(this.db, [
      Sql.sql`UPDATE "IdempotencyRecord" SET "lockedUntil" = ${sqlTimestamp(provider, lease)}
        WHERE "scope" = ${request.scope} AND "key" = ${request.key} AND "responseStatus" IS NULL AND ${previous}`,
    ]);
    return taken === 1 ? lease : null;
  }

  private async clearExpired(request: IdempotentRequest, now: Date): Promise<void> {
    await writeBatch(this.db, [
      Sql.sql`DELETE FROM "IdempotencyRecord" WHERE "scope" = ${request.scope} AND "key" = ${request.key}
        AND "expiresAt" <= ${sqlTimestamp(this.db.provider, now)}`,
    ]);
  }
}

/** Where an unsettled claim is remembered: the key within its scope, and the lease it was written with. */
function unsettledKey(request: IdempotentRequest, lease: number): string {
  return `${request.scope}\n${request.key}\n${lease}`;
}

/** A key is removed once its 24 hours are over (`expiresAt`): a repeat after that runs as new. */
export function idempotencyRetention(db: Database): RetentionRule {
  return deleteRule(db, "IdempotencyRecord", ["scope", "key"], "expiresAt", (now) => Sql.sql`"expiresAt" <= ${sqlTimestamp(db.provider, now)}`);
}
