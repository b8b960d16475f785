import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/clock";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { bookOffer, searchForBooking, ticketOrder } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Usage over time (the console's chart): `TenantUsage.daily` answers every UTC day of
 * a range, requests and searches from the daily counters, orders, tickets and spend from their
 * own rows. The in-process server shares the product clock with the test, which moves it to
 * book on two different days instead of waiting for midnight.
 */
const DAY_MS = 86_400_000;
const dayOf = (instantMs: number) => new Date(instantMs).toISOString().slice(0, 10);
/** Noon UTC `daysAgo` days before today: far from either midnight, whenever the test runs. */
const noonDaysAgo = (daysAgo: number) => new Date(`${dayOf(Date.now() - daysAgo * DAY_MS)}T12:00:00.000Z`);

const DAILY = `query ($id: ID!, $from: LocalDate!, $to: LocalDate!) {
  tenant(id: $id) { usage { apiRequests searches daily(from: $from, to: $to) { date apiRequests searches orders tickets walletSpend { amount currency } } } }
}`;

describe("daily usage", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  const daily = (from: string, to: string) => graphql(server, DAILY, { id: tenant.tenantId, from, to }, { key: server.ownerKey });

  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
  });
  afterEach(() => setClock(new Date()));
  afterAll(() => server.close());

  it("answers each day of the range with what happened on it, and the days sum to the totals", async () => {
    const [quiet, first, second] = [noonDaysAgo(3), noonDaysAgo(2), noonDaysAgo(1)];
    tenant = await createTenant(server);

    setClock(first);
    for (let i = 0; i < 2; i++) expect((await call(server, "GET", "/v1/tenant", { key: tenant.key })).status).toBe(200);
    const [ticketed] = await searchForBooking(server, tenant.key);
    const paid = await bookOffer(server, tenant.key, ticketed);
    expect((await ticketOrder(server, tenant.key, paid.id)).status).toBe(200);
    // The ticket is issued by the job worker, on this day's clock: wait for it before moving on.
    await eventually(
      async () => ((await daily(dayOf(first.getTime()), dayOf(first.getTime()))).body.data?.tenant.usage.daily[0].tickets === 1 ? true : undefined),
      () => `order ${paid.id} not ticketed`,
    );

    setClock(second);
    const [held] = await searchForBooking(server, tenant.key);
    await bookOffer(server, tenant.key, held);

    const response = await daily(dayOf(quiet.getTime()), dayOf(second.getTime()));
    expect(response.body.errors).toBeUndefined();
    const usage = response.body.data.tenant.usage;
    const zero = { amount: "0.00", currency: "USD" };
    expect(usage.daily).toEqual([
      { date: dayOf(quiet.getTime()), apiRequests: 0, searches: 0, orders: 0, tickets: 0, walletSpend: zero },
      // Two reads, the search, the booking and the ticketing request.
      { date: dayOf(first.getTime()), apiRequests: 5, searches: 1, orders: 1, tickets: 1, walletSpend: { amount: ticketed.total_amount, currency: "USD" } },
      { date: dayOf(second.getTime()), apiRequests: 2, searches: 1, orders: 1, tickets: 0, walletSpend: zero },
    ]);
    const sum = (metric: "apiRequests" | "searches") => usage.daily.reduce((total: number, day: Record<string, number>) => total + day[metric]!, 0);
    expect(sum("apiRequests")).toBe(usage.apiRequests);
    expect(sum("searches")).toBe(usage.searches);
  });

  it.each([
    ["a malformed day", "2026-02-30", "2026-03-01", "from"],
    ["to before from", "2026-03-02", "2026-03-01", "to"],
    ["more than 731 days", "2024-01-01", "2026-01-01", "to"],
  ])("refuses %s with validation_failed naming the field", async (_case, from, to, field) => {
    tenant ??= await createTenant(server);
    const response = await daily(from, to);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: "validation_failed", field });
  });
});
