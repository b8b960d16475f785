import { Gauge, Histogram, type Registry } from "prom-client";
import { ORDER_STATUSES } from "../orders/core/order";
import { ORDER_JOB_KINDS } from "../orders/jobs/order-job-queue";
import type { Services } from "../services";
import { metricsFigure } from "./cached-figure";

/**
 * Prometheus metrics of orders and their jobs: orders by status (all tenants) and the ticketing
 * and refund jobs due but not yet claimed (both read from the database at most every few
 * seconds, served from memory: cached-figure.ts), how late each job was claimed
 * (the lag between its due time and its run: what a tenant waits beyond the airline's own delay),
 * and the live order subscriptions of this process.
 */
export function registerOrderMetrics(registry: Registry, services: Services): void {
  const { orders, jobQueue, jobWorker, orderFeed, walletFeed, log } = services;
  const orderCounts = metricsFigure(() => orders.countByStatus(), log);
  const jobBacklog = metricsFigure(async () => new Map((await jobQueue.backlog()).map((row) => [row.kind, row])), log);
  new Gauge({
    name: "aerogate_orders",
    help: "Orders by lifecycle status, all tenants.",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      const counts = await orderCounts.get();
      if (!counts) return;
      for (const status of ORDER_STATUSES) this.set({ status }, counts[status]);
    },
  });
  new Gauge({
    name: "aerogate_order_jobs_due",
    help: "Ticketing and refund jobs due and not yet claimed.",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      const due = await jobBacklog.get();
      if (!due) return;
      for (const kind of ORDER_JOB_KINDS) this.set({ kind }, due.get(kind)?.due ?? 0);
    },
  });
  new Gauge({
    name: "aerogate_order_job_oldest_due_seconds",
    help: "How long the oldest unclaimed due job has been waiting (0 when none).",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      const due = await jobBacklog.get();
      if (!due) return;
      for (const kind of ORDER_JOB_KINDS) this.set({ kind }, due.get(kind)?.oldestDueSeconds ?? 0);
    },
  });
  new Gauge({
    name: "aerogate_order_subscriptions",
    help: "GraphQL order subscriptions (orderStatusChanged, orderEvents) open on this process.",
    registers: [registry],
    collect() {
      this.set(orderFeed.subscriberCount());
    },
  });
  new Gauge({
    name: "aerogate_wallet_subscriptions",
    help: "GraphQL wallet subscriptions (walletEvents) open on this process.",
    registers: [registry],
    collect() {
      this.set(walletFeed.subscriberCount());
    },
  });
  const lag = new Histogram({
    name: "aerogate_order_job_lag_seconds",
    help: "Seconds between a job's due time and its claim by a worker.",
    labelNames: ["kind"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  jobWorker.onClaimed((job, claimedAt) => lag.observe({ kind: job.kind }, Math.max(0, (claimedAt.getTime() - job.runAt.getTime()) / 1000)));
}
