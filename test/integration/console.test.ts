import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPageHeaders } from "../helpers/page-headers";
import { rawGet } from "../helpers/raw-get";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The console's files over HTTP (test/browser/console.test.ts uses it in Chromium): the page at
 * /console and any path under it, its assets at the names Vite hashed, compressed and cacheable
 * for good, and the first load within 300 KB compressed.
 */
const FIRST_LOAD_BUDGET_BYTES = 300 * 1024;

describe("GET /console", () => {
  let server: TestServer;
  let page: Awaited<ReturnType<typeof rawGet>>;
  /** What the page itself loads: its script, the chunks it preloads, its stylesheet. */
  let firstLoadUrls: string[];

  beforeAll(async () => {
    server = await startTestServer();
    page = await rawGet(`${server.url}/console`, { "accept-encoding": "br" });
    firstLoadUrls = [...page.body.toString("utf8").matchAll(/(?:src|href)="(\/console\/[^"]+)"/g)].map((match) => match[1]!);
  });
  afterAll(() => server.close());

  it("answers the page without a key, never cached, under a policy that lets it talk to this server only", () => {
    expect(page.status).toBe(200);
    expectPageHeaders(page.headers);
    // Nothing referenced from elsewhere (the SVG icon's xmlns names a namespace, fetches nothing).
    expect(page.body.toString("utf8")).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("answers the same page for the app's own paths, and 404 for an asset not in this build", async () => {
    for (const path of ["/console/", "/console/orders/ord_123", "/console/tenants?q=blue"]) {
      const deep = await rawGet(server.url + path);
      expect(deep.status, path).toBe(200);
      expect(deep.body.equals(page.body), path).toBe(true);
    }
    expect((await rawGet(`${server.url}/console/assets/index-00000000.js`)).status).toBe(404);
  });

  it("serves each asset at its content-hashed name, compressed as the browser accepts, cacheable for good", async () => {
    expect(firstLoadUrls.length).toBeGreaterThan(1);
    for (const url of firstLoadUrls) {
      expect(url).toMatch(/^\/console\/assets\/[\w-]+-[\w-]{8}\.(js|css)$/);
      const [plain, brotli] = await Promise.all([rawGet(server.url + url), rawGet(server.url + url, { "accept-encoding": "gzip, br" })]);
      expect([plain.status, brotli.status], url).toEqual([200, 200]);
      expect(brotli.headers["content-encoding"]).toBe("br");
      expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(brotliDecompressSync(brotli.body).equals(plain.body), url).toBe(true);
    }
  });

  it(`moves at most ${FIRST_LOAD_BUDGET_BYTES / 1024} KB compressed on the first load`, async () => {
    const assets = await Promise.all(firstLoadUrls.map((url) => rawGet(server.url + url, { "accept-encoding": "br" })));
    const bytes = page.body.length + assets.reduce((sum, asset) => sum + asset.body.length, 0);
    console.log(`console first load: ${(bytes / 1024).toFixed(1)} KB brotli in ${assets.length + 1} files`);
    expect(bytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });
});
