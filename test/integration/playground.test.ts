import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Kind, parse, print, type OperationDefinitionNode } from "graphql";
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playgroundTabs, type PlaygroundTab } from "../../src/graphql/playground-examples";
import { type TenantFixture, call, startServerWithTenant } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectPageHeaders } from "../helpers/page-headers";
import { rawGet } from "../helpers/raw-get";
import { subscribe, waitForOpenSubscriptions, wsClient } from "../helpers/subscriptions";
import type { TestServer } from "../helpers/test-server";

/** The asset URLs a page refers to: its scripts, its stylesheet and the workers in its config. */
function assetUrls(html: string): string[] {
  const referenced = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((match) => match[1]!);
  const config = /<script id="playground-config" type="application\/json">(.*?)<\/script>/s.exec(html);
  const workers = Object.values(JSON.parse(config?.[1] ?? "{}").workerUrls ?? {}) as string[];
  return [...referenced, ...workers];
}

/** One named operation of a tab's document, alone (what GraphiQL sends when it is picked). */
function operation(tab: PlaygroundTab, name: string): string {
  const definition = parse(tab.query).definitions.find((node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION && node.name?.value === name);
  if (!definition) throw new Error(`no operation ${name} in the tab`);
  return print(definition);
}

describe("GraphQL playground page and assets", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  let html: string;
  let urls: string[];

  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant({ TICKETING_DELAY_MS: "0" }));
    const page = await call<string>(server, "GET", "/graphql", { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    html = page.body;
    urls = assetUrls(html);
  });
  afterAll(() => server.close());

  it("is sent under the console's policy, never framed, sniffed or cached", async () => {
    const page = await rawGet(`${server.url}/graphql`, { accept: "text/html" });
    expect(page.status).toBe(200);
    // GraphiQL's editor (Monaco) writes its own style elements: styles may be inline, scripts never.
    expectPageHeaders(page.headers, "'self' 'unsafe-inline'");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
  });

  it("serves a small page without a key that asks for one and names its assets on this server", () => {
    expect(html.length).toBeLessThan(16_000);
    expect(html).toContain("<title>Aerogate GraphQL</title>");
    expect(html).toMatch(/<input name="apiKey" type="password"/);
    expect(urls.map((url) => url.replace(/\/[0-9a-f]{16}\//, "/…/")).sort()).toEqual(
      ["editor.worker.js", "graphiql.css", "graphiql.js", "graphql-ws.js", "graphql.worker.js", "json.worker.js", "operations.js", "playground.css", "playground.js"].map((name) => `/graphql/playground/…/${name}`).sort(),
    );
  });

  it("neither the page nor any asset loads anything from another host", async () => {
    const texts = [html, ...(await Promise.all(urls.map(async (url) => (await rawGet(server.url + url)).body.toString("utf8"))))];
    // GraphiQL's bundle mentions documentation links in comments and strings; what matters is
    // that no URL is where a browser would fetch it.
    const loaders = [
      /\bsrc\s*=\s*["']?\s*(?:https?:)?\/\//gi,
      /<link\b[^>]*\bhref\s*=\s*["']?\s*(?:https?:)?\/\//gi,
      /@import\s+(?:url\()?\s*["']?\s*(?:https?:)?\/\//gi,
      /url\(\s*["']?\s*(?:https?:)?\/\//gi,
      /\bimport\(\s*["'`]\s*(?:https?:)?\/\//gi,
      /importScripts\(\s*["'`]\s*(?:https?:)?\/\//gi,
      /new\s+(?:Shared)?Worker\(\s*["'`]\s*(?:https?:)?\/\//gi,
    ];
    for (const text of texts) {
      for (const loader of loaders) expect(text.match(loader) ?? [], String(loader)).toEqual([]);
      for (const host of ["fonts.googleapis", "fonts.gstatic", "unpkg.com", "cdn.jsdelivr", "cdnjs.", "//cdn.", "embeddable-sandbox.cdn.apollographql", "apollo-server-landing-page"]) {
        expect(text.includes(host), host).toBe(false);
      }
    }
  });

  it("serves every asset in brotli, in gzip or as is, as asked, cacheable for good", async () => {
    for (const url of urls) {
      const [plain, brotli, gzipped] = await Promise.all([
        rawGet(server.url + url),
        rawGet(server.url + url, { "accept-encoding": "gzip, deflate, br, zstd" }),
        rawGet(server.url + url, { "accept-encoding": "gzip;q=1, br;q=0" }),
      ]);
      for (const answer of [plain, brotli, gzipped]) {
        expect(answer.status, url).toBe(200);
        expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        expect(answer.headers.vary).toBe("accept-encoding");
        expect(answer.headers["content-type"]).toMatch(/^text\/(javascript|css); charset=utf-8$/);
        expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      }
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(brotli.headers["content-encoding"]).toBe("br");
      expect(gzipped.headers["content-encoding"]).toBe("gzip");
      expect(Number(brotli.headers["content-length"])).toBe(brotli.body.length);
      expect(brotliDecompressSync(brotli.body).equals(plain.body), url).toBe(true);
      expect(gunzipSync(gzipped.body).equals(plain.body), url).toBe(true);
    }
  });

  it("sends the 5 MB GraphiQL bundle in under a third of its size", async () => {
    const bundle = urls.find((url) => url.endsWith("/graphiql.js"))!;
    const [plain, brotli] = await Promise.all([rawGet(server.url + bundle), rawGet(server.url + bundle, { "accept-encoding": "br" })]);
    expect(brotli.body.length).toBeLessThan(plain.body.length / 3);
  });

  it("without text/html, GET /graphql still needs a key", async () => {
    const response = await call(server, "GET", "/graphql?query=%7Bviewer%7Bkind%7D%7D", { headers: { accept: "application/json" } });
    expect(response.status).toBe(401);
    expect(response.body.errors[0].extensions.code).toBe("unauthorized");
  });

  describe("the example tabs, run as written", () => {
    const [start, booking, following] = playgroundTabs(new Date()) as [PlaygroundTab, PlaygroundTab, PlaygroundTab];
    const clients: Client[] = [];
    afterAll(() => Promise.all(clients.map((client) => client.dispose())));

    /** Runs a tab's named operation with the tab's variables, overridden by `variables`; returns its data. */
    async function run(tab: PlaygroundTab, operationName: string, variables: Record<string, unknown> = {}): Promise<any> {
      const response = await call(server, "POST", "/graphql", {
        key: tenant.key,
        body: { query: tab.query, operationName, variables: { ...(tab.variables ? JSON.parse(tab.variables) : {}), ...variables } },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
      return response.body.data;
    }

    it("from a search to a ticketed order, with both subscriptions following it", async () => {
      expect((await run(start, "Viewer")).viewer).toMatchObject({ kind: "TENANT", tenant: { id: tenant.tenantId } });
      expect((await run(start, "Airports")).locations.length).toBeGreaterThan(0);

      const client = wsClient(server.wsUrl, { authorization: `Bearer ${tenant.key}` });
      clients.push(client);
      const events = subscribe(client, operation(following, "OrderEvents"));
      await waitForOpenSubscriptions(server, 1);

      const { searchFlights } = await run(booking, "SearchFlights");
      expect(searchFlights.offers.length).toBeGreaterThan(0);
      const { createOrder } = await run(booking, "CreateOrder", { offerId: searchFlights.offers[0].id });
      expect(createOrder.status).toBe("PENDING");
      const orderId = createOrder.id as string;

      const statuses = subscribe(client, operation(following, "OrderStatus"), { orderId });
      await statuses.waitForResults(1);
      expect((await run(booking, "TicketOrder", { orderId })).ticketOrder.status).toBe("PROCESSING");
      await eventually(
        async () => (statuses.results.some((result) => result.data?.orderStatusChanged.status === "TICKETED") ? true : undefined),
        () => `order statuses seen: ${JSON.stringify(statuses.results.map((result) => result.data ?? result.errors))}`,
      );
      const types = await eventually(
        async () => {
          const seen = events.results.map((result) => result.data?.orderEvents.type);
          return seen.includes("order.ticketed") ? seen : undefined;
        },
        () => `order events seen: ${JSON.stringify(events.results)}`,
      );
      expect(types).toEqual(["order.created", "order.ticketed"]);

      const { order } = await run(booking, "Order", { orderId });
      expect(order.status).toBe("TICKETED");
      expect(order.documents).toHaveLength(1);
      const { wallet } = await run(booking, "Wallet");
      expect(wallet.transactions.nodes[0]).toMatchObject({ type: "TICKETING_DEBIT", orderId });
    });
  });
});
