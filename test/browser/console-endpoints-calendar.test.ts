import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import type { TestServer } from "../helpers/test-server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { consoleProviders, consoleSteps, startConsoleServer } from "./console-suite";
import { openLocalBrowser, type LocalBrowser } from "./local-chromium";

/**
 * The console's webhook endpoints and fare calendar as a tenant's person uses them, in Debian's
 * Chromium: makes an endpoint for two events (its secret shown once), pings it and reads its
 * deliveries alone, switches it off and on, rotates its secret, deletes it; then searches a route
 * and picks a cheaper day on the calendar around the chosen one, which searches that day, its
 * cheapest offer at the calendar's price. No request leaves this machine. Screenshots go to
 * test/browser/screenshots/.
 *
 * Runs on SQLite, and on PostgreSQL too when asked (`consoleProviders` in console-suite.ts).
 */
const STEP_TIMEOUT_MS = 120_000;

describe.each(consoleProviders)("console endpoints and fare calendar in Chromium (%s)", (providerName, createDatabase) => {
  let server: TestServer;
  let receiver: Receiver;
  let browser: LocalBrowser;
  let page: Page;
  let tenant: TenantFixture;

  const { shot, nav, onFailure } = consoleSteps(providerName, () => ({ page, browser }));

  beforeAll(async () => {
    server = await startConsoleServer(createDatabase, { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" });
    receiver = await startReceiver();
    tenant = await createTenant(server, { name: `Endpoint Travel ${providerName}` });
    browser = await openLocalBrowser();
    page = browser.page;
    await page.goto(`${server.url}/console`);
    await page.getByLabel("API key").fill(tenant.key);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Orders" }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  it("makes an endpoint for two events and sees its secret once, pings it and reads its deliveries, switches it off and on, rotates and deletes it", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("endpoints");
    await nav("Webhooks").click();
    const endpoints = page.getByRole("region", { name: "Endpoints" });
    await endpoints.getByText("0 endpoints").waitFor();

    const form = page.getByRole("form", { name: "New endpoint" });
    await form.getByLabel("Endpoint URL").fill(`${receiver.url}/fulfilment`);
    await form.getByLabel("Description").fill("Fulfilment");
    await form.getByLabel("All events, those added later included").uncheck();
    await form.getByLabel("order.ticketed").check();
    await form.getByLabel("order.cancelled").check();
    await form.getByRole("button", { name: "Create endpoint" }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    const row = endpoints.getByRole("row", { name: "Endpoint Fulfilment" });
    await row.getByText("order.ticketed, order.cancelled").waitFor();
    await shot("endpoint-created");
    await page.getByRole("button", { name: "I have stored it" }).click();
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);

    // A ping reaches the receiver; the endpoint's deliveries show it, and only its own.
    await row.getByRole("button", { name: "Ping" }).click();
    await row.getByText("Ping queued.").waitFor();
    await eventually(
      async () => receiver.received.find((hook) => hook.path.endsWith("/fulfilment") && (hook.json as { event?: string } | undefined)?.event === "ping"),
      () => "a ping at the endpoint's receiver",
    );
    await row.getByRole("button", { name: "Deliveries" }).click();
    expect(new URL(page.url()).searchParams.get("endpoint")).toMatch(/^whe_/);
    const deliveries = page.getByRole("region", { name: "Deliveries" });
    await deliveries.getByText("1 delivery").waitFor();
    await deliveries.getByRole("row").filter({ hasText: "ping" }).getByText(/succeeded/i).waitFor({ timeout: 15_000 });
    await shot("endpoint-deliveries");

    await row.getByRole("button", { name: "Disable" }).click();
    await row.getByText("Disabled").waitFor();
    expect(await row.getByRole("button", { name: "Ping" }).isDisabled()).toBe(true);
    await row.getByRole("button", { name: "Enable" }).click();
    await row.getByText("Enabled").waitFor();

    await row.getByRole("button", { name: "Rotate secret…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Rotate" }).click();
    const rotated = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole("button", { name: "I have stored it" }).click();

    await row.getByRole("button", { name: "Delete…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();
    await endpoints.getByText("0 endpoints").waitFor();
    expect(browser.external, browser.external.join("\n")).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });

  it("shows the fare calendar around the chosen day, and picking a day searches it at the calendar's price", { timeout: STEP_TIMEOUT_MS }, async () => {
    onFailure("fare-calendar");
    await nav("Search & book").click();
    await page.getByRole("combobox", { name: "From" }).fill("LHR");
    await page.getByRole("option", { name: /LHR/ }).first().waitFor();
    await page.keyboard.press("Enter");
    await page.getByRole("combobox", { name: "To" }).fill("JFK");
    await page.getByRole("option", { name: /JFK/ }).first().waitFor();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Search flights" }).click();
    await page.getByRole("heading", { name: /offers?, cheapest first/ }).waitFor();
    const chosenDay = new URL(page.url()).searchParams.get("depart");

    const days = page.getByRole("list", { name: "Lowest price by day" }).getByRole("button");
    await days.first().waitFor();
    expect(await days.count()).toBeGreaterThan(10);
    const pressed = page.getByRole("list", { name: "Lowest price by day" }).getByRole("button", { pressed: true });
    expect(await pressed.count()).toBe(1);
    await shot("fare-calendar");

    // Another day: the cheapest one unless it is the chosen day, else the last.
    const cheapest = days.filter({ hasText: "Cheapest" }).first();
    const other = (await cheapest.getAttribute("aria-pressed")) === "true" ? days.last() : cheapest;
    const price = (await other.locator(".price").textContent()) ?? "";
    await other.click();
    await expect.poll(() => new URL(page.url()).searchParams.get("depart")).not.toBe(chosenDay);
    await page.getByRole("heading", { name: /offers?, cheapest first/ }).waitFor();
    await expect.poll(() => page.getByRole("article").first().locator(".price").textContent()).toBe(price);
    expect(await page.getByRole("list", { name: "Lowest price by day" }).getByRole("button", { pressed: true }).locator(".price").textContent()).toBe(price);
    await shot("fare-calendar-picked");
    expect(browser.external, browser.external.join("\n")).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
