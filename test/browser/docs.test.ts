import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { framedBySameSite, openLocalBrowser, type LocalBrowser } from "./local-chromium";

/**
 * The REST reference at /docs as a person opens it: no key, Debian's Chromium, and no request
 * leaving this machine (any that tries is recorded and aborted), nothing its policy refuses; and
 * no page can frame it.
 */
describe("REST reference at /docs in Chromium", () => {
  let server: TestServer;
  let browser: LocalBrowser;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await openLocalBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows the operations of /openapi.json, from this server alone", async () => {
    const { page } = browser;
    onTestFailed(async () => {
      await page.screenshot({ path: "/tmp/docs-failed.png", fullPage: true }).catch(() => {});
      console.error(`docs test failed; screenshot /tmp/docs-failed.png; requests:\n${browser.requests.join("\n")}`);
    });
    const response = await page.goto(`${server.url}/docs`, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    await page.getByText("Book an offer", { exact: false }).first().waitFor({ state: "visible", timeout: 30_000 });
    await page.getByText("/v1/wallet/transactions", { exact: true }).first().waitFor({ state: "visible" });

    // An operation opened, with its example body highlighted.
    await page.getByText("Book an offer", { exact: false }).first().click();
    await page.getByText("Example Value").first().waitFor({ state: "visible" });

    expect(browser.requests).toContain(`GET ${server.url}/openapi.json`);
    expect(browser.external, `requests that left this machine:\n${browser.external.join("\n")}`).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
    expect(browser.policyViolations).toEqual([]);
  });

  it("refuses to be framed, even by a page of this same site", async () => {
    const framing = await framedBySameSite(browser, server.url, "/docs");
    try {
      expect(await framing.frame.locator("#reference").count()).toBe(0);
    } finally {
      await framing.page.close();
    }
  });
});
