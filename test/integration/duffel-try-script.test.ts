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
});
