import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { onTestFailed } from "vitest";
import { createSqliteTestDatabase, createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";
import type { LocalBrowser } from "./local-chromium";

/** What the console suites share: where screenshots go, the databases they run on, and the helpers of every step. */

export const SCREENSHOTS = new URL("./screenshots/", import.meta.url).pathname;

/**
 * SQLite; PostgreSQL too with TEST_BROWSER_POSTGRES=1 and TEST_DATABASE_URL naming a server. The
 * console reads and writes only through the public GraphQL API, whose every operation runs on
 * PostgreSQL in `npm run test:pg`: a second pass in Chromium proved the same twice, so CI makes one.
 */
export const consoleProviders = [
  ["SQLite", createSqliteTestDatabase] as const,
  ...(process.env.TEST_BROWSER_POSTGRES === "1" && process.env.TEST_DATABASE_URL ? [["PostgreSQL", createTestDatabase] as const] : []),
];

/** A server of the suite's own over a fresh database, dropped when the server closes. */
export async function startConsoleServer(createDatabase: () => TestDatabase | Promise<TestDatabase>, env: Record<string, string>): Promise<TestServer> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const database = await createDatabase();
  const server = await startTestServer({ database, env });
  const close = server.close;
  server.close = async () => {
    await close();
    await database.drop();
  };
  return server;
}

/**
 * A step's helpers, on the page and browser the suite has open now: a full-page screenshot named
 * by provider, a link of the main navigation, and on failure a screenshot and the last requests.
 */
export function consoleSteps(providerName: string, open: () => { page: Page; browser: LocalBrowser }) {
  const shot = (name: string) => open().page.screenshot({ path: `${SCREENSHOTS}${providerName.toLowerCase()}-${name}.png`, fullPage: true });
  return {
    shot,
    nav: (name: string) => open().page.getByRole("navigation", { name: "Main" }).getByRole("link", { name }),
    onFailure: (name: string) =>
      onTestFailed(async () => {
        await shot(`failed-${name}`).catch(() => {});
        console.error(`console test failed (${providerName}); requests:\n${open().browser.requests.slice(-40).join("\n")}`);
      }),
  };
}
