import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock } from "../../src/clock";
import { ORDER_ID_METADATA } from "../../src/connectors/duffel/duffel-bookings";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { connectDuffel, fakeToken, secretsKey } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The operator's first try of a tenant's Duffel connection (docs/duffel.md#trying-a-search-and-a-booking),
 * run as the docs say, against the fake in Duffel's place: it lists the offers in Duffel's currency
 * and the tenant's, and with --book holds the cheapest offer that can be held.
 */

describe("scripts/duffel-try.ts", { timeout: 120_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: TenantFixture;
  const env = { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_API_URL: "" };
  beforeAll(async () => {
    fake = await startDuffelFake();
    env.DUFFEL_API_URL = fake.url;
    server = await startTestServer({ env });
    tenant = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { default_currency: "EUR" } })).status).toBe(200);
    await connectDuffel(server, tenant, fakeToken(fake));
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it("searches with the tenant's connection and holds the cheapest offer that can be held", async () => {
    const date = new Date(clock.nowMs() + 40 * 86_400_000).toISOString().slice(0, 10);
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/duffel-try.ts", "--tenant", tenant.tenantId, "--from", "LHR", "--to", "JFK", "--date", date, "--book"], {
      env: { ...process.env, ...env, DATABASE_URL: server.app.services.config.DATABASE_URL, LOG_LEVEL: "warn" },
      timeout: 90_000,
    });
    expect(stdout).toMatch(/: 3 offers/);
    expect(stdout).toMatch(/388\.20 GBP = \d+ EUR minor units at 1\.16456 EUR\/GBP {2}\(can be held\)/);
    const booked = JSON.parse(/^booked: (.+)$/m.exec(stdout)![1]!);
    expect(booked).toMatchObject({ status: "booked", totalAmount: "388.20", totalCurrency: "GBP", paymentRequiredBy: expect.any(String) });
    expect([...fake.orders.values()].filter((order) => order.metadata[ORDER_ID_METADATA] === booked.id).map((order) => order.type)).toEqual(["hold"]);
  });

  it("--journeys runs each of Duffel's test-mode routes and says what Duffel answered, each as its test mode promises", async () => {
    const date = new Date(clock.nowMs() + 45 * 86_400_000).toISOString().slice(0, 10);
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/duffel-try.ts", "--tenant", tenant.tenantId, "--date", date, "--journeys"], {
      env: { ...process.env, ...env, DATABASE_URL: server.app.services.config.DATABASE_URL, LOG_LEVEL: "warn" },
      timeout: 90_000,
    });
    const lines = stdout.split("\n").filter((line) => /^ {2}[✓✗] /.test(line));
    expect(lines, stdout).toEqual([
      expect.stringMatching(/^ {2}✓ LGW→LHR the offer is gone at booking: 422 offer_no_longer_available \(our offer_no_longer_available\)$/),
      expect.stringMatching(/^ {2}✓ LHR→STN the price rises on every read: [\d.]+, then [\d.]+ GBP$/),
      expect.stringMatching(/^ {2}✓ LHR→LGW the airline is unknown \(502\): 502 airline_unknown \(our supplier_error\)$/),
      expect.stringMatching(/^ {2}✓ LGW→STN the balance is short: 422 insufficient_balance \(our insufficient_balance\)$/),
      expect.stringMatching(/^ {2}✓ STN→LHR the search times out \(504\): 504 gateway_timeout \(our supplier_timeout\)$/),
      expect.stringMatching(/^ {2}✓ LHR→LTN the airline changes the paid order: aic_\w+ on ord_\w+: 1 slice\(s\) removed, 1 added$/),
      expect.stringMatching(/^ {2}✓ LTN→SYD a refund goes to airline credits: 1 credit\(s\) of [\d.]+ GBP$/),
    ]);
  });

  it("--journeys exits 1 and says which journey went otherwise when Duffel does not answer as its test mode promises", async () => {
    const date = new Date(clock.nowMs() + 46 * 86_400_000).toISOString().slice(0, 10);
    // Every answer a 500: no journey goes as promised.
    fake.failNext(1_000);
    const run = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/duffel-try.ts", "--tenant", tenant.tenantId, "--date", date, "--journeys"], {
      env: { ...process.env, ...env, DATABASE_URL: server.app.services.config.DATABASE_URL, LOG_LEVEL: "warn" },
      timeout: 90_000,
    }).then(
      () => null,
      (error: { code: number; stdout: string }) => error,
    );
    fake.failNext(0);
    expect(run?.code).toBe(1);
    expect(run!.stdout.split("\n").filter((line) => line.startsWith("  ✗ "))).toHaveLength(7);
  });
});
