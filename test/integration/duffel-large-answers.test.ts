import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/client";
import type { DuffelFake } from "../helpers/duffel-fake";
import { closeDuffelSuite, duffelTenant, openDuffelSuite, searchLondonBarcelona } from "../helpers/duffel-gateway";
import type { TestServer } from "../helpers/test-server";

/** Offers and bytes of a real LHR→JFK answer of Duffel's. */
const LARGE_ANSWER = { offers: 229, bytes: 1_500_000 };

/**
 * The event loop may be held at most this long at once while Duffel's offers are read and mapped
 * (this process also runs the fake, which writes its answers). The bound is generous for a loaded
 * 2-core machine sharing its CPU with other suites; figures are in docs/duffel.md#searching-duffel.
 */
const LONGEST_STALL_MS = 150;

/**
 * A search Duffel answers with as many offers as a real one (229, ~1.5 MB all at once) is read
 * without holding the server: Duffel is asked for its offers a page at a time, cheapest first, so
 * no answer larger than a page of 50 is read, requests keep being answered meanwhile, and the
 * cheapest of its offers are the ones kept.
 */
describe("Duffel's large answers", { timeout: 90_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof duffelTenant>>;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite());
    fake.offersPerSearch = LARGE_ANSWER.offers;
  });
  afterAll(() => closeDuffelSuite({ server, fake }));

  it("answers a search as large as Duffel's, the way Duffel sends it", async () => {
    fake.allow("duffel_test_size");
    const answer = await fetch(`${fake.url}/air/offer_requests?return_offers=true`, {
      method: "POST",
      headers: { authorization: "Bearer duffel_test_size", "duffel-version": "v2", "content-type": "application/json" },
      body: JSON.stringify({ data: { slices: [{ origin: "LHR", destination: "JFK", departure_date: "2027-03-01" }], passengers: [{ type: "adult" }], cabin_class: "economy" } }),
    });
    const text = await answer.text();
    expect(JSON.parse(text).data.offers).toHaveLength(LARGE_ANSWER.offers);
    expect(text.length).toBeGreaterThan(LARGE_ANSWER.bytes * 0.9);
  });

  it("reads a 229-offer search a page of the cheapest 50 at a time, never the 1.5 MB answer, keeps answering other requests meanwhile, and keeps the cheapest offers", async () => {
    // Warm: the first search of a process compiles the mapping; the measure is of the work itself.
    expect((await searchLondonBarcelona(server, tenant.key)).status).toBe(200);
    const before = fake.requests.length;
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const healthTimes: number[] = [];
    let searching = true;
    const probe = (async () => {
      while (searching) {
        const started = performance.now();
        expect((await call(server, "GET", "/healthz")).status).toBe(200);
        healthTimes.push(performance.now() - started);
      }
    })();
    delay.enable();
    const search = await searchLondonBarcelona(server, tenant.key).finally(() => (searching = false));
    delay.disable();
    await probe;

    expect(search.status).toBe(200);
    expect(search.body.data.supplier_results.find((result: any) => result.supplier === "duffel")).toMatchObject({ status: "ok", offer_count: 50 });
    const keys: string[] = search.body.data.offers.filter((offer: any) => offer.supplier.id === "duffel").map((offer: any) => offer.comparison_key);
    // The three cheapest come last in Duffel's answer.
    for (const flight of ["BA100", "VS101", "AA102"]) expect(keys.some((key) => key.startsWith(`${flight}@`)), flight).toBe(true);

    const asked = fake.requests.slice(before).filter((request) => request.path.startsWith("/air/offer"));
    expect(asked.map((request) => `${request.method} ${request.path.replace(/orq_\w+/, "orq_…")}`)).toEqual([
      expect.stringMatching(/^POST \/air\/offer_requests\?return_offers=false&/),
      "GET /air/offers?offer_request_id=orq_…&limit=50&sort=total_amount",
    ]);
    const bytesRead = asked.reduce((sum, request) => sum + (request.answerBytes ?? 0), 0);
    expect(bytesRead).toBeLessThan(LARGE_ANSWER.bytes / 3);

    const longestStallMs = delay.max / 1e6;
    const figures = `longest event-loop stall ${longestStallMs.toFixed(1)} ms, ${healthTimes.length} /healthz answers, slowest ${Math.max(...healthTimes).toFixed(1)} ms`;
    expect(healthTimes.length).toBeGreaterThan(1);
    expect(longestStallMs, figures).toBeLessThan(LONGEST_STALL_MS);
    expect(Math.max(...healthTimes), figures).toBeLessThan(LONGEST_STALL_MS * 2);
  });
});
