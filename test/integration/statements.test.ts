import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { bookOffer, searchForBooking, signedMinor, ticketOrder, waitForStatus } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Statements and receipts (docs/running-the-platform.md#statements), through the HTTP API:
 * - a month's statement: closing = opening + the lines, exactly; the same figures as JSON, CSV
 *   and PDF (read back with poppler's pdftotext, its pages counted with pdfinfo);
 * - the tenant's time zone decides the month; a month not begun is 422; a month with no
 *   movement is empty, opening = closing; the next month opens where the last closed;
 * - a ticketed order's receipt (PDF); 409 order_state_conflict before ticketing.
 * The sandbox clock puts movements at chosen instants.
 */

const scratch = mkdtempSync(join(tmpdir(), "aerogate-statements-"));
let files = 0;

/** The PDF's text (layout kept) and page count, as poppler reads it. */
function readPdf(bytes: Buffer): { text: string; pages: number } {
  const path = join(scratch, `document-${++files}.pdf`);
  writeFileSync(path, bytes);
  const text = execFileSync("pdftotext", ["-layout", path, "-"], { encoding: "utf8" });
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [path], { encoding: "utf8" }))?.[1]);
  return { text, pages };
}

/** A GET answered as bytes with its media type, as a browser download gets it. */
async function download(server: TestServer, path: string, key: string, accept: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${key}`, accept, ...headers } });
  return { status: response.status, type: response.headers.get("content-type"), disposition: response.headers.get("content-disposition"), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** CSV rows as arrays of fields (RFC 4180 quoting). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const character = text[i]!;
    if (quoted) {
      if (character === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ",") row.push(field), (field = "");
    else if (character === "\r") continue;
    else if (character === "\n") row.push(field), rows.push(row), (row = []), (field = "");
    else field += character;
  }
  return rows;
}

describe("statements and receipts", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
  });
  afterAll(() => server.close());

  const statement = (tenant: TenantFixture, month: string) => call(server, "GET", `/v1/statements/${month}`, { key: tenant.key });
  const credit = async (tenant: TenantFixture, amount: string, reference?: string) => {
    const response = await call(server, "POST", `/v1/tenants/${tenant.tenantId}/wallet/credits`, { key: server.ownerKey, body: { amount, currency: "USD", ...(reference && { reference }) } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  };
  const advanceTo = async (tenant: TenantFixture, to: string) => {
    const response = await call(server, "POST", "/v1/sandbox/clock/advance", { key: tenant.key, body: { to } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  /** The tenant's clock's month, as the statement names it, in UTC. */
  const monthOf = (date: Date) => date.toISOString().slice(0, 7);
  const nextYear = new Date().getUTCFullYear() + 1;

  it("balances a month exactly, with the same figures as CSV and PDF", async () => {
    const tenant = await createTenant(server, { name: "Statement Travel" });
    await call(server, "POST", "/v1/pricing_rules", { key: server.ownerKey, body: { tenant_id: tenant.tenantId, name: "Fee", fee: { fixed_amount: "9.50", fixed_currency: "USD" } } });
    await credit(tenant, "250.00", "wire, \"March\"");
    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);

    const month = monthOf(new Date());
    const json = await statement(tenant, month);
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    const data = json.body.data;
    expect(data).toMatchObject({ month, time_zone: "UTC", currency: "USD", opening_balance: "0.00" });
    expect(data.lines.map((line: any) => line.type)).toEqual(["opening_balance", "owner_credit", "ticketing_debit"]);
    const sum = data.lines.reduce((total: number, line: any) => total + signedMinor(line.amount, "USD"), 0);
    expect(signedMinor(data.closing_balance, "USD")).toBe(signedMinor(data.opening_balance, "USD") + sum);
    expect(data.closing_balance).toBe(data.lines.at(-1).balance_after);
    expect(data.closing_balance).toBe((await call(server, "GET", "/v1/wallet", { key: tenant.key })).body.data.balance);
    const debit = data.lines.at(-1);
    expect(debit).toMatchObject({ order_id: order.id, booking_reference: order.booking_reference, amount: `-${offer.total_amount}`, fee_amount: "9.50" });
    expect(data.totals).toEqual({ opening_balance: "100000.00", owner_credit: "250.00", ticketing_debit: `-${offer.total_amount}` });

    const csv = await download(server, `/v1/statements/${month}`, tenant.key, "text/csv");
    expect(csv.status).toBe(200);
    expect(csv.type).toMatch(/^text\/csv/);
    expect(csv.disposition).toBe(`attachment; filename="statement-${month}.csv"`);
    const [header, ...rows] = parseCsv(csv.bytes.toString("utf8"));
    expect(header).toEqual(["id", "created_at", "type", "amount", "fee_amount", "currency", "order_id", "booking_reference", "reference", "balance_after"]);
    expect(rows).toEqual(data.lines.map((line: any) => [line.id, line.created_at, line.type, line.amount, line.fee_amount, "USD", line.order_id ?? "", line.booking_reference ?? "", line.reference ?? "", line.balance_after]));

    const pdf = await download(server, `/v1/statements/${month}`, tenant.key, "application/pdf");
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe("application/pdf");
    expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const { text, pages } = readPdf(pdf.bytes);
    expect(pages).toBe(1);
    for (const expected of ["Statement Travel", `Statement ${month}`, "Opening balance", "0.00 USD", `Closing balance`, `${data.closing_balance} USD`, order.booking_reference, `-${offer.total_amount}`, "9.50", "250.00", "wire, \"March\""]) {
      expect(text, expected).toContain(expected);
    }
    for (const line of data.lines) expect(text).toContain(line.balance_after);

    // The owner reads it for the tenant; GraphQL gives the same figures.
    const asOwner = await call(server, "GET", `/v1/statements/${month}`, { key: server.ownerKey, headers: { "service-tenant": tenant.tenantId } });
    expect(asOwner.body.data).toEqual(data);
    const viaGraphql = await graphql(server, `query ($month: String!) { statement(month: $month) { openingBalance closingBalance lines { id amount feeAmount bookingReference balanceAfter } } }`, { month }, { key: tenant.key });
    expect(viaGraphql.body.data!.statement).toEqual({
      openingBalance: data.opening_balance,
      closingBalance: data.closing_balance,
      lines: data.lines.map((line: any) => ({ id: line.id, amount: line.amount, feeAmount: line.fee_amount, bookingReference: line.booking_reference, balanceAfter: line.balance_after })),
    });
  });

  it("lets the tenant's time zone decide the month, refuses a month not begun, and opens each month where the last closed", async () => {
    const tenant = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { timezone: "America/New_York" } })).status).toBe(200);
    // 00:30 UTC on 1 March is still 28 or 29 February in New York.
    await advanceTo(tenant, `${nextYear}-03-01T00:30:00Z`);
    await credit(tenant, "10.00", "late February");
    expectError(await statement(tenant, `${nextYear}-03`), 422, "invalid_field_value", "month");
    const february = (await statement(tenant, `${nextYear}-02`)).body.data;
    expect(february.lines.map((line: any) => line.reference)).toEqual(["late February"]);
    expect(february).toMatchObject({ opening_balance: "100000.00", closing_balance: "100010.00", time_zone: "America/New_York" });
    expect(february.to).toBe(`${nextYear}-03-01T05:00:00.000Z`);

    // In UTC the same movement is March's.
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { timezone: "UTC" } })).status).toBe(200);
    const march = (await statement(tenant, `${nextYear}-03`)).body.data;
    expect(march.lines.map((line: any) => line.reference)).toEqual(["late February"]);
    expect((await statement(tenant, `${nextYear}-02`)).body.data.lines).toEqual([]);

    // A month with no movement: empty, opening = closing = the month before's closing.
    await advanceTo(tenant, `${nextYear}-05-02T00:00:00Z`);
    const april = (await statement(tenant, `${nextYear}-04`)).body.data;
    expect(april).toMatchObject({ lines: [], totals: {}, opening_balance: march.closing_balance, closing_balance: march.closing_balance });
    for (const bad of ["2027-13", "27-01", "2027-1", "next", "1999-12"]) expectError(await statement(tenant, bad), 422, "invalid_field_value", "month");
  });

  it("carries a long month on as many pages as it needs, its headings on each", async () => {
    const tenant = await createTenant(server, { name: "Busy Bureau" });
    for (let i = 0; i < 70; i++) await credit(tenant, `${i + 1}.00`, `top-up ${i + 1}`);
    const month = monthOf(new Date());
    const data = (await statement(tenant, month)).body.data;
    expect(data.lines).toHaveLength(71);
    const { text, pages } = readPdf((await download(server, `/v1/statements/${month}`, tenant.key, "application/pdf")).bytes);
    expect(pages).toBeGreaterThan(1);
    expect(text.split("Balance").length - 1).toBeGreaterThanOrEqual(pages);
    for (const reference of ["top-up 1", "top-up 35", "top-up 70"]) expect(text).toContain(reference);
    expect(text).toContain(`${data.closing_balance} USD`);
  });

  it("gives a ticketed order's receipt as a PDF, and 409 order_state_conflict before it is ticketed", async () => {
    const tenant = await createTenant(server, { name: "Receipt Tours" });
    await call(server, "POST", "/v1/pricing_rules", { key: server.ownerKey, body: { tenant_id: tenant.tenantId, name: "Fee", fee: { percent: "3" } } });
    const [offer] = await searchForBooking(server, tenant.key, { passengers: ["adult", "child"] });
    const order = await bookOffer(server, tenant.key, offer);
    const pending = await call(server, "GET", `/v1/air/orders/${order.id}/invoice`, { key: tenant.key });
    expectError(pending, 409, "order_state_conflict");
    expectError(await call(server, "GET", `/v1/air/orders/ord_00000000000000000000000000/invoice`, { key: tenant.key }), 404, "not_found");

    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    const receipt = await download(server, `/v1/air/orders/${order.id}/invoice`, tenant.key, "application/pdf");
    expect(receipt.status).toBe(200);
    expect(receipt.type).toBe("application/pdf");
    expect(receipt.disposition).toBe(`attachment; filename="receipt-${order.booking_reference}.pdf"`);
    const { text, pages } = readPdf(receipt.bytes);
    expect(pages).toBe(1);
    const segment = offer.slices[0].segments[0];
    for (const expected of [
      `Receipt ${order.booking_reference}`,
      "Receipt Tours",
      ...ticketed.passengers.map((passenger: any) => `${passenger.given_name} ${passenger.family_name}`),
      ...ticketed.documents.map((document: any) => document.unique_identifier),
      `${segment.marketing_carrier.iata_code}${segment.marketing_carrier_flight_number}`,
      segment.origin.iata_code,
      `${offer.base_amount} USD`,
      `${offer.tax_amount} USD`,
      `${offer.fee_amount} USD`,
      `${offer.total_amount} USD`,
      `-${offer.total_amount} USD`,
      "ticketing debit",
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(toMinor(offer.fee_amount, "USD")).toBeGreaterThan(0);
    // The owner gets it for the tenant; another tenant's key does not.
    expect((await download(server, `/v1/air/orders/${order.id}/invoice`, server.ownerKey, "application/pdf", { "service-tenant": tenant.tenantId })).status).toBe(200);
    const stranger = await createTenant(server);
    expectError(await call(server, "GET", `/v1/air/orders/${order.id}/invoice`, { key: stranger.key }), 404, "not_found");
  });
});
