import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/clock";
import { mergeOffers } from "../../src/gateway/merge-offers";
import type { SupplierBatch } from "../../src/gateway/fan-out";
import { CircuitBreaker } from "../../src/gateway/pipeline/circuit-breaker";
import type { RegisteredSupplier } from "../../src/gateway/registry";
import { SupplierRegistry } from "../../src/gateway/registry";
import type { SupplierOffer } from "../../src/gateway/contract/supplier";

/** The gateway's pure rules: merging suppliers' offers, the circuit breaker, which suppliers a tenant searches. */

const entry = (id: string, extra: Partial<RegisteredSupplier> = {}): RegisteredSupplier =>
  ({ id, name: id, supplier: {} as never, capabilities: new Set(), needsConnection: false, sellsFlight: () => false, ...extra }) as RegisteredSupplier;

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

const batch = (id: string, offers: SupplierOffer[]): SupplierBatch => ({ entry: entry(id), offers, result: { supplier: id, status: "ok", offerCount: offers.length, durationMs: 1 } });

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
  const own = { name: "the tenant's own Duffel" } as never;
  const connected = new Set(["ten_connected"]);
  const registry = new SupplierRegistry([
    entry("simulated"),
    entry("simulated_lcc"),
    entry("duffel", { needsConnection: true, forTenant: (tenantId) => Promise.resolve(connected.has(tenantId) ? own : null) }),
  ]);
  const ids = (entries: RegisteredSupplier[]) => entries.map((e) => e.id);

  it("are the two simulated ones by default, the tenant's choice in its order otherwise", async () => {
    expect(ids(await registry.searchedFor("ten_other", null))).toEqual(["simulated", "simulated_lcc"]);
    expect(ids(await registry.searchedFor("ten_other", ["simulated_lcc", "simulated"]))).toEqual(["simulated_lcc", "simulated"]);
  });

  it("include one that needs a connection only once the tenant has one, as the tenant's own entry", async () => {
    expect(ids(await registry.searchedFor("ten_other", ["duffel", "simulated"]))).toEqual(["simulated"]);
    const searched = await registry.searchedFor("ten_connected", ["duffel", "simulated"]);
    expect(ids(searched)).toEqual(["duffel", "simulated"]);
    expect(searched[0]!.supplier).toBe(own);
  });
});
