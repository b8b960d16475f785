import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { toMinor } from "../helpers/flight-checks";
import { bookOffer, searchForBooking } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";
import { credit } from "../helpers/wallet";
import { consoleProviders, consoleSteps, startConsoleServer } from "./console-suite";
import { openLocalBrowser, type LocalBrowser } from "./local-chromium";

/**
 * Credit and low-balance alerts in the console (docs/console.md), in Debian's Chromium, as a person
 * uses it: the owner opens a tenant, sees its wallet's balance, reserved and available money, and
 * sets its credit limit and low-balance threshold (a bad amount answered beside its field); the
 * tenant sees available and reserved on its Wallet page and, with `wallet: write`, sets its own
 * threshold, which a key that only reads the wallet cannot. No request leaves this machine
 * (local-chromium.ts). Screenshots go to test/browser/screenshots/.
 */
const STEP_TIMEOUT_MS = 120_000;

describe.each(consoleProviders)("console: credit limit and low-balance threshold in Chromium (%s)", (providerName, createDatabase) => {
  let server: TestServer;
  let browser: LocalBrowser;
  let page: Page;
  let agency: TenantFixture;
  let readOnlyKey: string;
  let reservedMinor: number;

  const { shot, onFailure, nav } = consoleSteps(providerName, () => ({ page, browser }));
  const usd = (minor: number) => `${(minor / 100).toFixed(2)} USD`;
  const signIn = async (key: string, landing: string) => {
    await page.goto(`${server.url}/console`);
    await page.getByLabel("API key").fill(key);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: landing, level: 1 }).waitFor();
  };

  beforeAll(async () => {
    server = await startConsoleServer(createDatabase, {});
    agency = await createTenant(server, { name: `Terms Travel ${providerName}`, environment: "live" });
    await credit(server, agency.tenantId, "1000.00");
    const [offer] = await searchForBooking(server, agency.key);
    const order = await bookOffer(server, agency.key, offer);
    reservedMinor = toMinor(order.total_amount, order.total_currency);
    const issued = await call(server, "POST", `/v1/tenants/${agency.tenantId}/keys`, { key: server.ownerKey, body: { label: "reader", permissions: { orders: "read", wallet: "read" } } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    readOnlyKey = issued.body.data.apiKey;
    browser = await openLocalBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("the owner sees the tenant's reserved and available money and sets its credit limit and low-balance threshold", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("tenant-credit");
    await signIn(server.ownerKey, "Overview");
    await page.goto(`${server.url}/console/tenants/${agency.tenantId}`);
    await page.getByRole("heading", { name: `Terms Travel ${providerName}`, level: 1 }).waitFor();
    const wallet = page.getByRole("region", { name: "Wallet" });
    await wallet.getByTestId("wallet-reserved").getByText(usd(reservedMinor)).waitFor();
    await wallet.getByTestId("wallet-available").getByText(usd(100_000 - reservedMinor)).waitFor();
    expect(await wallet.getByTestId("wallet-threshold").textContent()).toBe("none");

    await wallet.getByLabel("Credit limit (USD)").fill("1.234");
    await wallet.getByRole("button", { name: "Save wallet settings" }).click();
    // The API's refusal beside the field, and nothing saved.
    await wallet.locator(".field-invalid", { has: page.getByLabel("Credit limit (USD)") }).waitFor();
    await wallet.getByLabel("Credit limit (USD)").fill("500.00");
    await wallet.getByLabel("Low-balance threshold (USD)").fill("100");
    await wallet.getByRole("button", { name: "Save wallet settings" }).click();
    await wallet.getByTestId("wallet-threshold").getByText("below 100.00 USD").waitFor();
    await wallet.getByTestId("wallet-available").getByText(usd(150_000 - reservedMinor)).waitFor();
    expect(await wallet.locator(".field-invalid").count()).toBe(0);
    const stored = (await call(server, "GET", "/v1/wallet", { key: agency.key })).body.data;
    expect(stored).toMatchObject({ credit_limit: "500.00", low_balance_threshold: "100.00" });
    // The change is in the tenant's audit log, once (the refused one changed nothing).
    const audit = page.getByRole("region", { name: "Audit log" });
    await audit.getByRole("cell", { name: "wallet.settings_updated" }).waitFor();
    expect(await audit.getByRole("cell", { name: "wallet.settings_updated" }).count()).toBe(1);
    await shot("tenant-credit");
  });

  it("the tenant sees available and reserved on its wallet and sets its own threshold; an alert shows when available is below it", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("wallet-threshold");
    await page.getByRole("button", { name: "Sign out" }).click();
    await signIn(agency.key, "Orders");
    await nav("Wallet").click();
    await page.getByRole("heading", { name: "Wallet", level: 1 }).waitFor();
    const figures = page.getByTestId("wallet-figures");
    await figures.getByTestId("wallet-reserved").getByText(usd(reservedMinor)).waitFor();
    await figures.getByTestId("wallet-available").getByText(usd(150_000 - reservedMinor)).waitFor();
    const threshold = page.getByLabel("Low-balance threshold (USD)");
    expect(await threshold.inputValue()).toBe("100.00");
    expect(await page.getByLabel("Credit limit (USD)").count()).toBe(0);
    // Above what is available: the wallet shows it is below, and wallet.low_balance was sent.
    await threshold.fill(String(2000));
    await page.getByRole("button", { name: "Save wallet settings" }).click();
    await figures.getByTestId("wallet-threshold").getByText("below 2000.00 USD").waitFor();
    await figures.getByTestId("wallet-below-threshold").waitFor();
    const alerts = (await call(server, "GET", "/v1/events?type=wallet.low_balance", { key: agency.key })).body.data.items;
    expect(alerts).toHaveLength(1);
    await shot("tenant-wallet-threshold");

    // Emptied: no alert.
    await threshold.fill("");
    await page.getByRole("button", { name: "Save wallet settings" }).click();
    await figures.getByTestId("wallet-threshold").getByText("none").waitFor();
    expect((await call(server, "GET", "/v1/wallet", { key: agency.key })).body.data.low_balance_threshold).toBeNull();
  });

  it("a key that only reads the wallet sees its figures, without the threshold form", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("wallet-read-only");
    await page.getByRole("button", { name: "Sign out" }).click();
    await signIn(readOnlyKey, "Orders");
    await nav("Wallet").click();
    await page.getByRole("heading", { name: "Wallet", level: 1 }).waitFor();
    await page.getByTestId("wallet-available").getByText(usd(150_000 - reservedMinor)).waitFor();
    expect(await page.getByRole("button", { name: "Save wallet settings" }).count()).toBe(0);
    await shot("tenant-wallet-read-only");
  });
});
