import { clock } from "../clock";
import { utcDay } from "../db/daily-buckets";
import type { Database } from "../db/database";
import { databaseFault } from "../db/errors";
import { fromLiveTenant } from "./live-tenant";
import type { Logger } from "../logger";

export type UsageMetric = "api_requests" | "searches";

/**
 * Counts per-tenant usage in memory and writes it in batches, so counting a request never adds
 * a database write to it. Each count goes to the tenant's total and to its UTC day's. Counts
 * still buffered when a process dies are lost (at most one flush interval); a clean shutdown
 * flushes them, and counts a database fault kept from being written wait for the next flush.
 */
export class UsageMeter {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly flushEveryMs: number,
  ) {}

  /** Counts `amount` for the tenant on today's UTC day (by the clock at the time of the call). */
  record(tenantId: string, metric: UsageMetric, amount = 1): void {
    const key = `${tenantId} ${metric} ${utcDay(clock.now())}`;
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
          const [tenantId, metric, day] = key.split(" ");
          // One upsert each on both providers, the total and the day's; nothing is counted for a deleted tenant.
          await tx.$executeRaw`INSERT INTO "UsageCounter" ("tenantId", "metric", "count")
            SELECT ${tenantId}, ${metric}, ${amount} ${fromLiveTenant(this.db.provider, tenantId!)}
            ON CONFLICT ("tenantId", "metric") DO UPDATE SET "count" = "UsageCounter"."count" + excluded."count"`;
          await tx.$executeRaw`INSERT INTO "DailyUsageCounter" ("tenantId", "day", "metric", "count")
            SELECT ${tenantId}, ${day}, ${metric}, ${amount} ${fromLiveTenant(this.db.provider, tenantId!)}
            ON CONFLICT ("tenantId", "day", "metric") DO UPDATE SET "count" = "DailyUsageCounter"."count" + excluded."count"`;
        }
      });
    } catch (error) {
      this.log.error({ err: error }, "usage counters could not be written");
      // The database was unreachable or full: the counts wait for the next flush instead of being lost.
      if (databaseFault(error)) this.keep(batch);
    }
  }

  private keep(batch: Map<string, number>): void {
    for (const [key, amount] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + amount);
    this.timer ??= setTimeout(() => void this.flush(), this.flushEveryMs).unref();
  }
}
