import { describe, expect, it } from "vitest";
import { airportIndex } from "../../src/locations/airport-index";
import { SupplierFailed } from "../../src/gateway/contract/errors";
import type { SupplierOffer, SupplierSearch } from "../../src/gateway/contract/offers";
import type { Supplier } from "../../src/gateway/contract/supplier";
import { Breakers, CircuitOpen } from "../../src/gateway/pipeline/circuit-breaker";
import { pipedConnector } from "../../src/gateway/pipeline/piped-supplier";
import { callPipeline } from "../../src/gateway/pipeline/pipeline";
import { SupplierCalls, type EndedCall } from "../../src/gateway/pipeline/supplier-calls";

/**
 * The gateway's pipeline around every supplier call (docs/gateway.md#circuit-breaker): a circuit
 * per supplier and environment, so that sandbox traffic never opens the circuit live tenants go
 * through, and a sandbox search's forced outcome, which never reaches the supplier, never counts.
 */

const THRESHOLD = 5;
const index = airportIndex();

/** A supplier whose searches fail while `failing` says so, counting the searches that reached it. */
function supplier(failing: () => boolean): { supplier: Supplier; asked: () => number } {
  let asked = 0;
  const search = async (): Promise<SupplierOffer[]> => {
    asked += 1;
    if (failing()) throw new SupplierFailed("down");
    return [];
  };
  return { supplier: { search } as unknown as Supplier, asked: () => asked };
}

/** One supplier through a fresh pipeline: its piped calls, the breakers and every call the metrics saw. */
function gateway(inner: Supplier) {
  const breakers = new Breakers({ failureThreshold: THRESHOLD, cooldownMs: 60_000 });
  const calls = new SupplierCalls();
  const ended: EndedCall[] = [];
  calls.onCall((call) => ended.push(call));
  const run = callPipeline({ calls, breakers, policy: { timeoutMs: 1000, jobTimeoutMs: 1000, retries: 0, backoffMs: 0 }, keepMs: () => 0 });
  return { piped: pipedConnector("remote", inner, {}, run, false).supplier, breakers, ended };
}

function search(environment: SupplierSearch["environment"], extra: Partial<SupplierSearch> = {}): SupplierSearch {
  return {
    slices: [{ origins: index.airportsForCode("LHR"), destinations: index.airportsForCode("JFK"), departureDate: "2030-01-01" }],
    passengers: [{ id: "p1", type: "adult" }],
    cabinClass: "economy",
    maxConnections: 1,
    tenantId: `ten_${environment}`,
    environment,
    signal: AbortSignal.timeout(50),
    ...extra,
  };
}

describe("circuit breakers per supplier and environment", () => {
  it("a sandbox failure streak opens the sandbox circuit only: live calls still go through", async () => {
    const down = supplier(() => true);
    const { piped, breakers } = gateway(down.supplier);
    for (let i = 0; i < THRESHOLD; i++) await expect(piped.search(search("sandbox"))).rejects.toBeInstanceOf(SupplierFailed);
    expect(breakers.of("remote", "sandbox").state).toBe("open");
    expect(breakers.of("remote", "live").state).toBe("closed");
    await expect(piped.search(search("sandbox"))).rejects.toBeInstanceOf(CircuitOpen);
    await expect(piped.search(search("live"))).rejects.toBeInstanceOf(SupplierFailed);
    expect(down.asked()).toBe(THRESHOLD + 1);
  });

  it("a sandbox search's forced error or timeout never reaches the supplier, a breaker or the figures; a forced ok is asked, and never counted by a breaker", async () => {
    let failing = false;
    const remote = supplier(() => failing);
    const { piped, breakers, ended } = gateway(remote.supplier);
    for (let i = 0; i < 2 * THRESHOLD; i++) await expect(piped.search(search("sandbox", { forcedOutcome: "error" }))).rejects.toBeInstanceOf(SupplierFailed);
    await expect(piped.search(search("sandbox", { forcedOutcome: "timeout", signal: AbortSignal.timeout(10) }))).rejects.toThrow("deadline");
    expect(remote.asked()).toBe(0);
    expect(ended).toEqual([]);
    expect(breakers.of("remote", "sandbox").state).toBe("closed");

    // Real failures one short of the threshold; a forced ok that succeeds does not close the streak.
    failing = true;
    for (let i = 0; i < THRESHOLD - 1; i++) await expect(piped.search(search("sandbox"))).rejects.toBeInstanceOf(SupplierFailed);
    failing = false;
    expect(await piped.search(search("sandbox", { forcedOutcome: "ok" }))).toEqual([]);
    failing = true;
    await expect(piped.search(search("sandbox"))).rejects.toBeInstanceOf(SupplierFailed);
    expect(breakers.of("remote", "sandbox").state).toBe("open");
    expect(ended.map((call) => call.outcome)).toEqual([...Array<string>(THRESHOLD - 1).fill("error"), "ok", "error"]);
  });
});
