import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Logger } from "../logger";
import { hashedAsset, registerStaticAssets } from "./static-asset";

/** Where `npm install` (postinstall: `npm run build:console`) leaves the console's Vite build. */
export const CONSOLE_BUILD_DIR = fileURLToPath(new URL("../../console/dist/", import.meta.url));
const BASE = "/console";
const ASSETS = `${BASE}/assets/`;

/**
 * The page may load and talk to nothing but this server: scripts and styles only from its own
 * files (no inline script, so an injected string cannot run), the API and graphql-ws on the
 * same origin, and no framing (no clickjacking of the buttons that act with the person's key).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

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
  const sendPage = async (reply: FastifyReply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-cache")
      .header("content-security-policy", CONTENT_SECURITY_POLICY)
      .header("referrer-policy", "no-referrer")
      .header("x-content-type-options", "nosniff")
      .send(page);
  app.get(BASE, async (_request, reply) => sendPage(reply));
  app.get(`${BASE}/*`, async (request, reply) => {
    // An asset name that is not in this build (an old page after a deploy) is not the page.
    if (request.url.startsWith(ASSETS)) return reply.code(404).type("text/plain; charset=utf-8").send("No such console asset.\n");
    return sendPage(reply);
  });
}
