import { setMaxListeners } from "node:events";
import type { DatabaseAvailability } from "../db/availability";
import { databaseFault } from "../db/errors";
import type { Tenant } from "../db/models";
import type { Logger } from "../logger";
import { PollingLoop } from "../polling-loop";
import type { ClaimedDelivery, DeliveryOutcome, WebhookDeliveryQueue } from "./webhook-delivery-queue";
import { DestinationSlots, type Slot } from "./destination-slots";
import { attemptOutcome, undeliverable } from "./webhook-outcome";
import { signedHeaders, signingSecrets } from "./webhook-secrets";
import type { WebhookFormats } from "./webhook-formats";
import { postWebhook, WebhookConnections, type WebhookResponse } from "./webhook-sender";
import { clock } from "../clock";

export interface WebhookDispatcherOptions {
  /** Seconds before each attempt (WEBHOOK_RETRY_SCHEDULE). */
  retrySchedule: readonly number[];
  timeoutMs: number;
  /** Lets live tenants deliver to loopback and private addresses (sandbox tenants always may). */
  allowPrivateNetworks: boolean;
  pollMs: number;
  /** Attempts in flight at once in this process, shared out among destinations (destination-slots.ts). */
  maxConcurrent: number;
  /** No claim runs while the database is unreachable; an outcome a database fault kept from being written is released. */
  availability: DatabaseAvailability;
}

/**
 * Due deliveries a claim looks at, at most. Every finished attempt starts another claim, so a
 * claim need not read far ahead: reading as many as there are free slots (hundreds) made each
 * claim several times dearer with a backlog.
 */
const CLAIM_CANDIDATES = 64;

/** One finished attempt, for metrics. */
export interface AttemptReport {
  delivery: ClaimedDelivery;
  response: WebhookResponse;
  outcome: DeliveryOutcome;
}

export interface WebhookDispatcherDeps {
  queue: WebhookDeliveryQueue;
  /** The tenant's current webhook settings (cached, invalidated on every change). */
  findTenant: (tenantId: string) => Promise<Tenant | null>;
  /** Tells every process the tenant changed (its webhooks were switched off by a 410). */
  tenantChanged: (tenantId: string) => Promise<void>;
  log: Logger;
  /** The delivery formats besides ours that endpoints may have. */
  formats: WebhookFormats;
}

/**
 * Sends due webhook deliveries. Woken when this or any process commits an event (and when a
 * retry falls due here), it also polls every `pollMs`: other processes' deliveries, expired
 * leases, deliveries left over from before a restart. Each claimed delivery is attempted on its
 * own, up to `maxConcurrent` at once, and a finished one makes room for the next claim. Slots
 * are shared out per destination (destination-slots.ts): a receiver that is slow or never
 * answers has one attempt in flight at a time, each cut at WEBHOOK_TIMEOUT_MS, so it holds up
 * only its own deliveries (and those of the same order, which wait their turn).
 */
export class WebhookDispatcher {
  readonly #loop: PollingLoop;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #slots: DestinationSlots;
  readonly #shutdown = new AbortController();
  readonly #connections = new WebhookConnections();
  readonly #attemptListeners = new Set<(report: AttemptReport) => void>();

