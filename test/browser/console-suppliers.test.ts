import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TenantFixture } from "../helpers/client";
import type { TestServer } from "../helpers/test-server";
import { consoleProviders, consoleSteps, SCREENSHOTS, startConsoleServer } from "./console-suite";
import { openLocalBrowser, type LocalBrowser } from "./local-chromium";

/**
 * The gateway in the console (docs/console.md), in Debian's Chromium: a tenant searches a route
 * both simulated suppliers fly and sees how each supplier did beside the offers (status, offers,
 * time), each offer naming its supplier; the owner opens the suppliers' health and sees both,
 * with the calls those searches made. No request leaves this machine. Screenshots go to
 * test/browser/screenshots/.
 *
 * Runs on SQLite, and on PostgreSQL too when asked (`consoleProviders` in console-suite.ts).
 */
const STEP_TIMEOUT_MS = 120_000;

describe.each(consoleProviders)("console: supplier results and health in Chromium (%s)", (providerName, createDatabase) => {
  let server: TestServer;
  let browser: LocalBrowser;
  let page: Page;
  let tenant: TenantFixture;

  const { shot, nav, onFailure } = consoleSteps(providerName, () => ({ page, browser }));
  const signIn = async (key: string, landing: string) => {
    await page.goto(`${server.url}/console`);
    await page.getByLabel("API key").fill(key);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: landing, level: 1 }).waitFor();
  };

  beforeAll(async () => {
    // The low-cost supplier takes a moment, as a real one would.
    server = await startConsoleServer(createDatabase, { SUPPLIER_LCC_LATENCY_MS: "150" });
    tenant = await createTenant(server, { name: `Gateway Travel ${providerName}` });
    browser = await openLocalBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("a tenant searches London–Barcelona and sees each supplier's status, offers and time beside the offers", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("supplier-results");
    await signIn(tenant.key, "Orders");
    await nav("Search & book").click();
    // London's city code (every London airport), typed: the suggestions are airports.
    await page.getByRole("combobox", { name: "From" }).fill("LON");
    await page.keyboard.press("Escape");
    await page.getByRole("combobox", { name: "To" }).fill("BCN");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Search flights" }).click();
    await page.getByRole("heading", { name: /offers?, cheapest first/ }).waitFor();

    const results = page.getByRole("region", { name: "Suppliers asked" });
    const network = results.getByRole("row", { name: "Supplier simulated", exact: true });
    const lowCost = results.getByRole("row", { name: "Supplier simulated_lcc", exact: true });
    await network.getByText("ok").waitFor();
    await lowCost.getByText("ok").waitFor();
    const cells = async (row: typeof network) => (await row.getByRole("cell").allTextContents()).map((text) => text.trim());
    const [, networkOffers] = await cells(network);
    const [, lowCostOffers, lowCostTook] = await cells(lowCost);
    expect(Number(networkOffers)).toBeGreaterThan(0);
    expect(Number(lowCostOffers)).toBeGreaterThan(0);
    expect(Number(lowCostTook!.replace(" ms", ""))).toBeGreaterThanOrEqual(150);
    // The search's offers are the suppliers' together, and every offer shown names its supplier, both among them.
    const heading = (await page.getByRole("heading", { name: /offers?, cheapest first/ }).textContent()) ?? "";
    expect(Number(/^(\d+) offers?/.exec(heading)?.[1])).toBe(Number(networkOffers) + Number(lowCostOffers));
    const offers = page.getByRole("article");
    const fromLowCost = await offers.filter({ hasText: "from Simulated low-cost carriers" }).count();
    const fromNetwork = await offers.filter({ hasText: "from Simulated airline network" }).count();
    expect(fromLowCost).toBeGreaterThan(0);
    expect(fromNetwork).toBeGreaterThan(0);
    expect(fromNetwork + fromLowCost).toBe(await offers.count());
    // The offers and the suppliers' results at the top of the window, as a person scrolled down to them sees them.
    await page.getByRole("heading", { name: /offers?, cheapest first/ }).evaluate((heading) => (heading as unknown as { scrollIntoView(): void }).scrollIntoView());
    await page.screenshot({ path: `${SCREENSHOTS}${providerName.toLowerCase()}-search-supplier-results.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await results.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}${providerName.toLowerCase()}-search-supplier-results-phone.png` });
    await page.setViewportSize({ width: 1400, height: 900 });
    expect(browser.external, browser.external.join("\n")).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });

  it("the owner opens Suppliers and sees each supplier's health, with the calls of the searches made", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("supplier-health");
    await page.getByRole("button", { name: "Sign out" }).click();
    await signIn(server.ownerKey, "Tenants");
    await nav("Suppliers").click();
    await page.getByRole("heading", { name: "Suppliers", level: 1 }).waitFor();
    const table = page.getByRole("region", { name: "Health" });
    const network = table.getByRole("row", { name: "Supplier Simulated airline network" });
    const lowCost = table.getByRole("row", { name: "Supplier Simulated low-cost carriers" });
    for (const row of [network, lowCost]) {
      await row.getByText("healthy").waitFor();
      const [, circuit, p50, , errorRate, calls] = (await row.getByRole("cell").allTextContents()).map((text) => text.trim());
      expect(circuit).toBe("closed");
      expect(p50).toMatch(/^≤ \d+ ms$/);
      expect(errorRate).toBe("0.0 %");
      expect(Number(calls)).toBeGreaterThan(0);
    }
    await shot("suppliers-health");
    // A tenant's key has no such page: the owner's navigation only.
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents()).toContain("Suppliers");
    await page.getByRole("button", { name: "Read again" }).click();
    await network.getByText("healthy").waitFor();
    expect(browser.external, browser.external.join("\n")).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
