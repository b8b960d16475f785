import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { newKey } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Secrets shown once are never stored: an API key's secret and a webhook
 * signing secret appear in their first answer only. An idempotent repeat of the request that
 * made them issues nothing new and replays the same answer with the secret redacted (null), and
 * no row of any table holds the secret (webhook secrets are kept where signing needs them, in the
 * tenant's own columns, and nowhere else).
 */

/** Columns that hold a secret by design: signing needs the webhook secret itself. */
const SECRET_COLUMNS = new Set(["Tenant.webhookSecret", "Tenant.previousWebhookSecret"]);

describe("secrets shown once are never stored", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  async function tableNames(): Promise<string[]> {
    const query =
      server.provider === "postgresql"
        ? `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
        : `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`;
    return (await server.db.prisma.$queryRawUnsafe<Array<{ name: string }>>(query)).map((row) => row.name);
  }

  /** Every table, column and value where one of `secrets` appears, outside SECRET_COLUMNS. */
  async function whereStored(secrets: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const table of await tableNames()) {
      const rows = await server.db.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(`SELECT * FROM "${table}"`);
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          if (SECRET_COLUMNS.has(`${table}.${column}`)) continue;
          const text = typeof value === "string" ? value : JSON.stringify(value, (_key, inner) => (typeof inner === "bigint" ? String(inner) : inner));
          for (const secret of secrets) if (text?.includes(secret)) found.push(`${table}.${column}`);
        }
      }
    }
    return found;
  }

  it("issues an API key once per Idempotency-Key and replays it with the secret redacted", async () => {
    const headers = { "idempotency-key": newKey("key") };
    const first = await call(server, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey, headers, body: { label: "ci" } });
    expect(first.status).toBe(201);
    expect(first.body.data.apiKey).toMatch(/^sk_test_/);

    const replay = await call(server, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey, headers, body: { label: "ci" } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual({ ...first.body, data: { ...first.body.data, apiKey: null } });
    const keys = await call(server, "GET", `/v1/tenants/${tenant.tenantId}/keys?limit=100`, { key: server.ownerKey });
    expect(keys.body.data.items.filter((key: { label: string }) => key.label === "ci")).toHaveLength(1);

    expect(await whereStored([first.body.data.apiKey])).toEqual([]);
  });

  it("rotates the webhook secret once per Idempotency-Key and replays it with the secret redacted", async () => {
    const configured = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: "https://hooks.agency.test/aerogate" } });
    expect(configured.body.data.webhook_secret).toMatch(/^whsec_/);
    const headers = { "idempotency-key": newKey("rotate") };
    const first = await call(server, "POST", "/v1/tenant/webhook_secret/rotate", { key: tenant.key, headers });
    expect(first.status).toBe(200);
    expect(first.body.data.webhook_secret).toMatch(/^whsec_/);

    const replay = await call(server, "POST", "/v1/tenant/webhook_secret/rotate", { key: tenant.key, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual({ ...first.body, data: { ...first.body.data, webhook_secret: null } });
    const tenantRow = await server.db.prisma.tenant.findUniqueOrThrow({ where: { id: tenant.tenantId } });
    expect(tenantRow.webhookSecret).toBe(first.body.data.webhook_secret);

    expect(await whereStored([configured.body.data.webhook_secret, first.body.data.webhook_secret])).toEqual([]);
  });

  it("stores no secret shown by the GraphQL mutations that issue one", async () => {
    const created = await graphql(server, `mutation ($id: ID!) { createTenantApiKey(tenantId: $id, label: "gql") { apiKey } }`, { id: tenant.tenantId }, { key: server.ownerKey });
    const apiKey = created.body.data?.createTenantApiKey.apiKey;
    expect(apiKey).toMatch(/^sk_test_/);
    const rotated = await graphql(server, `mutation { rotateWebhookSecret { webhookSecret } }`, {}, { key: tenant.key });
    const webhookSecret = rotated.body.data?.rotateWebhookSecret.webhookSecret;
    expect(webhookSecret).toMatch(/^whsec_/);

    expect(await whereStored([apiKey, webhookSecret])).toEqual([]);
  });
});
