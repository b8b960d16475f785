import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { bookOffer, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";
import { consoleProviders, consoleSteps, startConsoleServer } from "./console-suite";
import { openLocalBrowser, type LocalBrowser } from "./local-chromium";

/**
 * The operator's business in the console (docs/console.md), in Debian's Chromium, as a person uses
 * it: the owner lands on the Overview (totals, a chart per day, the tenants sortable by each
 * column), opens a tenant and adds a pricing rule (a bad percent answered beside its field),
 * downloads its statement and reads its audit log; the tenant downloads its statement and a
 * ticketed order's receipt, and reads its own audit log. Screenshots go to test/browser/screenshots/.
 */
const STEP_TIMEOUT_MS = 120_000;

describe.each(consoleProviders)("console: overview, pricing, statements and audit in Chromium (%s)", (providerName, createDatabase) => {
  let server: TestServer;
  let browser: LocalBrowser;
  let page: Page;
  let busy: TenantFixture;
  let orderId: string;
  let bookingReference: string;

  const { shot, nav, onFailure } = consoleSteps(providerName, () => ({ page, browser }));
  const signIn = async (key: string, landing: string) => {
    await page.goto(`${server.url}/console`);
    await page.getByLabel("API key").fill(key);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: landing, level: 1 }).waitFor();
  };
  /** Clicks `button` and returns the file the browser saved: its name and bytes. */
  const downloaded = async (button: ReturnType<Page["getByRole"]>) => {
    const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
    const path = await download.path();
    return { name: download.suggestedFilename(), bytes: readFileSync(path) };
  };

  beforeAll(async () => {
    server = await startConsoleServer(createDatabase, { TICKETING_DELAY_MS: "0" });
    busy = await createTenant(server, { name: `Busy Bureau ${providerName}` });
    await createTenant(server, { name: `Quiet Agency ${providerName}` });
    await call(server, "POST", "/v1/pricing_rules", { key: server.ownerKey, body: { tenant_id: busy.tenantId, name: "Standard fee", fee: { fixed_amount: "12.00", fixed_currency: "USD" } } });
    const [offer] = await searchForBooking(server, busy.key);
    const order = await bookOffer(server, busy.key, offer);
    expect((await ticketOrder(server, busy.key, order.id)).status).toBe(200);
    await waitForStatus(server, busy.key, order.id, ["TICKETED"]);
    orderId = order.id;
    bookingReference = order.booking_reference;
    browser = await openLocalBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("the owner lands on the overview: totals, a chart per day, and the tenants sortable by each column", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("overview");
    await signIn(server.ownerKey, "Overview");
    const totals = page.getByTestId("overview-totals");
    await totals.getByText("12.00 USD").waitFor();
    expect(await page.getByRole("img", { name: /per day/ }).count()).toBe(4);
    const table = page.getByTestId("overview-tenants");
    const names = async () => (await table.locator("tbody th").allTextContents()).map((text) => text.trim());
    // By fees earned, highest first: the busy tenant leads.
    expect((await names())[0]).toBe(`Busy Bureau ${providerName}`);
    await table.getByRole("button", { name: "Tenant" }).click();
    await table.locator('th[aria-sort="descending"]', { hasText: "Tenant" }).waitFor();
    expect(await names()).toEqual([`Quiet Agency ${providerName}`, `Busy Bureau ${providerName}`]);
    await table.getByRole("button", { name: /^Tenant/ }).click();
    await table.locator('th[aria-sort="ascending"]', { hasText: "Tenant" }).waitFor();
    expect(await names()).toEqual([`Busy Bureau ${providerName}`, `Quiet Agency ${providerName}`]);
    expect(page.url()).toContain("sort=name");
    await table.getByRole("button", { name: "Searches" }).click();
    await table.locator('th[aria-sort="descending"]', { hasText: "Searches" }).waitFor();
    expect((await names())[0]).toBe(`Busy Bureau ${providerName}`);
    await shot("overview");
  });

  it("the owner opens the tenant: adds a pricing rule, downloads its statement, reads its audit log", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("tenant-business");
    await page.getByTestId("overview-tenants").getByRole("link", { name: `Busy Bureau ${providerName}` }).click();
    await page.getByRole("heading", { name: `Busy Bureau ${providerName}`, level: 1 }).waitFor();
    const rules = page.getByRole("region", { name: "Pricing rules" });
    await rules.getByRole("cell", { name: "Standard fee", exact: true }).waitFor();
    await rules.getByLabel("Name").fill("Business class to New York");
    await rules.getByLabel("Percent").fill("150");
    await rules.getByRole("button", { name: "Add rule" }).click();
    await rules.getByText(/more than 0 and at most 100/).first().waitFor();
    await rules.getByLabel("Percent").fill("2.5");
    await rules.getByLabel("To", { exact: true }).fill("NYC");
    await rules.getByRole("button", { name: "Add rule" }).click();
    await rules.getByRole("cell", { name: "Business class to New York", exact: true }).waitFor();
    await rules.getByRole("cell", { name: "2.5 % per order" }).waitFor();
    await rules.getByRole("cell", { name: "to NYC" }).waitFor();

    const statements = page.getByRole("region", { name: "Statements" });
    await statements.getByTestId("statement-summary").waitFor();
    const pdf = await downloaded(statements.getByRole("button", { name: "Download PDF" }));
    expect(pdf.name).toMatch(/^statement-\d{4}-\d{2}\.pdf$/);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");

    const audit = page.getByRole("region", { name: "Audit log" });
    await audit.getByRole("cell", { name: "pricing_rule.created" }).first().waitFor();
    await audit.getByText("Business class to New York").first().waitFor();
    await shot("tenant-business");
  });

  it("the tenant downloads its statement and a receipt, and reads its own audit log", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("tenant-own");
    await page.getByRole("button", { name: "Sign out" }).click();
    await signIn(busy.key, "Orders");
    await nav("Wallet").click();
    await page.getByRole("heading", { name: "Wallet", level: 1 }).waitFor();
    const statements = page.getByRole("region", { name: "Statements" });
    await statements.getByTestId("statement-summary").waitFor();
    const csv = await downloaded(statements.getByRole("button", { name: "Download CSV" }));
    expect(csv.name).toMatch(/^statement-\d{4}-\d{2}\.csv$/);
    expect(csv.bytes.toString("utf8")).toContain("ticketing_debit");
    await page.getByRole("cell", { name: "12.00 USD" }).first().waitFor();
    await shot("tenant-wallet-statements");

    await page.goto(`${server.url}/console/orders/${orderId}`);
    await page.getByRole("heading", { name: `Order ${bookingReference}` }).waitFor();
    const receipt = await downloaded(page.getByRole("button", { name: "Download receipt (PDF)" }));
    expect(receipt.name).toBe(`receipt-${bookingReference}.pdf`);
    expect(receipt.bytes.subarray(0, 5).toString()).toBe("%PDF-");

    await nav("Audit log").click();
    await page.getByRole("heading", { name: "Audit log", level: 1 }).waitFor();
    const audit = page.getByRole("region", { name: "Audit log" });
    await audit.getByRole("cell", { name: "api_key.created" }).first().waitFor();
    // The owner's pricing rules are the owner's business: not in the tenant's own log.
    expect(await audit.getByRole("cell", { name: "pricing_rule.created" }).count()).toBe(0);
    await shot("tenant-audit-log");
  });
});

