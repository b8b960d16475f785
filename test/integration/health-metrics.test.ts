import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TenantFixture, call, startServerWithTenant } from "../helpers/client";
import { expectCatalogueError } from "../helpers/error-shape";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { bookOffer, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";

/** The public operational endpoints: liveness, readiness, Prometheus metrics, the OpenAPI document. */
describe("health, readiness, metrics, OpenAPI", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => ({ server, tenant } = await startServerWithTenant({ TICKETING_DELAY_MS: "0" })));
  afterAll(() => server.close());

  it("/healthz answers 200 with no key", async () => {
    const response = await call(server, "GET", "/healthz");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok" });
  });

  it("/readyz answers 200: database ok, no pending migrations", async () => {
    const response = await call(server, "GET", "/readyz");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "ready", database: "ok", pendingMigrations: [] });
  });

  describe("/metrics", () => {
    let text: string;
    beforeAll(async () => {
      const first = await call(server, "GET", "/v1/tenant", { key: tenant.key });
      expect(first.status).toBe(200);
      const second = await call(server, "GET", "/v1/tenant", { key: tenant.key });
      expect(second.status).toBe(200);
      const unknown = await call(server, "GET", `/v1/tenants/ten_missing${Date.now()}`, { key: server.ownerKey });
      expect(unknown.status).toBe(404);
      // One order ticketed and one pending, for the order metrics.
      const [ticketed, pending] = await searchForBooking(server, tenant.key, { atLeast: 2 });
      const order = await bookOffer(server, tenant.key, ticketed);
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
      await bookOffer(server, tenant.key, pending);
      const response = await call<string>(server, "GET", "/metrics");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      text = response.body;
    });

    /** The samples of one metric as label maps with their values. */
    function samples(name: string): Array<{ labels: Record<string, string>; value: number }> {
      const pattern = new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, "gm");
      return [...text.matchAll(pattern)].map((match) => ({
        labels: Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((label) => [label[1]!, label[2]!])),
        value: Number(match[2]),
      }));
    }

    it("is Prometheus text exposition with HELP and TYPE lines", () => {
      expect(text).toMatch(/^# HELP http_requests_total .+$/m);
      expect(text).toMatch(/^# TYPE http_requests_total counter$/m);
      expect(text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
      // Every non-comment line is `name{labels} value`.
      for (const line of text.split("\n").filter((l) => l && !l.startsWith("#"))) {
        expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? [-+0-9.eEInfa]+$/);
      }
    });

    it('counts http_requests_total by route template: route="/v1/tenant", status="200"', () => {
      const tenantReads = samples("http_requests_total").find(
        (s) => s.labels.route === "/v1/tenant" && s.labels.status === "200" && s.labels.method === "GET",
      );
      expect(tenantReads?.value).toBeGreaterThanOrEqual(2);
      // The route template, never the raw URL: the unknown tenant id is not a label value.
      const notFound = samples("http_requests_total").find((s) => s.labels.route === "/v1/tenants/:id" && s.labels.status === "404");
      expect(notFound?.value).toBeGreaterThanOrEqual(1);
      expect(text).not.toContain("ten_missing");
    });

    it("counts orders by status and how late ticketing jobs were claimed", () => {
      const orders = Object.fromEntries(samples("aerogate_orders").map((s) => [s.labels.status, s.value]));
      expect(orders).toEqual({ PENDING: 1, PROCESSING: 0, TICKETED: 1, FAILED: 0, CANCELED: 0, REFUNDED: 0 });
      expect(samples("aerogate_order_job_lag_seconds_count").find((s) => s.labels.kind === "ticket")?.value).toBe(1);
      expect(samples("aerogate_order_jobs_due").map((s) => [s.labels.kind, s.value])).toEqual([
        ["ticket", 0],
        ["refund", 0],
        ["payment_deadline", 0],
        ["emd", 0],
        ["reissue", 0],
        ["confirm_booking", 0],
      ]);
      expect(text).toMatch(/^# TYPE aerogate_order_job_lag_seconds histogram$/m);
      expect(samples("aerogate_order_job_oldest_due_seconds").every((s) => s.value === 0)).toBe(true);
    });

    // Each scrape once ran the cross-tenant counts (orders by status, job and delivery backlogs).
    it("scrapes answer from memory: twenty in a row read the figures from the database once at most, not once each", async () => {
      const { queries } = await server.recordQueries(async () => {
        for (let scrape = 0; scrape < 20; scrape++) expect((await call(server, "GET", "/metrics")).status).toBe(200);
      });
      expect(queries.filter((sql) => /\bCOUNT\(/i.test(sql)).length).toBeLessThanOrEqual(3);
    });

    it("has the heap a major GC left (0 before the first), below the heap's total", () => {
      const value = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)$`, "m"))?.[1]);
      expect(value("aerogate_heap_used_after_major_gc_bytes")).toBeGreaterThanOrEqual(0);
      expect(value("aerogate_heap_used_after_major_gc_bytes")).toBeLessThan(value("nodejs_heap_size_total_bytes"));
    });

    it("has the latency histogram http_request_duration_seconds_bucket", () => {
      const buckets = samples("http_request_duration_seconds_bucket").filter((s) => s.labels.route === "/v1/tenant");
      expect(buckets.length).toBeGreaterThan(1);
      const infinite = buckets.find((s) => s.labels.le === "+Inf");
      expect(infinite?.value).toBeGreaterThanOrEqual(2);
      // Cumulative buckets never decrease.
      const values = buckets.map((s) => s.value);
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(samples("http_request_duration_seconds_count").find((s) => s.labels.route === "/v1/tenant")?.value).toBe(infinite?.value);
    });
  });

  describe("/openapi.json", () => {
    let document: any;
    beforeAll(async () => {
      const response = await call(server, "GET", "/openapi.json");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      document = response.body;
    });

    it("is OpenAPI 3.1", () => {
      expect(document.openapi).toMatch(/^3\.1\.\d+$/);
      expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    });

    it("lists /v1/tenants and /v1/tenant with their operations", () => {
      expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/v1/tenants", "/v1/tenant", "/v1/tenants/{id}", "/v1/tenants/{id}/keys"]));
      expect(Object.keys(document.paths["/v1/tenants"]).sort()).toEqual(["get", "post"]);
      expect(Object.keys(document.paths["/v1/tenant"]).sort()).toEqual(["get", "patch"]);
      expect(document.paths["/v1/tenants"].post.requestBody.content["application/json"].schema).toBeDefined();
      for (const path of Object.keys(document.paths)) expect(path.startsWith("/v1/")).toBe(true);
    });

    it("describes the catalogue's error body", () => {
      const error = document.components.schemas.Error;
      expect(Object.keys(error.properties)).toEqual(
        expect.arrayContaining(["errors", "success", "statusCode", "errorCode", "message", "fault", "retryable", "suggestedAction", "reason", "environment", "apiVersion", "requestId"]),
      );
    });
  });
});

describe("/metrics with METRICS_TOKEN set", () => {
  const token = "metrics-token-for-the-scraper-0123456789";
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => server.close());

  it.each([
    ["no credentials", {}],
    ["a wrong token", { authorization: "Bearer metrics-token-for-the-scraper-9876543210" }],
    ["the token in x-api-key", { "x-api-key": token }],
    ["the owner key", null],
  ])("answers %s with 401 unauthorized, in the catalogue's shape", async (_case, headers) => {
    const response = await call(server, "GET", "/metrics", { headers: headers ?? { authorization: `Bearer ${server.ownerKey}` } });
    expectCatalogueError(response, 401, "unauthorized");
    expect(String(response.body)).not.toContain("http_requests_total");
  });

  it("answers Authorization: Bearer <token> with the metrics", async () => {
    const response = await call<string>(server, "GET", "/metrics", { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.body).toMatch(/^# TYPE http_requests_total counter$/m);
  });
});