  constructor(
    private readonly deps: WebhookDispatcherDeps,
    private readonly options: WebhookDispatcherOptions,
  ) {
    // Every attempt in flight listens for shutdown on this one signal.
    setMaxListeners(options.maxConcurrent + 1, this.#shutdown.signal);
    this.#slots = new DestinationSlots(options.maxConcurrent);
    this.#loop = new PollingLoop(() => this.#claim(), options.pollMs, (error) => deps.log.error({ err: error }, "webhook deliveries could not be claimed"), options.availability);
  }

  /** Calls `listener` after every attempt; returns what unsubscribes. */
  onAttempt(listener: (report: AttemptReport) => void): () => void {
    this.#attemptListeners.add(listener);
    return () => this.#attemptListeners.delete(listener);
  }

  start(): void {
    this.#loop.start();
  }

  /** A delivery is due at `at` (now by default). */
  wake(at?: Date): void {
    this.#loop.wake(at);
  }

  /** Stops claiming, interrupts the attempts in flight (their deliveries are due again at once), and waits for them. */
  async stop(): Promise<void> {
    await this.#loop.stop();
    this.#shutdown.abort();
    await Promise.all(this.#inFlight);
    this.#connections.close();
  }

  async #claim(): Promise<boolean> {
    const destinations = this.#slots.claimFilter();
    if (!destinations) return false;
    const unattempted: ClaimedDelivery[] = [];
    const limit = Math.min(this.#slots.room, CLAIM_CANDIDATES);
    for (const delivery of await this.deps.queue.claimDue(limit, destinations, (endpointId) => this.#slots.roomFor(endpointId))) {
      // The claim took no more than each destination had room for; a slot is still checked for.
      const slot = this.#slots.take(delivery.endpointId);
      if (slot) this.#attempt(delivery, slot);
      else unattempted.push(delivery);
    }
    await this.deps.queue.release(...unattempted);
    return false;
  }

  #attempt(delivery: ClaimedDelivery, slot: Slot): void {
    let promptly: boolean | null = null;
    const attempt: Promise<void> = this.#deliver(delivery)
      .then((response) => {
        if (response) promptly = response.outcome === "answered" && response.durationMs <= this.options.timeoutMs / 2;
      })
      .catch((error: unknown) => {
        this.deps.log.error({ err: error, deliveryId: delivery.id }, "webhook delivery failed; it will be retried when its lease ends");
        // Its outcome could not be written: due again once the database takes it (at least once, so it may arrive twice).
        if (databaseFault(error)) this.options.availability.defer(() => this.deps.queue.release(delivery));
      })
      .finally(() => {
        this.#slots.give(slot, promptly);
        this.#inFlight.delete(attempt);
        // Room for another delivery, and perhaps the next one of the same order.
        this.#loop.wake();
      });
    this.#inFlight.add(attempt);
  }

  /** One delivery's attempt and its outcome; the receiver's answer, or null when none was asked for. */
  async #deliver(delivery: ClaimedDelivery): Promise<WebhookResponse | null> {
    const at = clock.now();
    const destination = await this.#destinationOf(delivery, at);
    if ("undeliverable" in destination) {
      await this.deps.queue.record(delivery, undeliverable(destination.undeliverable));
      return null;
    }
    const { body, headers } = await this.#signedBody(delivery, destination.secrets, at);
    const response = await postWebhook({
      url: destination.url,
      body,
      headers,
      timeoutMs: this.options.timeoutMs,
      allowPrivateNetworks: this.options.allowPrivateNetworks,
      signal: this.#shutdown.signal,
      connections: this.#connections,
    });
    if (response.outcome === "interrupted") {
      await this.deps.queue.release(delivery);
      return null;
    }
    // Read when the answer is in (not `at` plus the measured duration): a pause of this process
    // between `at` and the request must not bring a Retry-After's end forward.
    const outcome = attemptOutcome(response, { at, finishedAt: clock.now() }, delivery.attempts, this.options.retrySchedule);
    await this.deps.queue.record(delivery, outcome);
    if (outcome.disableWebhooks && delivery.endpoint === "default") await this.deps.tenantChanged(delivery.tenantId);
    if (outcome.nextAttemptAt) this.#loop.wake(outcome.nextAttemptAt);
    for (const listener of this.#attemptListeners) listener({ delivery, response, outcome });
    return response;
  }

  /** The body and signature headers of an attempt, in the endpoint's format (webhook-formats.ts). */
  async #signedBody(delivery: ClaimedDelivery, secrets: string[], at: Date): Promise<{ body: string; headers: Record<string, string> }> {
    const { payload, type } = delivery.event;
    const format = delivery.endpoint && delivery.endpoint !== "default" ? this.deps.formats.get(delivery.endpoint.format) : undefined;
    if (!format) return { body: payload, headers: signedHeaders(secrets, delivery.eventId, at, payload) };
    const tenant = await this.deps.findTenant(delivery.tenantId);
    const body = format.body(payload, type, tenant?.environment === "live");
    return { body, headers: format.signedHeaders(secrets, at, body) };
  }

  /**
   * The URL and signing secrets of the delivery's endpoint at `at`, or why it cannot be attempted:
   * the default endpoint is the tenant's webhook_url (its current settings, cached), another one
   * is its row as read with the claim (so a rotation committed after the claim signs from the
   * next attempt on).
   */
  async #destinationOf(delivery: ClaimedDelivery, at: Date): Promise<{ url: string; secrets: string[] } | { undeliverable: string }> {
    if (delivery.endpoint === null) return { undeliverable: "the endpoint was deleted" };
    if (delivery.endpoint === "default") {
      const tenant = await this.deps.findTenant(delivery.tenantId);
      if (!tenant?.webhookEnabled || !tenant.webhookUrl) return { undeliverable: "webhooks are disabled for this tenant" };
      const secrets = signingSecrets(tenant, at);
      return secrets.length === 0 ? { undeliverable: "the tenant has no signing secret: rotate it to make one" } : { url: tenant.webhookUrl, secrets };
    }
    if (!delivery.endpoint.enabled) return { undeliverable: "the endpoint is disabled" };
    return { url: delivery.endpoint.url, secrets: signingSecrets(delivery.endpoint, at) };
  }
}
