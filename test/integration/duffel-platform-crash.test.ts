import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantFixture } from "../helpers/client";
import { crashHarness } from "../helpers/crash-harness";
import { secretsKey } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { ticketAndRefundAcrossKills } from "../helpers/duffel-crash";
import { platformDuffelTenant } from "../helpers/duffel-gateway";
import { toMinor } from "../helpers/flight-checks";
import { startTestServer } from "../helpers/test-server";

/**
 * A Duffel order of the owner's platform account (`wallet`-settled, docs/duffel.md#the-owners-platform-account)
 * whose ticketing, then refund, is killed after Duffel answered and before our commit: the
 * restarted servers pay Duffel once (from the platform's account) and the wallet moves by the
 * order's total once each way. SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */

const env: Record<string, string> = { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_TIMEOUT_MS: "2000", JOB_LEASE_SECONDS: "2", TICKETING_DELAY_MS: "0" };

describe("a platform-account order's money across a SIGKILL after Duffel answered", { timeout: 180_000 }, () => {
  const harness = crashHarness(env);
  let fake: DuffelFake;
  let tenant: TenantFixture;
  let platformToken: string;

  beforeAll(async () => {
    fake = await startDuffelFake();
    env.DUFFEL_API_URL = fake.url;
    const setup = await startTestServer({ database: harness.database, env });
    try {
      ({ tenant, platformToken } = await platformDuffelTenant(setup, fake));
    } finally {
      await setup.close();
    }
  });
  afterAll(async () => {
    await fake?.close();
  });

  it("ticketing and refund each killed after Duffel answered: Duffel paid once by the platform, the wallet debited the total once and credited it back once", async () => {
    const total = (order: any) => toMinor(order.total_amount, order.total_currency);
    const { order, payments } = await ticketAndRefundAcrossKills(harness, fake, tenant.key, (booked) => ({ debit: total(booked), credit: total(booked) }));
    expect(order.settlement).toBe("wallet");
    expect(payments).toEqual([`Bearer ${platformToken}`]);
  });
});
