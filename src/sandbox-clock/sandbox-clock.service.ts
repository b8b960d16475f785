import { setTimeout as sleep } from "node:timers/promises";
import { clock } from "../clock";
import type { Database } from "../db/database";
import { sqlEnum } from "../db/sql-enum";
import { sqlTimestamp, sqlTimestampEarlier } from "../db/sql-values";
import { boundedDelete } from "../retention/retention-rule";
import { GuardFailed, guarded, writeBatch } from "../db/write-batch";
import { appError } from "../errors/app-error";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { tenantClock } from "../tenancy/tenant-clock";
import type { TenantScope } from "../tenancy/tenant-scope";
import type { TenantService } from "../tenants/tenant.service";
import { MAX_OFFSET_SECONDS, type ClockAdvance } from "./sandbox-clock.inputs";

/** How long an advance waits for the work that fell due to run, before it answers anyway. */
const DUE_WORK_WAIT_MS = 10_000;
const DUE_WORK_POLL_MS = 20;
/** Searches removed per statement at a reset. */
const RETIRED_BATCH = 500;
/** The guard of an advance's write: the offset is still the one it was computed from. */
const CLOCK_GUARD = "sandbox-clock";

/** A tenant's clock as the API shows it. */
export interface SandboxClock {
  now: Date;
  offsetSeconds: number;
}

/**
 * A sandbox tenant's own clock (docs/sandbox-clock.md), which it moves ahead to see holds lapse,
 * quotes and offers expire and the airline's delays pass without waiting. The tenant's offset is
 * what every rule of its data reads (tenancy/tenant-clock.ts); the work queued for its orders
 * runs on the process clock, so moving the clock moves that work's due times with it, in the same
 * transaction. Live tenants have no such clock: 404 `route_not_found`, as for a path that is not there.
 */
export class SandboxClockService {
  constructor(
    private readonly db: Database,
    private readonly tenants: TenantService,
    /** Wakes this process's job worker: work just made due runs now, not at its next poll. */
    private readonly wakeJobs: () => void,
  ) {}

  async read(scope: TenantScope): Promise<SandboxClock> {
    return shown(await this.offsetOf(scope));
  }

  /**
   * Moves the clock ahead, never back (422 `invalid_field_value` naming `to` or `seconds`), at most
   * ten years ahead of real time. Answers once the work that fell due by the new time has run
   * (hold deadlines, the airline's ticketing and refunds), or after DUE_WORK_WAIT_MS with that
   * work still running. Racing advances each move the clock by what they asked, from where the
   * other left it; a `to` that the other has already passed is 422, as it would be after it.
   */
  async advance(scope: TenantScope, advance: ClockAdvance): Promise<SandboxClock> {
    const offset = await this.offsetOf(scope);
    const now = tenantClock({ clockOffsetSeconds: offset }).nowMs();
    const seconds = "seconds" in advance ? advance.seconds : Math.ceil((advance.to.getTime() - now) / 1000);
    const field = "seconds" in advance ? "seconds" : "to";
    if ("to" in advance && advance.to.getTime() < now) {
      throw appError("invalid_field_value", { field, message: `to: is before the clock's now (${new Date(now).toISOString()}); the clock only moves ahead (reset it to go back to real time)` });
    }
    if ("seconds" in advance && seconds < 1) throw appError("invalid_field_value", { field, message: "seconds: must be at least 1; the clock only moves ahead" });
    if (offset + seconds > MAX_OFFSET_SECONDS) throw appError("invalid_field_value", { field, message: `${field}: the clock may run at most ${MAX_OFFSET_SECONDS / 86_400} days ahead of real time` });
    if (seconds > 0) {
      try {
        await writeBatch(this.db, [
          guarded(Sql.sql`UPDATE "Tenant" SET "clockOffsetSeconds" = ${offset + seconds} WHERE "id" = ${scope.tenantId} AND "clockOffsetSeconds" = ${offset}`, CLOCK_GUARD),
          Sql.sql`UPDATE "OrderJob" SET "runAt" = ${sqlTimestampEarlier(this.db.provider, "runAt", seconds)} WHERE "tenantId" = ${scope.tenantId}`,
        ]);
      } catch (error) {
        // A racing advance moved it first: this one moves it on from there.
        if (error instanceof GuardFailed && error.guard === CLOCK_GUARD) return this.advance(scope, advance);
        throw error;
      }
      await this.tenants.invalidate(scope.tenantId);
      this.wakeJobs();
      await this.dueWorkDone(scope.tenantId);
    }
    return shown(offset + seconds);
  }

