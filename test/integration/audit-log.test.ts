import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type ApiResponse, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The audit log (docs/running-the-platform.md#audit-log), through the HTTP API and GraphQL:
 * - every configuration change writes one event — action, actor, tenant, target, changes,
 *   request id, IP and user agent — in the change's own transaction: a refused change writes
 *   none, and a change whose event cannot be written does not happen;
 * - no secret, key or token value is ever in it;
 * - the owner lists and filters all of it; a tenant key (tenant: read) its own tenant's, without
 *   the owner's pricing rules, private metadata, address or browser;
 * - it is kept AUDIT_RETENTION_DAYS.
 */

const SECRETS_KEY = randomBytes(32).toString("base64");
const USER_AGENT = "audit-test/1.0 (+https://example.test)";

describe("audit log", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { SUPPLIER_SECRETS_KEY: SECRETS_KEY, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
  });
  afterAll(() => server.close());

  const as = (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => call(server, method, path, { key, body, headers: { "user-agent": USER_AGENT, ...headers } });
  const asOwner = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => as(server.ownerKey, method, path, body, headers);
  /** The tenant's events, newest first, as the owner reads them. */
  const eventsOf = async (tenantId: string, query = ""): Promise<any[]> => {
    const response = await asOwner("GET", `/v1/audit_events?tenant_id=${tenantId}&limit=100${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data.items;
  };
  const auditRows = () => server.db.prisma.auditEvent.count();
  /** The one event `change` wrote, checked against the request that made it. */
  async function onlyEventOf(change: () => Promise<ApiResponse>, status: number): Promise<any> {
    const before = await auditRows();
    const response = await change();
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(await auditRows()).toBe(before + 1);
    const requestId = response.headers.get("x-request-id");
    const [event] = (await asOwner("GET", "/v1/audit_events?limit=1")).body.data.items;
    expect(event).toMatchObject({ request_id: requestId, ip: "127.0.0.1", user_agent: USER_AGENT, id: expect.stringMatching(/^aud_/) });
    return event;
  }

  describe("every configuration change writes one event", () => {
    let tenant: TenantFixture;
    const ownerActor = { type: "owner", key_id: expect.any(String), label: expect.any(String) };

    it("records tenants and keys made, changed, suspended, reactivated and revoked by the owner", async () => {
      const created = await onlyEventOf(() => asOwner("POST", "/v1/tenants", { name: "Audited Agency", email: "ops@audited.test", metadata: { plan: "gold" } }), 201);
      const tenantId = created.tenant_id;
      expect(created).toMatchObject({
        action: "tenant.created",
        actor: ownerActor,
        target: { type: "tenant", id: tenantId },
        changes: { name: { from: null, to: "Audited Agency" }, email: { from: null, to: "ops@audited.test" }, environment: { from: null, to: "sandbox" }, status: { from: null, to: "active" }, metadata: { from: null, to: { plan: "gold" } } },
      });
      const renamed = await onlyEventOf(() => asOwner("PATCH", `/v1/tenants/${tenantId}`, { name: "Audited Agency Ltd" }), 200);
      expect(renamed).toMatchObject({ action: "tenant.updated", tenant_id: tenantId, changes: { name: { from: "Audited Agency", to: "Audited Agency Ltd" } } });
      expect(Object.keys(renamed.changes)).toEqual(["name"]);
      expect(await onlyEventOf(() => asOwner("PATCH", `/v1/tenants/${tenantId}`, { status: "suspended" }), 200)).toMatchObject({ action: "tenant.suspended", changes: { status: { from: "active", to: "suspended" } } });
      expect(await onlyEventOf(() => asOwner("PATCH", `/v1/tenants/${tenantId}`, { status: "active" }), 200)).toMatchObject({ action: "tenant.reactivated", changes: { status: { from: "suspended", to: "active" } } });

      const keyEvent = await onlyEventOf(() => asOwner("POST", `/v1/tenants/${tenantId}/keys`, { label: "ops", permissions: { tenant: "read" } }), 201);
      expect(keyEvent).toMatchObject({ action: "api_key.created", tenant_id: tenantId, target: { type: "api_key" } });
      expect(keyEvent.changes).toEqual({ label: { from: null, to: "ops" }, permissions: { from: null, to: { search: "none", orders: "none", wallet: "none", webhooks: "none", tenant: "read" } } });
      const revoked = await onlyEventOf(() => asOwner("DELETE", `/v1/tenants/${tenantId}/keys/${keyEvent.target.id}`), 200);
      expect(revoked).toMatchObject({ action: "api_key.revoked", target: keyEvent.target, changes: { revoked_at: { from: null, to: expect.any(String) } } });
      // Revoking again changes nothing, and records nothing.
      const rows = await auditRows();
      expect((await asOwner("DELETE", `/v1/tenants/${tenantId}/keys/${keyEvent.target.id}`)).status).toBe(200);
      expect(await auditRows()).toBe(rows);
    });

    it("records a tenant key's configuration, webhook endpoint, supplier connection and sandbox clock changes as that key's", async () => {
      tenant = await createTenant(server);
      const actor = { type: "api_key", key_id: tenant.keyId, label: "test" };
      const config = await onlyEventOf(() => as(tenant.key, "PATCH", "/v1/tenant", { timezone: "Europe/Paris", webhook_url: "http://127.0.0.1:9/hooks" }), 200);
      expect(config).toMatchObject({ action: "tenant_config.updated", actor, tenant_id: tenant.tenantId, target: { type: "tenant", id: tenant.tenantId } });
      expect(config.changes).toEqual({ timezone: { from: "UTC", to: "Europe/Paris" }, webhook_url: { from: null, to: "http://127.0.0.1:9/hooks" } });

      const endpoint = await onlyEventOf(() => as(tenant.key, "POST", "/v1/webhook_endpoints", { url: "http://127.0.0.1:9/other", enabled_events: ["order.ticketed"] }), 201);
      expect(endpoint).toMatchObject({ action: "webhook_endpoint.created", actor, target: { type: "webhook_endpoint" }, changes: { url: { to: "http://127.0.0.1:9/other" }, enabled_events: { to: ["order.ticketed"] }, enabled: { to: true } } });
      const endpointId = endpoint.target.id;
      expect(await onlyEventOf(() => as(tenant.key, "PATCH", `/v1/webhook_endpoints/${endpointId}`, { enabled: false }), 200)).toMatchObject({ action: "webhook_endpoint.updated", changes: { enabled: { from: true, to: false } } });
      expect(await onlyEventOf(() => as(tenant.key, "POST", `/v1/webhook_endpoints/${endpointId}/secret/rotate`), 200)).toMatchObject({ action: "webhook_endpoint.secret_rotated", target: { id: endpointId } });
      expect(await onlyEventOf(() => as(tenant.key, "DELETE", `/v1/webhook_endpoints/${endpointId}`), 200)).toMatchObject({ action: "webhook_endpoint.deleted", changes: { url: { from: "http://127.0.0.1:9/other", to: null } } });

      // The default endpoint is the tenant's webhook_url: its changes are the endpoint's.
      const defaultId = `whe_${tenant.tenantId.slice(4)}`;
      expect(await onlyEventOf(() => as(tenant.key, "POST", "/v1/tenant/webhook_secret/rotate"), 200)).toMatchObject({ action: "webhook_endpoint.secret_rotated", target: { type: "webhook_endpoint", id: defaultId } });
      expect(await onlyEventOf(() => as(tenant.key, "PATCH", `/v1/webhook_endpoints/${defaultId}`, { enabled: true }), 200)).toMatchObject({ action: "webhook_endpoint.updated", target: { id: defaultId }, changes: { webhook_enabled: { from: false, to: true } } });

      const token = `duffel_test_${randomBytes(24).toString("base64url")}`;
      const connected = await onlyEventOf(() => as(tenant.key, "POST", "/v1/supplier_connections", { supplier: "duffel", access_token: token }), 201);
      expect(connected).toMatchObject({ action: "supplier_connection.created", changes: { supplier: { to: "duffel" }, mode: { to: "test" } } });
      expect(await onlyEventOf(() => as(tenant.key, "DELETE", `/v1/supplier_connections/${connected.target.id}`), 200)).toMatchObject({ action: "supplier_connection.deleted", changes: { supplier: { from: "duffel", to: null } } });

      expect(await onlyEventOf(() => as(tenant.key, "POST", "/v1/sandbox/clock/advance", { seconds: 3600 }), 200)).toMatchObject({ action: "sandbox_clock.advanced", changes: { offset_seconds: { from: 0, to: 3600 } } });
      expect(await onlyEventOf(() => as(tenant.key, "POST", "/v1/sandbox/clock/reset"), 200)).toMatchObject({ action: "sandbox_clock.reset", changes: { offset_seconds: { from: 3600, to: 0 } } });
    });

    it("records owner credits and pricing rules, the owner acting for a tenant as the owner", async () => {
      const target = await createTenant(server);
      const credit = await onlyEventOf(() => asOwner("POST", `/v1/tenants/${target.tenantId}/wallet/credits`, { amount: "250.00", currency: "USD", reference: "wire 9" }), 201);
      expect(credit).toMatchObject({ action: "wallet.credited", actor: ownerActor, tenant_id: target.tenantId, target: { type: "wallet_transaction" }, changes: { amount: { to: "250.00" }, reference: { to: "wire 9" } } });
      const rule = await onlyEventOf(() => asOwner("POST", "/v1/pricing_rules", { name: "Platform", fee: { percent: "1" }, match: { origin: "GB", environment: "live" } }), 201);
      expect(rule).toMatchObject({ action: "pricing_rule.created", tenant_id: null, target: { type: "pricing_rule" }, changes: { fee: { from: null, to: { percent: "1", fixed_amount: null, fixed_currency: null, per: "order" } } } });
      expect(await onlyEventOf(() => asOwner("PATCH", `/v1/pricing_rules/${rule.target.id}`, { priority: 4 }), 200)).toMatchObject({ action: "pricing_rule.updated", changes: { priority: { from: 0, to: 4 } } });
      expect(await onlyEventOf(() => asOwner("DELETE", `/v1/pricing_rules/${rule.target.id}`), 200)).toMatchObject({ action: "pricing_rule.deleted", changes: { name: { from: "Platform", to: null } } });
      const acting = await onlyEventOf(() => asOwner("PATCH", "/v1/tenant", { timezone: "Asia/Tokyo" }, { "service-tenant": target.tenantId }), 200);
      expect(acting).toMatchObject({ action: "tenant_config.updated", actor: ownerActor, tenant_id: target.tenantId });
    });

    it("records the deletion of a tenant, and GraphQL changes as REST ones", async () => {
      const doomed = await createTenant(server);
      const viaGraphql = await onlyEventOf(() => graphql(server, `mutation ($id: ID!) { updateTenantStatus(id: $id, status: SUSPENDED) { id } }`, { id: doomed.tenantId }, { key: server.ownerKey, headers: { "user-agent": USER_AGENT } }), 200);
      expect(viaGraphql).toMatchObject({ action: "tenant.suspended", tenant_id: doomed.tenantId });
      // Its earlier events go with its data; the deletion's own stays.
      const deleted = await asOwner("DELETE", `/v1/tenants/${doomed.tenantId}`);
      expect((await eventsOf(doomed.tenantId)).map((event) => [event.action, event.request_id, event.changes])).toEqual([
        ["tenant.deleted", deleted.headers.get("x-request-id"), { status: { from: "suspended", to: "deleted" } }],
      ]);
    });
  });

  describe("no change without its event, no event without its change", () => {
    it("writes no event for a refused change", async () => {
      const tenant = await createTenant(server);
      const before = await auditRows();
      expectError(await as(tenant.key, "PATCH", "/v1/tenant", { timezone: "Mars/Olympus" }), 422, "invalid_field_value");
      expectError(await asOwner("POST", `/v1/tenants/${tenant.tenantId}/wallet/credits`, { amount: "1.00", currency: "EUR" }), 422, "currency_mismatch");
      expectError(await asOwner("POST", "/v1/pricing_rules", { name: "Bad", fee: { percent: "120" } }), 422, "invalid_field_value");
      expectError(await as(tenant.key, "PATCH", "/v1/webhook_endpoints/whe_doesnotexist", { enabled: false }), 404, "not_found");
      expectError(await as(tenant.key, "POST", "/v1/sandbox/clock/advance", { seconds: 0 }), 422, "invalid_field_value");
      expect(await auditRows()).toBe(before);
    });

    it("makes no change whose event cannot be written: the change rolls back with it", async () => {
      const tenant = await createTenant(server);
      const balance = async () => (await as(tenant.key, "GET", "/v1/wallet")).body.data.balance;
      const before = { balance: await balance(), events: await auditRows(), rules: await server.db.prisma.pricingRule.count() };
      await refuseAuditWrites(server);
      try {
        expect((await asOwner("POST", `/v1/tenants/${tenant.tenantId}/wallet/credits`, { amount: "10.00", currency: "USD" })).status).toBe(500);
        expect((await asOwner("POST", "/v1/pricing_rules", { name: "Never", fee: { percent: "1" } })).status).toBe(500);
        expect((await as(tenant.key, "PATCH", "/v1/tenant", { timezone: "Europe/Rome" })).status).toBe(500);
        expect((await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { name: "Renamed" })).status).toBe(500);
      } finally {
        await allowAuditWrites(server);
      }
      expect(await balance()).toBe(before.balance);
      expect(await server.db.prisma.pricingRule.count()).toBe(before.rules);
      expect((await as(tenant.key, "GET", "/v1/tenant")).body.data.timezone).toBe("UTC");
      expect((await asOwner("GET", `/v1/tenants/${tenant.tenantId}`)).body.data.name).toBe("Test Agency");
      expect(await auditRows()).toBe(before.events);
    });
  });

  it("never holds a secret, key or token value", async () => {
    const tenant = await createTenant(server);
    const secrets: string[] = [];
    const issued = await asOwner("POST", `/v1/tenants/${tenant.tenantId}/keys`, { label: "secretive" });
    secrets.push(issued.body.data.apiKey);
    const configured = await as(tenant.key, "PATCH", "/v1/tenant", { webhook_url: "https://hooks.example.test/in" });
    expect(configured.status, JSON.stringify(configured.body)).toBe(200);
    secrets.push(configured.body.data.webhook_secret);
    secrets.push((await as(tenant.key, "POST", "/v1/tenant/webhook_secret/rotate")).body.data.webhook_secret);
    const endpoint = await as(tenant.key, "POST", "/v1/webhook_endpoints", { url: "https://hooks.example.test/two", enabled_events: ["*"] });
    secrets.push(endpoint.body.data.secret);
    secrets.push((await as(tenant.key, "POST", `/v1/webhook_endpoints/${endpoint.body.data.id}/secret/rotate`)).body.data.secret);
    const token = `duffel_test_${randomBytes(24).toString("base64url")}`;
    expect((await as(tenant.key, "POST", "/v1/supplier_connections", { supplier: "duffel", access_token: token })).status).toBe(201);
    secrets.push(token, tenant.key, server.ownerKey);
    expect(secrets.every((secret) => typeof secret === "string" && secret.length > 6)).toBe(true);

    const stored = JSON.stringify(await server.db.prisma.auditEvent.findMany());
    for (const secret of secrets) expect(stored.includes(secret), `a secret (${secret.slice(0, 8)}…) in the audit log`).toBe(false);
    const listed = JSON.stringify(await eventsOf(tenant.tenantId));
    for (const secret of secrets) expect(listed.includes(secret)).toBe(false);
    expect(listed).toContain("https://hooks.example.test/in");
  });

  describe("reading the log", () => {
    let first: TenantFixture;
    let second: TenantFixture;
    let readOnly: string;
    beforeAll(async () => {
      first = await createTenant(server);
      second = await createTenant(server);
      readOnly = (await asOwner("POST", `/v1/tenants/${first.tenantId}/keys`, { label: "reader", permissions: { tenant: "read" } })).body.data.apiKey;
      await as(first.key, "PATCH", "/v1/tenant", { timezone: "Europe/Berlin" });
      await asOwner("PATCH", `/v1/tenants/${first.tenantId}`, { metadata: { margin: "secret plan" } });
      await asOwner("POST", "/v1/pricing_rules", { tenant_id: first.tenantId, name: "First's fee", fee: { percent: "2" } });
      await as(second.key, "PATCH", "/v1/tenant", { timezone: "Europe/Madrid" });
    });

    it("lists newest first and filters by tenant, action, actor key and time", async () => {
      const all = await eventsOf(first.tenantId);
      expect(all.map((event) => event.action)).toEqual(["pricing_rule.created", "tenant.updated", "tenant_config.updated", "api_key.created", "api_key.created", "tenant.created"]);
      expect(all.every((event) => event.tenant_id === first.tenantId)).toBe(true);
      expect((await eventsOf(first.tenantId, "&action=tenant_config.updated")).map((event) => event.changes)).toEqual([{ timezone: { from: "UTC", to: "Europe/Berlin" } }]);
      expect((await eventsOf(first.tenantId, `&actor_key_id=${first.keyId}`)).map((event) => event.action)).toEqual(["tenant_config.updated"]);
      const middle = all[2].created_at;
      const after = await eventsOf(first.tenantId, `&created_after=${encodeURIComponent(middle)}`);
      expect(after.every((event) => event.created_at > middle)).toBe(true);
      const before = await eventsOf(first.tenantId, `&created_before=${encodeURIComponent(middle)}`);
      expect(before.every((event) => event.created_at < middle)).toBe(true);
      const everyone = await asOwner("GET", "/v1/audit_events?limit=2");
      expect(everyone.body.data.pagination).toMatchObject({ limit: 2, hasMore: true });
      const next = await asOwner("GET", `/v1/audit_events?limit=2&cursor=${encodeURIComponent(everyone.body.data.pagination.nextCursor)}`);
      expect(next.body.data.items.map((event: any) => event.id)).not.toContain(everyone.body.data.items[0].id);
      expect((await asOwner("GET", `/v1/audit_events/${all[0].id}`)).body.data).toEqual(all[0]);
      for (const query of ["action=tenant.exploded", "created_after=yesterday", "created_before=2027-13-01T00:00:00Z"]) {
        expectError(await asOwner("GET", `/v1/audit_events?${query}`), 400, "validation_failed");
      }
    });

    it("shows a tenant key (tenant: read) its own tenant's events only, without the owner's pricing, metadata, address or browser", async () => {
      const own = await as(readOnly, "GET", "/v1/audit_events?limit=100");
      expect(own.status).toBe(200);
      const events = own.body.data.items as any[];
      expect(events.every((event) => event.tenant_id === first.tenantId)).toBe(true);
      expect(events.map((event) => event.action)).not.toContain("pricing_rule.created");
      const ownerUpdate = events.find((event) => event.action === "tenant.updated");
      expect(ownerUpdate).toMatchObject({ actor: { type: "owner" }, ip: null, user_agent: null, changes: {} });
      expect(JSON.stringify(events)).not.toContain("secret plan");
      const mine = events.find((event) => event.action === "tenant_config.updated");
      expect(mine).toMatchObject({ ip: "127.0.0.1", user_agent: USER_AGENT });
      expect((await as(readOnly, "GET", `/v1/audit_events/${mine.id}`)).body.data).toEqual(mine);

      const secondsEvent = (await eventsOf(second.tenantId))[0];
      expectError(await as(readOnly, "GET", `/v1/audit_events/${secondsEvent.id}`), 404, "not_found");
      // Naming another tenant narrows the key's own view to nothing.
      expect((await as(readOnly, "GET", `/v1/audit_events?tenant_id=${second.tenantId}`)).body.data).toMatchObject({ items: [], pagination: { total: 0 } });
      const rule = (await eventsOf(first.tenantId, "&action=pricing_rule.created"))[0];
      expectError(await as(readOnly, "GET", `/v1/audit_events/${rule.id}`), 404, "not_found");
      const noTenantRead = (await asOwner("POST", `/v1/tenants/${first.tenantId}/keys`, { label: "orders only", permissions: { orders: "write" } })).body.data.apiKey;
      expectError(await as(noTenantRead, "GET", "/v1/audit_events"), 403, "insufficient_permissions");
      // The owner acting for the tenant sees that tenant's, all of it.
      const acting = await asOwner("GET", "/v1/audit_events?limit=100", undefined, { "service-tenant": first.tenantId });
      expect(acting.body.data.items.map((event: any) => event.action)).toContain("pricing_rule.created");
    });

    it("answers the same over GraphQL", async () => {
      const query = `query ($action: String) { auditEvents(first: 10, action: $action) { totalCount nodes { id action tenantId actor { type keyId label } target { type id } changes requestId ip userAgent } } }`;
      const tenantView = await graphql(server, query, { action: "tenant_config.updated" }, { key: readOnly });
      expect(tenantView.body.errors).toBeUndefined();
      expect(tenantView.body.data!.auditEvents.nodes).toEqual([
        expect.objectContaining({ action: "tenant_config.updated", tenantId: first.tenantId, actor: { type: "API_KEY", keyId: first.keyId, label: "test" }, changes: { timezone: { from: "UTC", to: "Europe/Berlin" } } }),
      ]);
      const ownerView = await graphql(server, `query ($tenantId: ID) { auditEvents(tenantId: $tenantId, first: 100) { totalCount } }`, { tenantId: first.tenantId }, { key: server.ownerKey });
      expect(ownerView.body.data!.auditEvents.totalCount).toBe((await eventsOf(first.tenantId)).length);
      const one = tenantView.body.data!.auditEvents.nodes[0];
      expect((await graphql(server, `query ($id: ID!) { auditEvent(id: $id) { id } }`, { id: one.id }, { key: second.key })).body.data!.auditEvent).toBeNull();
      expectGraphQLError(await graphql(server, `{ auditEvents(action: "nope") { totalCount } }`, {}, { key: server.ownerKey }), "validation_failed", { field: "action" });
    });
  });
});

describe("audit retention", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { AUDIT_RETENTION_DAYS: "1", RETENTION_SWEEP_SECONDS: "0.2" } });
  });
  afterAll(() => server.close());

  it("removes events older than AUDIT_RETENTION_DAYS and keeps the rest", async () => {
    const old = await createTenant(server);
    const fresh = await createTenant(server);
    await server.db.prisma.auditEvent.updateMany({ where: { tenantId: old.tenantId }, data: { createdAt: new Date(Date.now() - 2 * 86_400_000) } });
    await eventually(
      async () => ((await server.db.prisma.auditEvent.count({ where: { tenantId: old.tenantId } })) === 0 ? true : undefined),
      () => "the old events are still there",
    );
    expect(await server.db.prisma.auditEvent.count({ where: { tenantId: fresh.tenantId } })).toBe(2);
  });
});

/** Makes every insert into the audit log fail (a trigger), as a full disk or a lost table would. */
async function refuseAuditWrites(server: TestServer): Promise<void> {
  if (server.provider === "postgresql") {
    await server.db.prisma.$executeRawUnsafe(`CREATE FUNCTION refuse_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit refused'; END; $$ LANGUAGE plpgsql`);
    await server.db.prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_audit BEFORE INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION refuse_audit()`);
  } else {
    await server.db.prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_audit BEFORE INSERT ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'audit refused'); END`);
  }
}

async function allowAuditWrites(server: TestServer): Promise<void> {
  await server.db.prisma.$executeRawUnsafe(server.provider === "postgresql" ? `DROP TRIGGER refuse_audit ON "AuditEvent"` : `DROP TRIGGER refuse_audit`);
  if (server.provider === "postgresql") await server.db.prisma.$executeRawUnsafe(`DROP FUNCTION refuse_audit()`);
}
