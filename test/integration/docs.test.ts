import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPageHeaders } from "../helpers/page-headers";
import { rawGet } from "../helpers/raw-get";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** The REST reference page's files over HTTP (the browser test opens the page itself). */
describe("GET /docs", () => {
  let server: TestServer;
  let urls: string[];
  let page: Awaited<ReturnType<typeof rawGet>>;

  beforeAll(async () => {
    server = await startTestServer();
    page = await rawGet(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    urls = [...page.body.toString("utf8").matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((match) => match[1]!);
  });
  afterAll(() => server.close());

  it("is sent under the console's policy, never framed, sniffed or cached", () => {
    expectPageHeaders(page.headers);
  });

  it("refers to its stylesheet and scripts on this server, at content-hashed URLs", () => {
    expect(urls).toHaveLength(3);
    for (const url of urls) expect(url).toMatch(/^\/docs\/assets\/[0-9a-f]{16}\/(swagger-ui\.css|swagger-ui-bundle\.js|init\.js)$/);
  });

  it("serves them compressed as the browser accepts, cacheable for good, without a key", async () => {
    for (const url of urls) {
      const [plain, brotli] = await Promise.all([rawGet(server.url + url), rawGet(server.url + url, { "accept-encoding": "gzip, deflate, br" })]);
      expect([plain.status, brotli.status], url).toEqual([200, 200]);
      expect(brotli.headers["content-encoding"]).toBe("br");
      expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(brotli.headers["x-content-type-options"]).toBe("nosniff");
      expect(brotliDecompressSync(brotli.body).equals(plain.body), url).toBe(true);
    }
    const bundle = urls.find((url) => url.endsWith("/swagger-ui-bundle.js"))!;
    const [plain, brotli] = await Promise.all([rawGet(server.url + bundle), rawGet(server.url + bundle, { "accept-encoding": "br" })]);
    expect(brotli.body.length).toBeLessThan(plain.body.length / 3);
  });
});
