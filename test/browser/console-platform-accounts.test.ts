import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { fakeToken, secretsKey } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, WITH_DUFFEL } from "../helpers/duffel-gateway";
import { bookOffer } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";
import { credit } from "../helpers/wallet";
import { consoleProviders, consoleSteps, SCREENSHOTS, startConsoleServer } from "./console-suite";
import { openLocalBrowser, type LocalBrowser } from "./local-chromium";

/**
 * The owner's platform supplier accounts in the console (docs/console.md), in Debian's Chromium,
 * as a person uses them: the owner connects the platform's Duffel account on Suppliers (a token
 * of another shape, and a second account of the same mode, answered beside the token's field),
 * sees it listed without its token, grants a tenant the right to book through it on the tenant's
 * page (the grant in the audit log), the tenant's order booked through it shows `wallet`
 * settlement, and the owner deletes the account after a confirmation. Duffel is the fake
 * (test/helpers/duffel-fake.ts); no request leaves this machine. Screenshots go to
 * test/browser/screenshots/.
 */
const STEP_TIMEOUT_MS = 120_000;

describe.each(consoleProviders)("console: the owner's platform accounts in Chromium (%s)", (providerName, createDatabase) => {
  let fake: DuffelFake;
  let server: TestServer;
  let browser: LocalBrowser;
  let page: Page;
  let agency: TenantFixture;
  let token: string;

  const { shot, nav, onFailure } = consoleSteps(providerName, () => ({ page, browser }));
  const agencyName = `Platform Travel ${providerName}`;
  const signIn = async (key: string, landing: string) => {
    await page.goto(`${server.url}/console`);
    await page.getByLabel("API key").fill(key);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: landing, level: 1 }).waitFor();
  };
  const accounts = () => page.getByRole("region", { name: "Platform accounts" });
  const tokenField = () => accounts().locator(".field", { has: page.getByLabel("Access token") });
  const connect = async (accessToken: string) => {
    await accounts().getByLabel("Access token").fill(accessToken);
    await accounts().getByRole("button", { name: "Connect account" }).click();
  };
  const asOwner = (method: string, path: string) => call(server, method, path, { key: server.ownerKey });

  beforeAll(async () => {
    fake = await startDuffelFake();
    server = await startConsoleServer(createDatabase, { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_API_URL: fake.url, DUFFEL_TIMEOUT_MS: "10000", TICKETING_DELAY_MS: "0" });
    agency = await createTenant(server, { name: agencyName });
    const searching = await call(server, "PATCH", "/v1/tenant", { key: agency.key, body: { suppliers: WITH_DUFFEL } });
    expect(searching.status, JSON.stringify(searching.body)).toBe(200);
    await credit(server, agency.tenantId, "5000.00");
    token = fakeToken(fake);
    browser = await openLocalBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  it("the owner connects the platform's Duffel account on Suppliers: a bad token and a second one of the same mode are answered beside the field", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("platform-account-connect");
    await signIn(server.ownerKey, "Overview");
    await nav("Suppliers").click();
    await page.getByRole("heading", { name: "Suppliers", level: 1 }).waitFor();
    await accounts().getByText("0 accounts").waitFor();

    // A token of another shape: the API's words beside the token, nothing connected.
    await connect("sk_test_notduffel123456");
    await tokenField().and(page.locator(".field-invalid")).waitFor();
    const shapeError = (await tokenField().locator(".field-error").textContent()) ?? "";
    expect(shapeError).toMatch(/duffel_test_|duffel_live_/);
    await shot("platform-account-bad-token");
    expect((await asOwner("GET", "/v1/platform_accounts")).body.data).toEqual([]);

    await connect(token);
    const row = accounts().getByRole("row", { name: "Duffel test account" });
    await row.waitFor();
    expect(await tokenField().locator(".field-error").count()).toBe(0);
    expect(await row.getByRole("rowheader").textContent()).toMatch(/^Duffelspa_\w+$/);
    const [mode, status, created, lastUsed] = (await row.getByRole("cell").allTextContents()).map((text) => text.trim());
    expect(mode).toBe("test (sandbox tenants)");
    expect(status).toBe("active");
    expect(created).not.toBe("—");
    expect(lastUsed).toBe("never");
    // The token is cleared from the form and shown nowhere.
    expect(await accounts().getByLabel("Access token").inputValue()).toBe("");
    expect(await page.content()).not.toContain(token);

    // A second test account: refused beside the field in the catalogue's words, the first kept.
    await connect(fakeToken(fake));
    await tokenField().locator(".field-error").getByText("The platform already has a test duffel account.").waitFor();
    await accounts().getByText("1 account", { exact: true }).waitFor();
    await shot("platform-accounts");
    // On a phone the table scrolls sideways and the form stacks.
    await page.setViewportSize({ width: 390, height: 844 });
    await accounts().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}${providerName.toLowerCase()}-platform-accounts-phone.png` });
    await page.setViewportSize({ width: 1400, height: 900 });
    expect((await asOwner("GET", "/v1/platform_accounts")).body.data).toHaveLength(1);
    expect(browser.external, browser.external.join("\n")).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });

  it("the owner grants a tenant the platform's Duffel account on its page; the grant is saved and in the audit log", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("platform-account-grant");
    await nav("Tenants").click();
    await page.getByRole("link", { name: agencyName }).click();
    await page.getByRole("heading", { name: agencyName, level: 1 }).waitFor();
    const grants = page.getByRole("form", { name: "Platform account grants" });
    const duffel = grants.getByRole("checkbox", { name: /Duffel/ });
    await grants.getByText("its test account").waitFor();
    expect(await duffel.isChecked()).toBe(false);
    await duffel.check();
    await grants.getByRole("button", { name: "Save platform accounts" }).click();
    await grants.getByRole("status").getByText("Saved.").waitFor();
    expect((await asOwner("GET", `/v1/tenants/${agency.tenantId}`)).body.data.platform_accounts).toEqual(["duffel"]);
    const audit = page.getByRole("region", { name: "Audit log" });
    const change = audit.getByRole("row").filter({ has: page.getByRole("cell", { name: "tenant.updated" }) });
    await change.getByText('platform_accounts: [] → ["duffel"]').waitFor();
    await shot("platform-account-grant");

    // Read again, the page shows what was saved.
    await page.reload();
    await page.getByRole("heading", { name: agencyName, level: 1 }).waitFor();
    await grants.getByText("its test account").waitFor();
    expect(await duffel.isChecked()).toBe(true);
    expect(browser.external, browser.external.join("\n")).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });

  it("the tenant's order booked through the platform's account shows wallet settlement", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("platform-account-order");
    const order = await bookOffer(server, agency.key, await duffelOffer(server, agency.key, "BA"));
    expect(order.settlement).toBe("wallet");
    await page.getByRole("button", { name: "Sign out" }).click();
    await signIn(agency.key, "Orders");
    await page.goto(`${server.url}/console/orders/${order.id}`);
    const state = page.getByRole("region", { name: "State" });
    await state.getByText("the wallet pays the total and gets its refunds").waitFor();
    const facts = (await state.locator("dl.facts").innerText()).split("\n");
    expect(facts[facts.indexOf("Settlement") + 1]).toBe("wallet (the wallet pays the total and gets its refunds)");
    await shot("platform-account-order-settlement");
    expect(browser.external, browser.external.join("\n")).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });

  it("the owner sees when the account was last used and deletes it after a confirmation", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("platform-account-delete");
    await page.getByRole("button", { name: "Sign out" }).click();
    await signIn(server.ownerKey, "Overview");
    await nav("Suppliers").click();
    const row = accounts().getByRole("row", { name: "Duffel test account" });
    await row.waitFor();
    // The tenant's search and booking went through it.
    expect((await asOwner("GET", "/v1/platform_accounts")).body.data[0].last_used_at).not.toBeNull();
    expect((await row.getByRole("cell").nth(3).textContent())?.trim()).not.toBe("never");

    await row.getByRole("button", { name: "Delete…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete the test Duffel account?" });
    await dialog.waitFor();
    await shot("platform-account-delete-confirm");
    // Cancelled: nothing deleted.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect((await asOwner("GET", "/v1/platform_accounts")).body.data).toHaveLength(1);

    await row.getByRole("button", { name: "Delete…" }).click();
    await dialog.getByRole("button", { name: "Delete account" }).click();
    await accounts().getByText("0 accounts").waitFor();
    expect((await asOwner("GET", "/v1/platform_accounts")).body.data).toEqual([]);
    const audit = (await asOwner("GET", "/v1/audit_events?action=platform_account.deleted")).body.data.items;
    expect(audit).toHaveLength(1);
    await shot("platform-account-deleted");
    expect(browser.external, browser.external.join("\n")).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
