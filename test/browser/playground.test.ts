import type { Page, Response } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { bookOffer, searchForBooking } from "../helpers/orders";
import { waitForOpenSubscriptions } from "../helpers/subscriptions";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { framedBySameSite, openLocalBrowser, type LocalBrowser } from "./local-chromium";

/**
 * The GraphQL playground as a person uses it, in Debian's Chromium: a fresh page asks for a key
 * and sends nothing before it; with a tenant key entered, a query runs and its answer shows, and
 * a subscription started in the page receives the event of an order booked through REST. Every
 * request is recorded: none may leave this machine, and none may be refused with 401. And as an
 * attacker would try it: the key is kept in the tab's sessionStorage, never in localStorage; a
 * page framing the playground gets nothing; a link carrying a mutation or a subscription opens
 * it, but Run sends nothing until the person confirms in a dialog that names it.
 */
const SCREENSHOT = process.env.PLAYGROUND_SCREENSHOT ?? "/tmp/playground.png";
const screenshot = (name: string) => SCREENSHOT.replace(/\.png$/, `-${name}.png`);
const QUERY_EDITOR = ".graphiql-query-editor";
const RESULT_PANE = ".graphiql-response .result-window";

/** The visible text of a Monaco editor inside `container` (Monaco renders spaces as U+00A0). */
async function editorText(page: Page, container: string): Promise<string> {
  const lines = await page.locator(`${container} .view-lines .view-line`).allTextContents();
  return lines.join("\n").replace(/\u00a0/g, " ");
}

/** Replaces the whole text of the Monaco editor inside `container`, as typed by a person. */
async function setEditorText(page: Page, container: string, text: string): Promise<void> {
  await page.locator(`${container} .monaco-editor`).first().click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  // insertText delivers the text as one input (like a paste), so Monaco's bracket and quote
  // auto-closing does not add characters.
  await page.keyboard.insertText(text);
  await expect.poll(() => editorText(page, container)).toBe(text);
}

/**
 * Clicks GraphiQL's run button once it runs the one operation in the editor: while GraphiQL
 * still counts several (it re-reads the document shortly after an edit), the button opens a
 * menu to pick one instead.
 */
async function runOperation(page: Page): Promise<void> {
  const runButton = page.locator(".graphiql-execute-button:not([aria-haspopup])");
  await runButton.waitFor({ state: "visible" });
  await runButton.click();
}

/** The `query` of a GraphQL POST body, or "" if it is not one. */
function queryOf(response: Response): string {
  try {
    return String(JSON.parse(response.request().postData() ?? "").query ?? "");
  } catch {
    return "";
  }
}

