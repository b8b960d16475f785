import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/clock";
import type { RegisteredConnector } from "../../src/gateway/contract/connector";
import type { SupplierBatch } from "../../src/gateway/contract/gateway";
import type { SupplierOffer } from "../../src/gateway/contract/offers";
import { mergeOffers } from "../../src/gateway/merge-offers";
import { CircuitBreaker } from "../../src/gateway/pipeline/circuit-breaker";
import type { RunCall } from "../../src/gateway/pipeline/supplier-call";
import { SupplierRegistry } from "../../src/gateway/registry";
import { GatewaySearches } from "../../src/gateway/searches";

/** The gateway's pure rules: merging suppliers' offers, the circuit breaker, which suppliers a tenant searches. */

/** A connector as registered, by id; its calls unused. */
const connector = (id: string, extra: Partial<RegisteredConnector> = {}): RegisteredConnector => ({
  ref: { id, name: id },
  supplier: {} as never,
  capabilities: {},
  runsOnMovedClock: true,
  settlement: "wallet",
  searchedByDefault: true,
  answersKeepMs: 0,
  ...extra,
});

/** The pipeline left out: each call goes straight to its supplier. */
const straight: RunCall = (_call, invoke) => invoke();

/** An offer of one segment: flight `flight` on 2027-03-07 in economy, `total` cents, `minutes` long. */
function offer(flight: string, total: number, minutes = 100, fareBrandName = "Basic"): SupplierOffer {
  return {
    owner: { iataCode: flight.slice(0, 2), name: flight.slice(0, 2) },
    fareBrandName,
    slices: [
      {
        durationMinutes: minutes,
        segments: [{ marketingCarrier: { iataCode: flight.slice(0, 2), name: "" }, marketingCarrierFlightNumber: flight.slice(2), departingAtLocal: "2027-03-07T08:00:00", cabinClass: "economy" }],
      },
    ],
    totalAmount: total,
  } as unknown as SupplierOffer;
}

const batch = (id: string, offers: SupplierOffer[]): SupplierBatch => ({ supplier: { id, name: id }, offers, result: { supplier: id, status: "ok", offerCount: offers.length, durationMs: 1 } });

describe("merging suppliers' offers", () => {
  it("keeps the cheaper of the same flights with the same fare brand, whatever the source", () => {
    const merged = mergeOffers([batch("a", [offer("ZA1", 500)]), batch("b", [offer("ZA1", 400)])]);
    expect(merged.map((o) => [o.supplier.id, o.offer.totalAmount])).toEqual([["b", 400]]);
  });

  it("gives a tie to the supplier listed first", () => {
    expect(mergeOffers([batch("b", [offer("ZA1", 400)]), batch("a", [offer("ZA1", 400)])]).map((o) => o.supplier.id)).toEqual(["b"]);
    expect(mergeOffers([batch("a", [offer("ZA1", 400)]), batch("b", [offer("ZA1", 400)])]).map((o) => o.supplier.id)).toEqual(["a"]);
  });

  it("keeps the same flights under another fare brand, and other flights", () => {
    const merged = mergeOffers([batch("a", [offer("ZA1", 500, 100, "Flex")]), batch("b", [offer("ZA1", 400), offer("ZA2", 450)])]);
    expect(merged.map((o) => `${o.supplier.id}:${o.offer.totalAmount}`)).toEqual(["b:400", "b:450", "a:500"]);
  });

  it("orders by total amount, then by duration", () => {
    const merged = mergeOffers([batch("a", [offer("ZA1", 500, 300), offer("ZA2", 500, 120), offer("ZA3", 90, 900)])]);
    expect(merged.map((o) => o.offer.slices[0]!.durationMinutes)).toEqual([900, 120, 300]);
  });
});

describe("a circuit breaker", () => {
  afterEach(() => setClock(new Date()));
  const at = (ms: number) => setClock(new Date(Date.UTC(2027, 0, 1) + ms));

  it("opens after the threshold of consecutive failures; a success in between starts the count again", () => {
    at(0);
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 1000 });
    breaker.failed();
    breaker.failed();
    breaker.succeeded();
    breaker.failed();
    breaker.failed();
    expect(breaker.state).toBe("closed");
    breaker.failed();
    expect(breaker.state).toBe("open");
    expect(breaker.tryAcquire()).toBe(false);
  });

  it("lets exactly one trial call through after the cooldown: its success closes, its failure reopens", () => {
    at(0);
    const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 1000 });
    breaker.failed();
    at(900);
    expect(breaker.tryAcquire()).toBe(false);
    at(1100);
    expect(breaker.state).toBe("half_open");
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.failed();
    expect(breaker.state).toBe("open");
    at(2300);
    expect(breaker.tryAcquire()).toBe(true);
    breaker.succeeded();
    expect(breaker.state).toBe("closed");
    expect(breaker.tryAcquire()).toBe(true);
  });

  it("counts a call our own database failed under as neither: the count and a half-open trial stay as they were", () => {
    at(0);
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownMs: 1000 });
    breaker.failed();
    breaker.released();
    breaker.released();
    expect(breaker.state).toBe("closed");
    breaker.failed();
    expect(breaker.state).toBe("open");
    at(1100);
    expect(breaker.tryAcquire()).toBe(true);
    breaker.released();
    expect(breaker.state).toBe("half_open");
    expect(breaker.tryAcquire()).toBe(true);
  });
});

describe("the suppliers a tenant searches", () => {
  const connected = new Set(["ten_connected"]);
  const tokens = { read: () => ({ mode: "test" as const }), prefix: () => "own_" };
  const searches = new GatewaySearches(
    new SupplierRegistry([connector("network"), connector("low-cost"), connector("own-account", { searchedByDefault: false, account: tokens })], straight),
    (tenantId) => Promise.resolve(connected.has(tenantId)),
  );
  const ids = (entries: Array<{ ref: { id: string } }>) => entries.map((entry) => entry.ref.id);

  it("are those searched by default when the tenant chose none, the tenant's choice in its order otherwise", async () => {
    expect(searches.defaultSuppliers).toEqual(["network", "low-cost"]);
    expect(ids(await searches.searchedFor("ten_other", null))).toEqual(["network", "low-cost"]);
    expect(ids(await searches.searchedFor("ten_other", ["low-cost", "network"]))).toEqual(["low-cost", "network"]);
  });

  it("include one that needs the tenant's own account only once the tenant has connected it", async () => {
    expect(ids(await searches.searchedFor("ten_other", ["own-account", "network"]))).toEqual(["network"]);
    expect(ids(await searches.searchedFor("ten_connected", ["own-account", "network"]))).toEqual(["own-account", "network"]);
  });
});
