import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags for Debian's Chromium here: headless, no GPU, and none of its own calls home. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function isLocal(url: string): boolean {
  if (url.startsWith("data:") || url.startsWith("blob:") || url === "about:blank") return true;
  try {
    const { hostname } = new URL(url);
    return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
  } catch {
    return false;
  }
}

/** A Chromium page whose every request is recorded, and aborted unless it stays on this machine. */
export interface LocalBrowser {
  page: Page;
  context: BrowserContext;
  /** `METHOD url` of every request of every page and worker, in order. */
  requests: string[];
  /** URLs (HTTP and WebSocket) that would have left this machine. */
  external: string[];
  /** Uncaught errors of the pages. */
  pageErrors: string[];
  /** What the pages' Content-Security-Policy refused (Chromium's console messages about it). */
  policyViolations: string[];
  close(): Promise<void>;
}

export async function openLocalBrowser(): Promise<LocalBrowser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const requests: string[] = [];
  const external: string[] = [];
  const pageErrors: string[] = [];
  const policyViolations: string[] = [];
  const noteExternal = (url: string) => {
    if (!isLocal(url) && !external.includes(url)) external.push(url);
  };
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    requests.push(`${route.request().method()} ${url}`);
    if (isLocal(url)) await route.continue();
    else {
      noteExternal(url);
      await route.abort("blockedbyclient");
    }
  });
  context.on("request", (request) => noteExternal(request.url()));
  context.on("weberror", (error) => pageErrors.push(String(error.error())));
  const page = await context.newPage();
  page.on("websocket", (socket) => noteExternal(socket.url()));
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) policyViolations.push(message.text());
  });
  return {
    page,
    context,
    requests,
    external,
    pageErrors,
    policyViolations,
    async close() {
      await context.close().catch(() => {});
      await browser.close().catch(() => {});
    },
  };
}

/**
 * Opens, in a new page, a page of the same site as `origin` (served by the test itself at
 * /framing-page) that frames `framedPath` under a heading, as a page on the site could try, and
 * waits until Chromium refuses the frame by its frame-ancestors policy. The caller closes the page.
 */
export async function framedBySameSite(browser: LocalBrowser, origin: string, framedPath: string): Promise<{ page: Page; frame: Frame }> {
  const page = await browser.context.newPage();
  const messages: string[] = [];
  page.on("console", (message) => messages.push(message.text()));
  const framingUrl = `${origin}/framing-page`;
  await page.route(framingUrl, (route) => route.fulfill({ contentType: "text/html", body: `<!doctype html><h1>Win a prize</h1><iframe src="${framedPath}" width="1200" height="700"></iframe>` }));
  await page.goto(framingUrl, { waitUntil: "load" });
  const deadline = Date.now() + 15_000;
  while (!messages.some((message) => message.includes("frame-ancestors 'none'"))) {
    if (Date.now() > deadline) throw new Error(`the frame of ${framedPath} was not refused; console: ${messages.join(" | ")}`);
    await page.waitForEvent("console", { timeout: deadline - Date.now() }).catch(() => undefined);
  }
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
  if (!frame) throw new Error("the framing page has no frame");
  return { page, frame };
}
