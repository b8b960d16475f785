import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger";
import type { RetentionRule } from "../../src/retention/retention-rule";
import { RetentionSweeper } from "../../src/retention/retention-sweeper";
import { eventually } from "../helpers/eventually";

/** A table of `rows` rows past keeping, whose batches take `batchMs` each; it records every batch's limit. */
function table(name: string, rows: number, batchMs = 0, failures = 0) {
  const limits: number[] = [];
  let left = rows;
  let failing = failures;
  const rule: RetentionRule = {
    table: name,
    datedByTenant: false,
    async removeBatch(_now, limit) {
      if (failing-- > 0) throw new Error("database unavailable");
      limits.push(limit);
      const started = performance.now();
      if (batchMs > 0) await sleep(batchMs);
      const removed = Math.min(limit, left);
      left -= removed;
      return { removed, heldMs: performance.now() - started };
    },
  };
  return { rule, limits, left: () => left };
}

describe("RetentionSweeper", () => {
  let sweeper: RetentionSweeper | undefined;
  afterEach(() => sweeper?.stop());
  const start = (rules: RetentionRule[], intervalMs = 60_000) => {
    sweeper = new RetentionSweeper(rules, intervalMs, createLogger("silent"));
    const removed = new Map<string, number>();
    sweeper.onBatch(({ table: name, removed: count }) => removed.set(name, (removed.get(name) ?? 0) + count));
    sweeper.start();
    return removed;
  };

  it("removes everything past keeping in rounds, without waiting for the next interval, with batches growing while they are quick", async () => {
    const quick = table("Quick", 1_000);
    const few = table("Few", 3);
    const removed = start([quick.rule, few.rule]);
    await eventually(async () => (quick.left() === 0 ? true : undefined), () => `${quick.left()} rows left`, 5_000);
    // 100, 200, 400, 800 unless the machine stalls a batch past 2 ms.
    expect(quick.limits[0]).toBe(100);
    expect(Math.max(...quick.limits)).toBeGreaterThanOrEqual(200);
    expect(few.limits[0]).toBe(100);
    expect(removed).toEqual(new Map([["Quick", 1_000], ["Few", 3]]));
  });

  it("halves the batches of a slow table, down to 10 rows", async () => {
    const slow = table("Slow", 400, 8);
    start([slow.rule]);
    await eventually(async () => (slow.left() === 0 ? true : undefined), () => `${slow.left()} rows left`, 10_000);
    expect(slow.limits.slice(0, 5)).toEqual([100, 50, 25, 12, 10]);
    expect(Math.min(...slow.limits)).toBe(10);
  });

  it("sweeps a table still behind alone: a table that had less than a batch is asked again at the next interval, not every round", async () => {
    const behind = table("Behind", 1_000, 1);
    const empty = table("Empty", 0);
    start([behind.rule, empty.rule]);
    await eventually(async () => (behind.left() === 0 ? true : undefined), () => `${behind.left()} rows left`, 10_000);
    expect(behind.limits.length).toBeGreaterThan(3);
    expect(empty.limits).toEqual([100]);
  });

  it("with a fixed batch size (PostgreSQL), takes that many rows each batch however long batches take", async () => {
    const slow = table("Slow", 400, 8);
    sweeper = new RetentionSweeper([slow.rule], 60_000, createLogger("silent"), undefined, async () => [], 150);
    sweeper.start();
    await eventually(async () => (slow.left() === 0 ? true : undefined), () => `${slow.left()} rows left`, 10_000);
    expect(slow.limits).toEqual([150, 150, 150]);
  });

  it("sweeps rows dated by tenant on real time, and on the time of each tenant whose clock runs ahead, that tenant's rows alone", async () => {
    const calls: Array<{ table: string; nowMs: number; tenantId?: string }> = [];
    const recording = (name: string, datedByTenant: boolean): RetentionRule => ({
      table: name,
      datedByTenant,
      async removeBatch(now, _limit, tenantId) {
        calls.push({ table: name, nowMs: now.getTime(), ...(tenantId === undefined ? {} : { tenantId }) });
        return { removed: 0, heldMs: 0 };
      },
    });
    const DAY_MS = 86_400_000;
    sweeper = new RetentionSweeper([recording("Searches", true), recording("Deliveries", false)], 60_000, createLogger("silent"), undefined, async () => [{ tenantId: "ten_ahead", offsetMs: DAY_MS }]);
    const before = Date.now();
    sweeper.start();
    await eventually(async () => (calls.length >= 3 ? true : undefined), () => `${calls.length} batches`, 5_000);
    const after = Date.now();
    expect(calls.map(({ table, tenantId }) => [table, tenantId])).toEqual([["Searches", undefined], ["Searches", "ten_ahead"], ["Deliveries", undefined]]);
    expect(calls[0]!.nowMs).toBeGreaterThanOrEqual(before);
    expect(calls[0]!.nowMs).toBeLessThanOrEqual(after);
    expect(calls[1]!.nowMs - calls[0]!.nowMs).toBe(DAY_MS);
  });

  it("sweeps again at the next interval after a batch failed", async () => {
    const flaky = table("Flaky", 50, 0, 1);
    start([flaky.rule], 50);
    await eventually(async () => (flaky.left() === 0 ? true : undefined), () => `${flaky.left()} rows left`, 5_000);
    expect(flaky.limits).toEqual([100]);
  });
});
