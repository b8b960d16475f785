import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The GraphQL playground as a person uses it: Debian's Chromium opens GET /graphql, the key goes
 * in the headers editor, `{ viewer { __typename } }` goes in the query editor, the run button is
 * clicked and the answer shows in the result pane. Every request the page makes is recorded, and
 * any that leaves this machine fails the test (and is aborted, so nothing leaves it).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SCREENSHOT = process.env.PLAYGROUND_SCREENSHOT ?? "/tmp/playground.png";

function isLocal(url: string): boolean {
  if (url.startsWith("data:") || url.startsWith("blob:") || url === "about:blank") return true;
  try {
    const { hostname } = new URL(url);
    return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
  } catch {
    return false;
  }
}

/** The `query` of a GraphQL POST body, or "" if it is not one. */
function queryOf(body: string | null): string {
  try {
    return String(JSON.parse(body ?? "").query ?? "");
  } catch {
    return "";
  }
}

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
}

describe("GraphQL playground in Chromium", () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const requests: string[] = [];
  const external: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
    }
    server = await startTestServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // Every request of every page and worker in the context goes through here: local ones
    // continue, anything else is recorded and aborted.
    await context.route("**/*", async (route) => {
      const url = route.request().url();
      requests.push(`${route.request().method()} ${url}`);
      if (isLocal(url)) await route.continue();
      else {
        if (!external.includes(url)) external.push(url);
        await route.abort("blockedbyclient");
      }
    });
    context.on("request", (request) => {
      const url = request.url();
      if (!isLocal(url) && !external.includes(url)) external.push(url);
    });
    context.on("weberror", (error) => pageErrors.push(String(error.error())));
    page = await context.newPage();
    page.on("websocket", (socket) => {
      if (!isLocal(socket.url())) external.push(socket.url());
    });
  });

  afterAll(async () => {
    await context?.close().catch(() => {});
    await browser?.close().catch(() => {});
    await server?.close();
  });

  it("opens, runs { viewer { __typename } } with the key from the headers editor, and stays on this machine", async () => {
    onTestFailed(async () => {
      await page?.screenshot({ path: SCREENSHOT.replace(/\.png$/, "-failed.png"), fullPage: true }).catch(() => {});
      console.error(`playground test failed; screenshot ${SCREENSHOT.replace(/\.png$/, "-failed.png")}; requests:\n${requests.join("\n")}`);
    });
    const response = await page.goto(`${server.url}/graphql`, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-type"]).toContain("text/html");
    expect(await page.title()).toBe("Aerogate GraphQL");

    // The query editor is Monaco; wait until it shows the default query.
    const queryEditor = ".graphiql-query-editor";
    await page.locator(`${queryEditor} .view-lines`).first().waitFor({ state: "visible", timeout: 30_000 });
    await expect.poll(() => editorText(page, queryEditor), { timeout: 30_000 }).toContain("viewer");

    // Headers: open the Headers tab of the editor tools (the hidden one is Variables), then put
    // the key where the page asks for it.
    await page.locator(".graphiql-editor-tools button", { hasText: "Headers" }).click();
    const headersEditor = 'section.graphiql-editor-tool[aria-label="Headers"] .graphiql-editor:not(.hidden)';
    await page.locator(`${headersEditor} .view-lines`).first().waitFor({ state: "visible" });
    await expect.poll(() => editorText(page, headersEditor)).toContain("authorization");
    await setEditorText(page, headersEditor, JSON.stringify({ authorization: `Bearer ${server.ownerKey}` }));

    await setEditorText(page, queryEditor, "{ viewer { __typename } }");
    await expect.poll(() => editorText(page, queryEditor)).toBe("{ viewer { __typename } }");

    // (GraphiQL sends the query with its whitespace removed.)
    const answered = page.waitForResponse(
      (r) => r.url().startsWith(`${server.url}/graphql`) && r.request().method() === "POST" && /^\{\s*viewer\s*\{\s*__typename\s*\}\s*\}$/.test(queryOf(r.request().postData())),
    );
    await page.locator(".graphiql-execute-button").click();
    const graphqlResponse = await answered;
    expect(graphqlResponse.request().headers().authorization).toBe(`Bearer ${server.ownerKey}`);
    expect(graphqlResponse.status()).toBe(200);

    const resultPane = ".graphiql-response .result-window";
    await expect.poll(() => editorText(page, resultPane), { timeout: 15_000 }).toContain('"__typename": "Viewer"');

    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    expect(requests.length).toBeGreaterThan(0);
    expect(external, `requests that left this machine:\n${external.join("\n")}`).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
