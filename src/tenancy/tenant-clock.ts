import { clock, type Clock } from "../clock";
import type { Database } from "../db/database";

/**
 * A tenant's own clock: the process clock plus the tenant's offset, which only a sandbox tenant
 * moves (docs/sandbox-clock.md). Everything the tenant sees and every rule it can trip over runs
 * on it: creation times, expiries, payment deadlines, dates on sale, the 24-hours-before-departure
 * rules, events. Leases, timers, schedules of background work and webhook attempts stay on the
 * process clock, since other processes and receivers share that one.
 */
export interface TenantClock extends Clock {
  /** How far ahead of the process clock this clock runs (0 for real time). */
  readonly offsetMs: number;
  /** The process-clock instant at which this clock reads `instant`: when work due then must run. */
  toProcess(instant: Date): Date;
}

/** The clock of a tenant whose offset is `clockOffsetSeconds`. */
export function tenantClock(tenant: { clockOffsetSeconds: number }): TenantClock {
  const offsetMs = tenant.clockOffsetSeconds * 1000;
  if (offsetMs === 0) return REAL_TIME;
  return {
    offsetMs,
    nowMs: () => clock.nowMs() + offsetMs,
    now: () => new Date(clock.nowMs() + offsetMs),
    toProcess: (instant) => new Date(instant.getTime() - offsetMs),
  };
}

/** The clock of every tenant that never moved its own. */
const REAL_TIME: TenantClock = { offsetMs: 0, nowMs: () => clock.nowMs(), now: () => clock.now(), toProcess: (instant) => instant };

/** The tenants whose clocks run ahead of the process's (sandbox tenants that moved theirs), with their offsets. */
export async function clocksAhead(db: Database): Promise<Array<{ tenantId: string; offsetMs: number }>> {
  const rows = await db.prisma.tenant.findMany({ where: { clockOffsetSeconds: { gt: 0 }, status: { not: "deleted" } }, select: { id: true, clockOffsetSeconds: true } });
  return rows.map((row) => ({ tenantId: row.id, offsetMs: row.clockOffsetSeconds * 1000 }));
}
