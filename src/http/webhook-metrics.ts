import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { Services } from "../services";
import { clock } from "../clock";
import { metricsFigure } from "./cached-figure";

/**
 * Prometheus metrics of webhook deliveries: the backlog (pending deliveries due and not claimed,
 * all tenants, read from the database at most every few seconds and served from memory:
 * cached-figure.ts), this process's attempts by outcome, and the latency from an event's
 * creation to its successful delivery.
 */
export function registerWebhookMetrics(registry: Registry, services: Services): void {
  const { webhookQueue, webhookDispatcher, log } = services;
  const backlog = metricsFigure(() => webhookQueue.backlog(), log);
  new Gauge({
    name: "aerogate_webhook_deliveries_due",
    help: "Webhook deliveries due and not yet claimed, all tenants.",
    registers: [registry],
    async collect() {
      const figure = await backlog.get();
      if (figure) this.set(figure.due);
    },
  });
  new Gauge({
    name: "aerogate_webhook_oldest_due_seconds",
    help: "How long the oldest unclaimed due webhook delivery has been waiting (0 when none).",
    registers: [registry],
    async collect() {
      const figure = await backlog.get();
      if (figure) this.set(figure.oldestDueSeconds);
    },
  });
  const attempts = new Counter({
    name: "aerogate_webhook_attempts_total",
    help: "Webhook delivery attempts by outcome: success, http_error (non-2xx), timeout, network_error, forbidden_destination.",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "aerogate_webhook_delivery_latency_seconds",
    help: "Seconds from a delivery's queueing (with its event) to its success, retries included.",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 36000],
    registers: [registry],
  });
  webhookDispatcher.onAttempt(({ delivery, response, outcome }) => {
    if (outcome.status === "succeeded") {
      attempts.inc({ outcome: "success" });
      latency.observe(Math.max(0, (clock.nowMs() - delivery.queuedAt.getTime()) / 1000));
    } else {
      attempts.inc({ outcome: response.outcome === "answered" ? "http_error" : response.outcome });
    }
  });
}
