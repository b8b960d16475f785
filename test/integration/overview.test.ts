import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertMinor } from "../../src/money/exchange-rates";
import { call, createTenant, graphql } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { daysAhead } from "../helpers/offers";
import { bookOffer, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

/**
 * The owner's overview (docs/running-the-platform.md#overview): per tenant and per day, searches,
 * orders booked and ticketed, gross booking value and fees earned in USD at the static rate
 * table (a booking's fee reaches fees_earned), refunds, look-to-book and the webhook failure
 * rate; owner only; at most 366 days.
 */

describe("overview", () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    // Every delivery is refused: each is given up after its one attempt.
    receiver = await startReceiver({ responder: () => ({ status: 500 }) });
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0", WEBHOOK_RETRY_SCHEDULE: "0", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  const overview = (query = "") => call(server, "GET", `/v1/overview${query}`, { key: server.ownerKey });
  const today = () => new Date().toISOString().slice(0, 10);

  it("counts each tenant's searches, bookings, tickets, booking value and fees (in USD), and per day", async () => {
    const euro = await createTenant(server, { name: "Euro Trips" });
    const quiet = await createTenant(server, { name: "Quiet Travel" });
    expect((await call(server, "PATCH", "/v1/tenant", { key: euro.key, body: { default_currency: "EUR", webhook_url: receiver.url, webhook_enabled: true } })).status).toBe(200);
    await call(server, "POST", "/v1/pricing_rules", { key: server.ownerKey, body: { tenant_id: euro.tenantId, name: "Fee", fee: { fixed_amount: "10.00", fixed_currency: "EUR" } } });
    const [offer] = await searchForBooking(server, euro.key);
    await searchForBooking(server, euro.key, { reuseFlights: true, days: 90 });
    await searchForBooking(server, euro.key, { reuseFlights: true, days: 91 });
    const order = await bookOffer(server, euro.key, offer);
    await bookOffer(server, euro.key, (await searchForBooking(server, euro.key))[0]);
    expect((await ticketOrder(server, euro.key, order.id)).status).toBe(200);
    await waitForStatus(server, euro.key, order.id, ["TICKETED"]);

    const data = (await overview()).body.data;
    expect(data).toMatchObject({ to: today(), currency: "USD" });
    expect(data.days).toHaveLength(30);
    const row = data.tenants.find((tenant: any) => tenant.tenant_id === euro.tenantId);
    const totalEur = toMinor(offer.total_amount, "EUR");
    expect(row).toMatchObject({
      name: "Euro Trips",
      searches: 4,
      orders_booked: 2,
      orders_ticketed: 1,
      gross_booking_value: (convertMinor(totalEur, "EUR", "USD") / 100).toFixed(2),
      fees_earned: (convertMinor(1000, "EUR", "USD") / 100).toFixed(2),
      refunds: "0.00",
      look_to_book: 4,
    });
    expect(data.tenants.find((tenant: any) => tenant.tenant_id === quiet.tenantId)).toMatchObject({ searches: 0, orders_ticketed: 0, fees_earned: "0.00", look_to_book: null, webhook_failure_rate: null });
    const day = data.days.find((each: any) => each.date === today());
    expect(day.orders_ticketed).toBeGreaterThanOrEqual(1);
    expect(toMinor(day.fees_earned, "USD")).toBeGreaterThanOrEqual(convertMinor(1000, "EUR", "USD"));
    const sum = (field: string) => data.tenants.reduce((total: number, tenant: any) => total + toMinor(tenant[field], "USD"), 0);
    expect(toMinor(data.totals.fees_earned, "USD")).toBe(sum("fees_earned"));
    expect(toMinor(data.totals.gross_booking_value, "USD")).toBe(sum("gross_booking_value"));
    expect(data.days.reduce((total: number, each: any) => total + toMinor(each.fees_earned, "USD"), 0)).toBe(toMinor(data.totals.fees_earned, "USD"));

    // The webhook receiver refuses every delivery: once they are given up, the rate is 1.
    const rate = await eventually(async () => {
      const tenant = (await overview()).body.data.tenants.find((each: any) => each.tenant_id === euro.tenantId);
      return tenant.webhook_failure_rate === 1 ? tenant.webhook_failure_rate : undefined;
    }, () => "the deliveries are not all failed yet");
    expect(rate).toBe(1);

    const viaGraphql = await graphql(server, `{ overview { currency totals { feesEarned grossBookingValue } tenants { tenantId figures { searches feesEarned lookToBook } } days { date } } }`, {}, { key: server.ownerKey });
    expect(viaGraphql.body.data!.overview.totals).toEqual({ feesEarned: data.totals.fees_earned, grossBookingValue: data.totals.gross_booking_value });
    expect(viaGraphql.body.data!.overview.tenants.find((tenant: any) => tenant.tenantId === euro.tenantId).figures).toEqual({ searches: 4, feesEarned: row.fees_earned, lookToBook: 4 });
  });

  it("takes a span of up to 366 days, refuses more or a bad date, and is the owner's only", async () => {
    const year = await overview(`?from=${daysAhead(-365)}&to=${today()}`);
    expect(year.status).toBe(200);
    expect(year.body.data.days).toHaveLength(366);
    expectError(await overview(`?from=${daysAhead(-366)}&to=${today()}`), 422, "invalid_field_value", "to");
    expectError(await overview("?from=2027-02-30"), 400, "validation_failed", "from");
    expectError(await overview("?to=passport"), 400, "validation_failed", "to");
    expectError(await overview(`?from=${today()}&to=${daysAhead(-1)}`), 400, "validation_failed", "to");
    const tenant = await createTenant(server);
    expectError(await call(server, "GET", "/v1/overview", { key: tenant.key }), 403, "forbidden");
  });
});
