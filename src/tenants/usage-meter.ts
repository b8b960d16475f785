import type { Database } from "../db/database";
import { Prisma } from "../generated/prisma-sqlite/client";
import type { Logger } from "../logger";

export type UsageMetric = "api_requests" | "searches";

/**
 * Counts per-tenant usage in memory and writes it in batches, so counting a request never adds
 * a database write to it. Counts still buffered when a process dies are lost (at most one flush
 * interval); a clean shutdown flushes them.
 */
export class UsageMeter {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  /**
   * PostgreSQL: `FOR SHARE` makes the SELECT wait for a tenant deletion in progress and then
   * re-read the status, so a flush racing a deletion cannot re-create a counter for the
   * tombstone after the deletion removed them (READ COMMITTED would otherwise insert from its
   * stale snapshot). SQLite runs one writer at a time, so there is no race and no such clause.
   */
  private readonly lockTenant: Prisma.Sql;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly flushEveryMs: number,
  ) {
    this.lockTenant = db.provider === "postgresql" ? Prisma.sql`FOR SHARE` : Prisma.empty;
  }

  record(tenantId: string, metric: UsageMetric, amount = 1): void {
    const key = `${tenantId} ${metric}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + amount);
    this.timer ??= setTimeout(() => void this.flush(), this.flushEveryMs).unref();
  }

  /** Writes every buffered count. Counts for tenants deleted meanwhile are dropped. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  private async write(batch: Map<string, number>): Promise<void> {
    if (batch.size === 0) return;
    try {
      await this.db.prisma.$transaction(async (tx) => {
        for (const [key, amount] of batch) {
          const [tenantId, metric] = key.split(" ");
          // One upsert on both providers; the SELECT skips tombstones so deletion stays complete.
          await tx.$executeRaw`INSERT INTO "UsageCounter" ("tenantId", "metric", "count")
            SELECT ${tenantId}, ${metric}, ${amount} FROM "Tenant" WHERE "id" = ${tenantId} AND "status" <> 'deleted' ${this.lockTenant}
            ON CONFLICT ("tenantId", "metric") DO UPDATE SET "count" = "UsageCounter"."count" + excluded."count"`;
        }
      });
    } catch (error) {
      this.log.error({ err: error }, "usage counters could not be written");
    }
  }
}