describe("GraphQL playground in Chromium", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  let browser: LocalBrowser;
  let page: Page;
  const graphqlPosts: Response[] = [];
  const assets: Response[] = [];
  const refused: string[] = [];
  const wsFramesSent: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server, { name: "Playground Travel" });
    browser = await openLocalBrowser();
    page = browser.page;
    browser.context.on("response", (response) => {
      if (response.status() === 401) refused.push(response.url());
      if (response.url().startsWith(`${server.url}/graphql`) && response.request().method() === "POST") graphqlPosts.push(response);
      if (response.url().startsWith(`${server.url}/graphql/playground/`)) assets.push(response);
    });
    page.on("websocket", (socket) => socket.on("framesent", (frame) => wsFramesSent.push(String(frame.payload))));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(async ({ task }) => {
    if (task.result?.state !== "fail") return;
    const screenshot = SCREENSHOT.replace(/\.png$/, "-failed.png");
    await page?.screenshot({ path: screenshot, fullPage: true }).catch(() => {});
    console.error(`playground test failed; screenshot ${screenshot}; requests:\n${browser?.requests.join("\n")}`);
  });

  it("a fresh page asks for the key and sends no GraphQL request before one is entered", async () => {
    const response = await page.goto(`${server.url}/graphql`, { waitUntil: "networkidle" });
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-type"]).toContain("text/html");
    expect(await page.title()).toBe("Aerogate GraphQL");
    await expect.poll(() => page.locator('#credentials input[name="apiKey"]').isVisible()).toBe(true);
    expect(await page.locator(".graphiql-container").count()).toBe(0);
    expect(graphqlPosts.map((post) => post.url())).toEqual([]);
    expect(refused).toEqual([]);
  });

  it("with the key entered, loads the schema and the example tabs, and runs a query", async () => {
    const introspected = page.waitForResponse((response) => response.request().method() === "POST" && queryOf(response).includes("__schema"));
    await page.locator('#credentials input[name="apiKey"]').fill(tenant.key);
    await page.locator("#credentials button[type=submit]").click();
    const introspection = await introspected;
    expect(introspection.status()).toBe(200);
    expect(introspection.request().headers().authorization).toBe(`Bearer ${tenant.key}`);

    // GraphiQL's bundle came in brotli (Chromium accepts it), cacheable for good.
    const bundle = assets.find((asset) => asset.url().endsWith("/graphiql.js"));
    expect(bundle?.headers()["content-encoding"]).toBe("br");
    expect(bundle?.headers()["cache-control"]).toContain("immutable");

    await page.locator(`${QUERY_EDITOR} .view-lines`).first().waitFor({ state: "visible" });
    await expect.poll(() => editorText(page, QUERY_EDITOR)).toContain("query Viewer");
    expect(await page.locator(".graphiql-tab").count()).toBe(3);

    await setEditorText(page, QUERY_EDITOR, "{ viewer { kind tenant { id } } }");
    const answered = page.waitForResponse((response) => response.request().method() === "POST" && queryOf(response).includes("viewer"));
    await runOperation(page);
    expect((await answered).status()).toBe(200);
    await expect.poll(() => editorText(page, RESULT_PANE), { timeout: 15_000 }).toContain('"kind": "TENANT"');
    expect(await editorText(page, RESULT_PANE)).toContain(tenant.tenantId);
  });

  it("runs a subscription over graphql-ws with the key and shows the event of an order booked through REST", async () => {
    const opened = page.waitForEvent("websocket");
    await setEditorText(page, QUERY_EDITOR, "subscription { orderEvents { type order { id status } } }");
    await runOperation(page);
    expect((await opened).url()).toBe(server.wsUrl);
    await waitForOpenSubscriptions(server, 1);
    const init = wsFramesSent.map((frame) => JSON.parse(frame)).find((message) => message.type === "connection_init");
    expect(init?.payload).toEqual({ authorization: `Bearer ${tenant.key}` });

    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    await expect.poll(() => editorText(page, RESULT_PANE), { timeout: 15_000 }).toContain('"type": "order.created"');
    expect(await editorText(page, RESULT_PANE)).toContain(order.id);

    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(browser.requests.length).toBeGreaterThan(0);
    expect(browser.external, `requests that left this machine:\n${browser.external.join("\n")}`).toEqual([]);
    expect(refused).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
    expect(browser.policyViolations).toEqual([]);
  });

  it("keeps the key in this tab's sessionStorage, never in localStorage, and clears what an older version left there", async () => {
    // Evaluated in the page (as text: this project's types know no DOM).
    const stored = async () => ({ local: String(await page.evaluate("JSON.stringify({ ...localStorage })")), session: String(await page.evaluate("JSON.stringify({ ...sessionStorage })")) });
    expect((await stored()).local).not.toContain(tenant.key);
    expect((await stored()).session).toContain(tenant.key);
    // As an older playground left it: the owner's key and GraphiQL's tabs in localStorage.
    const leftBehind = { "aerogate.playground.apiKey": server.ownerKey, "aerogate.playground.serviceTenant": "ten_old", "graphiql:tabState": '{"tabs":[]}', unrelated: "kept" };
    await page.evaluate(`Object.entries(${JSON.stringify(leftBehind)}).forEach(([name, value]) => localStorage.setItem(name, value))`);
    expect(JSON.parse((await stored()).local)).toEqual(leftBehind);
    await page.reload();
    await page.locator(`${QUERY_EDITOR} .view-lines`).first().waitFor({ state: "visible" });
    expect(JSON.parse((await stored()).local)).toEqual({ unrelated: "kept" });
    expect((await stored()).session).toContain(tenant.key);
    // Another tab (a new session) starts without the key.
    const other = await browser.context.newPage();
    try {
      await other.goto(`${server.url}/graphql`);
      await other.locator('#credentials input[name="apiKey"]').waitFor({ state: "visible" });
      expect(String(await other.evaluate("JSON.stringify({ ...sessionStorage })"))).not.toContain(tenant.key);
      expect(await other.locator(".graphiql-container").count()).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("refuses to be framed: a page of this same site framing a link with a mutation gets nothing to click", async () => {
    const postsBefore = graphqlPosts.length;
    const link = `/graphql?query=${encodeURIComponent('mutation { updateTenantConfig(input: { timezone: "Asia/Tokyo" }) { timezone } }')}`;
    const framing = await framedBySameSite(browser, server.url, link);
    try {
      expect(await framing.frame.locator("#credentials, .graphiql-container").count()).toBe(0);
      await framing.page.screenshot({ path: screenshot("framed") });
      expect(graphqlPosts.length).toBe(postsBefore);
    } finally {
      await framing.page.close();
    }
  });

  it("opens a link's mutation in its own tab, but Run sends nothing until the person confirms a dialog naming it", async () => {
    const timezone = async () => (await call(server, "GET", "/v1/tenant", { key: tenant.key })).body.data.timezone;
    expect(await timezone()).toBe("UTC");
    const mutation = 'mutation { updateTenantConfig(input: { timezone: "Asia/Tokyo" }) { timezone } }';
    await page.goto(`${server.url}/graphql?query=${encodeURIComponent(mutation)}`);
    await page.locator(`${QUERY_EDITOR} .view-lines`).first().waitFor({ state: "visible" });
    await expect.poll(() => editorText(page, QUERY_EDITOR)).toBe(mutation);
    // Taken once: the address no longer carries it, so a reload would not bring it back.
    expect(new URL(page.url()).searchParams.has("query")).toBe(false);

    const postsBefore = graphqlPosts.length;
    const dialog = page.getByRole("dialog", { name: "Run this mutation?" });
    await runOperation(page);
    await dialog.waitFor({ state: "visible" });
    expect(await dialog.textContent()).toContain("updateTenantConfig");
    await page.screenshot({ path: screenshot("confirm-mutation") });
    await dialog.getByRole("button", { name: "Don't run" }).click();
    await expect.poll(() => editorText(page, RESULT_PANE)).toContain("Not run");
    expect(graphqlPosts.slice(postsBefore).map(queryOf).filter((query) => query.includes("updateTenantConfig"))).toEqual([]);
    expect(await timezone()).toBe("UTC");

    await runOperation(page);
    await dialog.waitFor({ state: "visible" });
    const sent = page.waitForResponse((response) => response.request().method() === "POST" && queryOf(response).includes("updateTenantConfig"));
    await dialog.getByRole("button", { name: "Run mutation (unnamed)" }).click();
    expect((await sent).status()).toBe(200);
    await expect.poll(() => editorText(page, RESULT_PANE), { timeout: 15_000 }).toContain('"timezone": "Asia/Tokyo"');
    expect(await timezone()).toBe("Asia/Tokyo");

    // A mutation the person wrote runs at once.
    await setEditorText(page, QUERY_EDITOR, 'mutation { updateTenantConfig(input: { timezone: "UTC" }) { timezone } }');
    await runOperation(page);
    await expect.poll(() => editorText(page, RESULT_PANE), { timeout: 15_000 }).toContain('"timezone": "UTC"');
    expect(await dialog.isVisible()).toBe(false);
    expect(browser.pageErrors).toEqual([]);
    expect(browser.policyViolations).toEqual([]);
  });

  it("asks the same before a link's subscription opens a socket, and runs a link's query at once", async () => {
    const sockets: string[] = [];
    const listen = (socket: { url(): string }) => sockets.push(socket.url());
    page.on("websocket", listen);
    try {
      await page.goto(`${server.url}/graphql?query=${encodeURIComponent("subscription Watch { orderEvents { type } }")}`);
      await page.locator(`${QUERY_EDITOR} .view-lines`).first().waitFor({ state: "visible" });
      await expect.poll(() => editorText(page, QUERY_EDITOR)).toContain("subscription Watch");
      const dialog = page.getByRole("dialog", { name: "Run this subscription?" });
      await runOperation(page);
      await dialog.waitFor({ state: "visible" });
      expect(await dialog.textContent()).toContain("subscription Watch: orderEvents");
      await dialog.getByRole("button", { name: "Don't run" }).click();
      await expect.poll(() => editorText(page, RESULT_PANE)).toContain("Not run");
      expect(sockets).toEqual([]);

      await page.goto(`${server.url}/graphql?query=${encodeURIComponent("query Who { viewer { kind } }")}`);
      await expect.poll(() => editorText(page, QUERY_EDITOR)).toContain("query Who");
      await runOperation(page);
      await expect.poll(() => editorText(page, RESULT_PANE), { timeout: 15_000 }).toContain('"kind": "TENANT"');
      expect(await dialog.isVisible()).toBe(false);
    } finally {
      page.off("websocket", listen);
    }
  });
});
