import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFilePath } from "../../src/db/database";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { bookOffer, passengersOf, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** Owner-managed tenants (docs/rest-api.md#tenants-and-keys): creation, reads, status, keys, usage, deletion. */
describe("tenant management (owner)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
  });
  afterAll(() => server.close());

  const asOwner = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call(server, method, path, { key: server.ownerKey, body, headers });
  const issueKey = (tenantId: string, label = "extra") => asOwner("POST", `/v1/tenants/${tenantId}/keys`, { label });
  const readConfig = (key: string) => call(server, "GET", "/v1/tenant", { key });
  const usageOf = async (tenantId: string) => {
    const response = await asOwner("GET", `/v1/tenants/${tenantId}/usage`);
    expect(response.status).toBe(200);
    return response.body.data;
  };

  describe("POST /v1/tenants", () => {
    it("creates an active sandbox tenant and returns the 2.1 object", async () => {
      const response = await asOwner("POST", "/v1/tenants", { name: "Blue Sky Travel", email: "ops@bluesky.test", metadata: { crm: "42" } });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
      const tenant = response.body.data;
      expect(tenant).toMatchObject({
        name: "Blue Sky Travel",
        email: "ops@bluesky.test",
        status: "active",
        environment: "sandbox",
        metadata: { crm: "42" },
      });
      expect(tenant.tenantId).toMatch(/^ten_[0-9a-z]+$/);
      expect(new Date(tenant.createdAt).toISOString()).toBe(tenant.createdAt);
    });

    it("creates a live tenant when asked", async () => {
      const response = await asOwner("POST", "/v1/tenants", { name: "Live Co", email: "live@co.test", environment: "live" });
      expect(response.status).toBe(201);
      expect(response.body.data.environment).toBe("live");
    });

    it("accepts exactly 20 metadata pairs", async () => {
      const response = await asOwner("POST", "/v1/tenants", { name: "Meta", email: "m@x.test", metadata: pairs(20) });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body.data.metadata)).toHaveLength(20);
    });

    it.each([
      ["a missing name", { email: "a@b.test" }, "name"],
      ["a blank name", { name: "   ", email: "a@b.test" }, "name"],
      ["a numeric name", { name: 42, email: "a@b.test" }, "name"],
      ["a missing email", { name: "Acme" }, "email"],
      ["a malformed email", { name: "Acme", email: "not-an-email" }, "email"],
      ["an email of the wrong type", { name: "Acme", email: ["a@b.test"] }, "email"],
      ["metadata with 21 pairs", { name: "Acme", email: "a@b.test", metadata: pairs(21) }, "metadata"],
      ["metadata that is an array", { name: "Acme", email: "a@b.test", metadata: ["x"] }, "metadata"],
      ["an unknown environment", { name: "Acme", email: "a@b.test", environment: "production" }, "environment"],
      ["an unknown field", { name: "Acme", email: "a@b.test", nickname: "A" }, "nickname"],
    ])("refuses %s with 400 validation_failed naming the field", async (_case, body, field) => {
      expectError(await asOwner("POST", "/v1/tenants", body), 400, "validation_failed", field);
    });

    it("refuses a non-string metadata value, naming its key", async () => {
      const response = await asOwner("POST", "/v1/tenants", { name: "Acme", email: "a@b.test", metadata: { tier: 3 } });
      expectError(response, 400, "validation_failed", "metadata.tier");
    });

    it("refuses a body that is not a JSON object with 400 invalid_json", async () => {
      expectError(await asOwner("POST", "/v1/tenants", ["Acme"]), 400, "invalid_json");
    });

    it("refuses malformed JSON with 400 invalid_json", async () => {
      const response = await call(server, "POST", "/v1/tenants", { key: server.ownerKey, rawBody: '{"name": "Acme",' });
      expectError(response, 400, "invalid_json");
    });

    it("gives two tenants of the same name distinct slugs", async () => {
      const first = await asOwner("POST", "/v1/tenants", { name: "Twin Travel", email: "a@twin.test" });
      const second = await asOwner("POST", "/v1/tenants", { name: "Twin Travel", email: "b@twin.test" });
      expect(first.body.data.slug).toBe("twin-travel");
      expect(second.body.data.slug).toMatch(/^twin-travel-/);
    });
  });

  describe("GET /v1/tenants/:id", () => {
    it("returns the tenant as created", async () => {
      const created = await asOwner("POST", "/v1/tenants", { name: "Reader", email: "r@x.test", metadata: { a: "b" } });
      const read = await asOwner("GET", `/v1/tenants/${created.body.data.tenantId}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(created.body.data);
    });

    it("answers 404 tenant_not_found for an id that never existed", async () => {
      expectError(await asOwner("GET", "/v1/tenants/ten_doesnotexist"), 404, "tenant_not_found");
    });
  });

  describe("PATCH /v1/tenants/:id", () => {
    it("suspends and reactivates a tenant", async () => {
      const tenant = await createTenant(server);
      const suspended = await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { status: "suspended" });
      expect(suspended.status).toBe(200);
      expect(suspended.body.data.status).toBe("suspended");
      const active = await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { status: "active" });
      expect(active.status).toBe(200);
      expect(active.body.data.status).toBe("active");
      expect((await asOwner("GET", `/v1/tenants/${tenant.tenantId}`)).body.data.status).toBe("active");
    });

    it("renames and re-addresses a tenant", async () => {
      const tenant = await createTenant(server);
      const response = await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { name: "Renamed", email: "new@x.test", metadata: { k: "v" } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ name: "Renamed", email: "new@x.test", metadata: { k: "v" }, status: "active" });
    });

    it.each([
      ["status deleted (deletion has its own operation)", { status: "deleted" }, "status"],
      ["an unknown status", { status: "paused" }, "status"],
      ["a status of the wrong type", { status: true }, "status"],
      ["an unknown field", { plan: "gold" }, "plan"],
    ])("refuses %s with 400 validation_failed", async (_case, body, field) => {
      const tenant = await createTenant(server);
      expectError(await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, body), 400, "validation_failed", field);
    });

    it("refuses an empty patch with 400 validation_failed", async () => {
      const tenant = await createTenant(server);
      expectError(await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, {}), 400, "validation_failed");
    });

    it("answers 404 tenant_not_found for an unknown tenant", async () => {
      expectError(await asOwner("PATCH", "/v1/tenants/ten_doesnotexist", { status: "suspended" }), 404, "tenant_not_found");
    });
  });

  describe("API keys", () => {
    it("issues sk_test_ keys to sandbox tenants and sk_live_ keys to live ones", async () => {
      const sandbox = await createTenant(server);
      const live = await createTenant(server, { environment: "live" });
      expect(sandbox.key).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
      expect(live.key).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
      expect((await readConfig(live.key)).body.data.environment).toBe("live");
    });

    it("returns keyId, label, apiKey and createdAt at creation", async () => {
      const tenant = await createTenant(server);
      const response = await issueKey(tenant.tenantId, "checkout");
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({ label: "checkout", apiKey: expect.stringMatching(/^sk_test_/) });
      expect(response.body.data.keyId).toMatch(/^key_/);
      expect(new Date(response.body.data.createdAt).toISOString()).toBe(response.body.data.createdAt);
    });

    it("never shows a secret again after creation", async () => {
      const tenant = await createTenant(server);
      const list = await asOwner("GET", `/v1/tenants/${tenant.tenantId}/keys`);
      expect(list.status).toBe(200);
      expect(list.body.data.items).toHaveLength(1);
      const [item] = list.body.data.items;
      expect(item).toMatchObject({ keyId: tenant.keyId, label: "test", revokedAt: null });
      expect(item).not.toHaveProperty("apiKey");
      expect(tenant.key.startsWith(item.prefix)).toBe(true);
      expect(item.prefix.length).toBeLessThan(16);
      expect(JSON.stringify(list.body)).not.toContain(tenant.key);
      expect(JSON.stringify(list.body)).not.toContain(tenant.key.slice(item.prefix.length));
    });

    it.each([
      ["a missing label", {}],
      ["a blank label", { label: " " }],
      ["a label of the wrong type", { label: 7 }],
    ])("refuses %s with 400 validation_failed naming label", async (_case, body) => {
      const tenant = await createTenant(server);
      expectError(await asOwner("POST", `/v1/tenants/${tenant.tenantId}/keys`, body), 400, "validation_failed", "label");
    });

    it("answers 404 tenant_not_found when issuing a key for an unknown tenant", async () => {
      expectError(await issueKey("ten_doesnotexist"), 404, "tenant_not_found");
    });

    it("gives every key of a tenant the same access", async () => {
      const tenant = await createTenant(server);
      const second = (await issueKey(tenant.tenantId)).body.data.apiKey;
      for (const key of [tenant.key, second]) {
        const response = await readConfig(key);
        expect(response.status).toBe(200);
        expect(response.body.data.id).toBe(tenant.tenantId);
      }
    });
  });

  describe("authentication headers", () => {
    let tenant: TenantFixture;
    beforeAll(async () => {
      tenant = await createTenant(server);
    });

    it.each(["authorization", "x-api-key"] as const)("accepts a tenant key in %s", async (keyHeader) => {
      const response = await call(server, "GET", "/v1/tenant", { key: tenant.key, keyHeader });
      expect(response.status).toBe(200);
      expect(response.body.data.id).toBe(tenant.tenantId);
    });

    it.each(["authorization", "x-api-key"] as const)("accepts the owner key in %s", async (keyHeader) => {
      const response = await call(server, "GET", `/v1/tenants/${tenant.tenantId}`, { key: server.ownerKey, keyHeader });
      expect(response.status).toBe(200);
    });

    it.each([
      ["no key at all", {}],
      ["a garbage bearer token", { authorization: "Bearer garbage" }],
      ["a garbage x-api-key", { "x-api-key": "sk_test_0000000000000000000000000000000" }],
      ["a Bearer with no token", { authorization: "Bearer " }],
      ["a Basic credential", { authorization: `Basic ${Buffer.from("user:pass").toString("base64")}` }],
      ["an empty x-api-key", { "x-api-key": "" }],
    ])("answers 401 unauthorized for %s", async (_case, headers) => {
      expectError(await call(server, "GET", "/v1/tenant", { headers }), 401, "unauthorized");
      expectError(await call(server, "GET", "/v1/tenants", { headers }), 401, "unauthorized");
    });

    it("answers 401 unauthorized on an unknown /v1 route before revealing it does not exist", async () => {
      expectError(await call(server, "GET", "/v1/nothing-here"), 401, "unauthorized");
      expectError(await call(server, "GET", "/v1/nothing-here", { key: tenant.key }), 404, "route_not_found");
    });
  });

  describe("GET /v1/tenants/:id/usage", () => {
    it("has the usage shape and counts the tenant's API requests", async () => {
      const tenant = await createTenant(server);
      const before = await usageOf(tenant.tenantId);
      expect(before).toMatchObject({
        tenantId: tenant.tenantId,
        apiRequests: 0,
        searches: expect.any(Number),
        orders: { total: expect.any(Number), byStatus: expect.any(Object) },
        tickets: expect.any(Number),
        walletSpend: { amount: expect.stringMatching(/^\d+\.\d+$/), currency: expect.stringMatching(/^[A-Z]{3}$/) },
        webhookDeliveries: { succeeded: expect.any(Number), failed: expect.any(Number), pending: expect.any(Number) },
      });
      for (let i = 0; i < 3; i++) expect((await readConfig(tenant.key)).status).toBe(200);
      expect((await usageOf(tenant.tenantId)).apiRequests).toBe(3);
      // The owner acting for the tenant counts against it too; owner management calls do not.
      await asOwner("GET", "/v1/tenant", undefined, { "service-tenant": tenant.tenantId });
      expect((await usageOf(tenant.tenantId)).apiRequests).toBe(4);
    });

    it("counts orders by status, e-tickets issued and the wallet spent on tickets", async () => {
      const tenant = await createTenant(server);
      const [ticketed, cancelled, rejected] = await searchForBooking(server, tenant.key, { passengers: ["adult", "adult"] });
      const first = await bookOffer(server, tenant.key, ticketed);
      expect((await ticketOrder(server, tenant.key, first.id)).status).toBe(200);
      const second = await bookOffer(server, tenant.key, cancelled);
      expect((await call(server, "POST", `/v1/air/orders/${second.id}/cancel`, { key: tenant.key })).status).toBe(200);
      const third = await bookOffer(server, tenant.key, rejected, { passengers: passengersOf(rejected, { family_name: "Rejected" }) });
      expect((await ticketOrder(server, tenant.key, third.id)).status).toBe(200);
      await waitForStatus(server, tenant.key, first.id, ["TICKETED"]);
      await waitForStatus(server, tenant.key, third.id, ["FAILED"]);
      const usage = await usageOf(tenant.tenantId);
      expect(usage.orders).toEqual({ total: 3, byStatus: { PENDING: 0, PROCESSING: 0, TICKETED: 1, FAILED: 1, CANCELED: 1, REFUNDED: 0 } });
      expect(usage.tickets).toBe(2);
      // The rejected order's debit was reversed: only the ticketed one is spent.
      expect(usage.walletSpend).toEqual({ amount: ticketed.total_amount, currency: "USD" });
    });

    it("does not count requests refused before authentication", async () => {
      const tenant = await createTenant(server);
      await call(server, "GET", "/v1/tenant", { key: `${tenant.key}x` });
      expect((await usageOf(tenant.tenantId)).apiRequests).toBe(0);
    });

    it("answers 404 tenant_not_found for an unknown tenant", async () => {
      expectError(await asOwner("GET", "/v1/tenants/ten_doesnotexist/usage"), 404, "tenant_not_found");
    });
  });

  describe("DELETE /v1/tenants/:id", () => {
    /** Every table with a tenantId column, discovered from the live schema so new modules are covered. */
    async function tenantOwnedTables(): Promise<string[]> {
      if (server.provider === "postgresql") {
        const rows = await server.db.prisma.$queryRawUnsafe<Array<{ table_name: string }>>(
          `SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'tenantId'`,
        );
        return rows.map((row) => row.table_name).sort();
      }
      const tables = await server.db.prisma.$queryRawUnsafe<Array<{ name: string }>>(`SELECT name FROM sqlite_master WHERE type = 'table'`);
      const owned: string[] = [];
      for (const { name } of tables) {
        const columns = await server.db.prisma.$queryRawUnsafe<Array<{ name: string }>>(`PRAGMA table_info("${name}")`);
        if (columns.some((column) => column.name === "tenantId")) owned.push(name);
      }
      return owned.sort();
    }

    /** Rows per tenant-owned table for one tenant. */
    async function rowCounts(tenantId: string): Promise<Record<string, number>> {
      const placeholder = server.provider === "postgresql" ? "$1" : "?";
      const counts: Record<string, number> = {};
      for (const table of await tenantOwnedTables()) {
        const [row] = await server.db.prisma.$queryRawUnsafe<Array<{ n: bigint | number }>>(
          `SELECT COUNT(*) AS n FROM "${table}" WHERE "tenantId" = ${placeholder}`,
          tenantId,
        );
        counts[table] = Number(row?.n ?? 0);
      }
      return counts;
    }

    const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0);
    const zeroes = (counts: Record<string, number>) => Object.fromEntries(Object.keys(counts).map((table) => [table, 0]));

    /**
     * A tenant with two keys, stored offers, flushed usage counters, its wallet and ledger, a
     * ticketed order (passengers, e-tickets, seats held, idempotency keys) and a pending one, so
     * it owns rows in every kind of table.
     */
    async function busyTenant(): Promise<TenantFixture & { secondKey: string }> {
      const tenant = await createTenant(server);
      const secondKey = (await issueKey(tenant.tenantId)).body.data.apiKey as string;
      const [ticketed, pending] = await searchForBooking(server, tenant.key, { atLeast: 2 });
      await readConfig(secondKey);
      expect((await usageOf(tenant.tenantId)).apiRequests).toBe(2);
      const order = await bookOffer(server, tenant.key, ticketed);
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
      await bookOffer(server, tenant.key, pending);
      return { ...tenant, secondKey };
    }

    it("discovers the tenant-owned tables", async () => {
      expect(await tenantOwnedTables()).toEqual(expect.arrayContaining(["ApiKey", "UsageCounter"]));
    });

    it("removes every row the tenant owned, in every tenant-owned table, and nobody else's", async () => {
      const doomed = await busyTenant();
      const bystander = await busyTenant();
      const before = await rowCounts(doomed.tenantId);
      const bystanderBefore = await rowCounts(bystander.tenantId);
      expect(before.ApiKey).toBe(2);
      for (const table of ["UsageCounter", "OfferRequest", "Order", "OrderPassenger", "OrderDocument", "SeatHold", "Wallet", "LedgerEntry", "IdempotencyRecord", "AuditEvent"]) {
        expect(before[table], table).toBeGreaterThan(0);
      }

      const deleted = await asOwner("DELETE", `/v1/tenants/${doomed.tenantId}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body.data).toMatchObject({ tenantId: doomed.tenantId, status: "deleted", name: null, email: null, metadata: {} });

      // Everything but the audit event of the deletion itself, which the owner keeps (its earlier events went with the tenant's data).
      expect(before.AuditEvent).toBeGreaterThan(1);
      expect(await rowCounts(doomed.tenantId)).toEqual({ ...zeroes(before), AuditEvent: 1 });
      const kept = await asOwner("GET", `/v1/audit_events?tenant_id=${doomed.tenantId}`);
      expect(kept.body.data.items.map((event: any) => [event.action, event.changes])).toEqual([["tenant.deleted", { status: { from: "active", to: "deleted" } }]]);
      expect(await rowCounts(bystander.tenantId)).toEqual(bystanderBefore);
    });

    it("leaves a tombstone with no personal data", async () => {
      const tenant = await busyTenant();
      await asOwner("DELETE", `/v1/tenants/${tenant.tenantId}`);
      const read = await asOwner("GET", `/v1/tenants/${tenant.tenantId}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ tenantId: tenant.tenantId, status: "deleted", name: null, email: null, metadata: {} });
      expect(read.body.data.deletedAt).toEqual(expect.any(String));
      const keys = await asOwner("GET", `/v1/tenants/${tenant.tenantId}/keys`);
      expect(keys.status).toBe(200);
      expect(keys.body.data.items).toEqual([]);
      expect(keys.body.data.pagination.total).toBe(0);
    });

    it("makes every key of the tenant 401 at once, and Service-Tenant naming it 404", async () => {
      const tenant = await busyTenant();
      const bystander = await createTenant(server);
      await asOwner("DELETE", `/v1/tenants/${tenant.tenantId}`);
      for (const key of [tenant.key, tenant.secondKey]) {
        expectError(await readConfig(key), 401, "unauthorized");
      }
      const acting = await asOwner("GET", "/v1/tenant", undefined, { "service-tenant": tenant.tenantId });
      expectError(acting, 404, "tenant_not_found");
      expect(acting.body.errors[0].field).toBe("Service-Tenant");
      expect((await readConfig(bystander.key)).status).toBe(200);
    });

    it("refuses changes to a deleted tenant with 409 tenant_deleted, and deleting again returns the tombstone", async () => {
      const tenant = await createTenant(server);
      await asOwner("DELETE", `/v1/tenants/${tenant.tenantId}`);
      expectError(await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { status: "active" }), 409, "tenant_deleted");
      expectError(await issueKey(tenant.tenantId), 409, "tenant_deleted");
      const again = await asOwner("DELETE", `/v1/tenants/${tenant.tenantId}`);
      expect(again.status).toBe(200);
      expect(again.body.data.status).toBe("deleted");
    });

    it("drops usage still buffered when the tenant was deleted", async () => {
      const tenant = await createTenant(server);
      await readConfig(tenant.key); // counted in memory, not yet flushed
      await asOwner("DELETE", `/v1/tenants/${tenant.tenantId}`);
      expect((await usageOf(tenant.tenantId)).apiRequests).toBe(0); // flushes
      // Nothing but the audit event of the deletion.
      const { AuditEvent: deletionEvent, ...rest } = await rowCounts(tenant.tenantId);
      expect([total(rest), deletionEvent]).toEqual([0, 1]);
    });

    /**
     * A deletion of the tenant held open in a second database session, done as TenantService.delete
     * does it (tombstone first, then the tenant's rows). `commitDuring(work)` starts `work`, lets it
     * run into the open deletion — on PostgreSQL until some session waits on its locks or `work`
     * finishes — then commits and waits for `work`.
     */
    async function deletionInProgress(tenantId: string) {
      const statements = [`UPDATE "Tenant" SET "status" = 'deleted' WHERE "id" = $1`, `DELETE FROM "UsageCounter" WHERE "tenantId" = $1`];
      if (server.provider === "postgresql") {
        const session = new pg.Client({ connectionString: server.db.url });
        await session.connect();
        await session.query("BEGIN");
        for (const sql of statements) await session.query(sql, [tenantId]);
        const someoneWaits = async () => {
          const { rows } = await session.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
          return rows[0].n > 0;
        };
        return {
          async commitDuring(work: () => Promise<unknown>) {
            let settled = false;
            const running = work().finally(() => (settled = true));
            const deadline = Date.now() + 10_000;
            while (!settled && Date.now() < deadline && !(await someoneWaits()));
            await session.query("COMMIT");
            await session.end();
            await running;
          },
        };
      }
      // SQLite has one writer at a time. The commit must happen before this thread yields: the
      // server's synchronous driver would otherwise block the whole process on the write lock.
      const session = new BetterSqlite3(sqliteFilePath(server.db.url));
      session.exec("BEGIN IMMEDIATE");
      for (const sql of statements) session.prepare(sql.replace("$1", "?")).run(tenantId);
      return {
        async commitDuring(work: () => Promise<unknown>) {
          const running = work();
          session.exec("COMMIT");
          session.close();
          await running;
        },
      };
    }

    it("a usage flush racing a deletion does not re-create the tenant's counters", async () => {
      const tenant = await busyTenant(); // counters exist
      await readConfig(tenant.key); // and more are buffered
      const deletion = await deletionInProgress(tenant.tenantId);
      await deletion.commitDuring(() => server.app.services.usageMeter.flush());
      expect(await rowCounts(tenant.tenantId)).toMatchObject({ UsageCounter: 0 });
    });

    it("answers 404 tenant_not_found for an unknown tenant", async () => {
      expectError(await asOwner("DELETE", "/v1/tenants/ten_doesnotexist"), 404, "tenant_not_found");
    });
  });
});

/** `n` metadata pairs: k1 → v1 … */
function pairs(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i + 1}`, `v${i + 1}`]));
}
