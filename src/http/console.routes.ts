import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Logger } from "../logger";
import { contentSecurityPolicy, sendPage } from "./page-security";
import { hashedAsset, registerStaticAssets } from "./static-asset";

/** Where `npm install` (postinstall: `npm run build:console`) leaves the console's Vite build. */
export const CONSOLE_BUILD_DIR = fileURLToPath(new URL("../../console/dist/", import.meta.url));
const BASE = "/console";
const ASSETS = `${BASE}/assets/`;

/** The pages' own policy, nothing added: the console loads and talks to nothing but this server. */
const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * GET /console: the operators' console, a single-page app built by Vite (console/). Its scripts
 * and styles are served from memory at the content-hashed names Vite gave them, compressed as
 * the browser accepts and cacheable for good; every other path under /console answers the page
 * itself (the app's router reads the path), never cached, so a new build is seen at once. The
 * page holds no data and no key: everything it shows it asks of the public API with the key the
 * person enters.
 */
export function registerConsoleRoutes(app: FastifyInstance, log: Logger, buildDir = CONSOLE_BUILD_DIR): void {
  const indexPath = join(buildDir, "index.html");
  if (!existsSync(indexPath)) {
    log.warn({ buildDir }, "the console is not built (npm run build:console); /console answers 503");
    app.get(`${BASE}*`, async (_request, reply) => reply.code(503).type("text/plain; charset=utf-8").send("The console is not built: run npm run build:console.\n"));
    return;
  }
  const page = readFileSync(indexPath);
  const assetsDir = join(buildDir, "assets");
  registerStaticAssets(app, readdirSync(assetsDir).map((name) => hashedAsset(`${ASSETS}${name}`, readFileSync(join(assetsDir, name)))));
  const sendConsole = async (reply: FastifyReply) => sendPage(reply, page, CONTENT_SECURITY_POLICY);
  app.get(BASE, async (_request, reply) => sendConsole(reply));
  app.get(`${BASE}/*`, async (request, reply) => {
    // An asset name that is not in this build (an old page after a deploy) is not the page.
    if (request.url.startsWith(ASSETS)) return reply.code(404).type("text/plain; charset=utf-8").send("No such console asset.\n");
    return sendConsole(reply);
  });
}