  /**
   * Back to real time, once no order of the tenant is PENDING (409 `clock_reset_refused`): a hold
   * dated on the moved clock would fall due again. What was priced on the moved clock, dated after
   * real time's now, goes with it: unconfirmed quotes and change offers expire at once, and the
   * searches are removed (until then no read finds them: OfferService keeps an offer dated after
   * the tenant's now out of sight).
   */
  async reset(scope: TenantScope): Promise<SandboxClock> {
    await this.offsetOf(scope);
    const { provider } = this.db;
    const now = sqlTimestamp(provider, clock.now());
    const tenantId = scope.tenantId;
    try {
      await writeBatch(this.db, [
        guarded(
          Sql.sql`UPDATE "Tenant" SET "clockOffsetSeconds" = 0 WHERE "id" = ${tenantId}
            AND NOT EXISTS (SELECT 1 FROM "Order" WHERE "tenantId" = ${tenantId} AND "status" = ${sqlEnum(provider, "OrderStatus", "PENDING")})`,
          CLOCK_GUARD,
        ),
        Sql.sql`UPDATE "OrderCancellation" SET "expiresAt" = ${now} WHERE "tenantId" = ${tenantId} AND "confirmedAt" IS NULL AND "createdAt" > ${now}`,
        Sql.sql`UPDATE "OrderChangeOffer" SET "expiresAt" = ${now} WHERE "tenantId" = ${tenantId} AND "createdAt" > ${now}`,
        Sql.sql`UPDATE "OrderChangeRequest" SET "expiresAt" = ${now} WHERE "tenantId" = ${tenantId} AND "expiresAt" IS NOT NULL AND "createdAt" > ${now}`,
      ]);
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === CLOCK_GUARD) throw appError("clock_reset_refused");
      throw error;
    }
    await this.tenants.invalidate(tenantId);
    const madeAhead = Sql.sql`"tenantId" = ${tenantId} AND "createdAt" > ${now}`;
    while ((await writeBatch(this.db, [boundedDelete(this.db, "OfferRequest", ["id"], madeAhead, "createdAt", RETIRED_BATCH)]))[0] === RETIRED_BATCH);
    return shown(0);
  }

  /** The tenant's offset as stored now (not as the request's cached tenant had it); 404 `route_not_found` for a live tenant. */
  private async offsetOf(scope: TenantScope): Promise<number> {
    if (scope.tenant.environment !== "sandbox") throw appError("route_not_found");
    const tenant = await this.db.prisma.tenant.findUnique({ where: { id: scope.tenantId }, select: { clockOffsetSeconds: true } });
    if (!tenant) throw appError("tenant_not_found");
    return tenant.clockOffsetSeconds;
  }

  /** Waits until no job of the tenant is due (each ran, or was rescheduled), for DUE_WORK_WAIT_MS at most. */
  private async dueWorkDone(tenantId: string): Promise<void> {
    const deadline = clock.nowMs() + DUE_WORK_WAIT_MS;
    while (clock.nowMs() < deadline) {
      const due = await this.db.prisma.orderJob.count({ where: { tenantId, runAt: { lte: clock.now() } } });
      if (due === 0) return;
      await sleep(DUE_WORK_POLL_MS);
    }
  }
}

function shown(offsetSeconds: number): SandboxClock {
  return { now: tenantClock({ clockOffsetSeconds: offsetSeconds }).now(), offsetSeconds };
}
