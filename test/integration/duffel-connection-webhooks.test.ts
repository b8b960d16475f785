import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, graphql } from "../helpers/client";
import { deliverDuffelEvent, duffelEvent, ticketedOnChangingRoute } from "../helpers/duffel-events";
import type { DuffelFake } from "../helpers/duffel-fake";
import { closeDuffelSuite, duffelTenant, openDuffelSuite } from "../helpers/duffel-gateway";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { getOrder } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

const PLATFORM_SECRET = randomBytes(24).toString("base64url");
const PUBLIC_URL = "https://aerogate.example";

/**
 * Each Duffel connection's own webhook address and secret (docs/duffel.md#duffels-webhooks): the
 * tenant sets the secret Duffel gave it (REST or GraphQL; stored encrypted, never shown), a
 * delivery to the connection's address is verified with that secret alone and acts only on the
 * connection's tenant's orders, and the platform's address keeps its own secret.
 */
describe("each Duffel connection's own webhook address", { timeout: 120_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof duffelTenant>>;
  let other: Awaited<ReturnType<typeof duffelTenant>>;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite({ DUFFEL_WEBHOOK_SECRET: PLATFORM_SECRET, DUFFEL_CHANGES_POLL_MS: "0", PUBLIC_URL }));
    other = await duffelTenant(server, fake);
  });
  afterAll(() => closeDuffelSuite({ server, fake }));

  const connectionOf = async (key: string) => (await call(server, "GET", "/v1/supplier_connections", { key })).body.data[0];
  const changesOf = async (key: string, orderId: string): Promise<any[]> => (await getOrder(server, key, orderId)).body.data.airline_initiated_changes;

  it("a connection shows its own address and whether its secret is set, never the secret; PATCH and the GraphQL mutation set and remove it; bad input is 422 and changes nothing", async () => {
    const connection = await connectionOf(tenant.key);
    expect(connection).toMatchObject({ webhook_path: `/suppliers/duffel/webhooks/${connection.id}`, webhook_secret_set: false });
    const secret = randomBytes(16).toString("hex");
    const set = await call(server, "PATCH", `/v1/supplier_connections/${connection.id}`, { key: tenant.key, body: { webhook_secret: secret } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ id: connection.id, webhook_secret_set: true });
    expect(JSON.stringify(set.body)).not.toContain(secret);
    expect(JSON.stringify(await server.db.prisma.supplierConnection.findUnique({ where: { id: connection.id } }))).not.toContain(secret);

    for (const body of [{ webhook_secret: "" }, { webhook_secret: 7 }, { webhook_secret: secret, extra: true }, {}]) {
      expectError(await call(server, "PATCH", `/v1/supplier_connections/${connection.id}`, { key: tenant.key, body }), 422, "invalid_field_value");
    }
    expectError(await call(server, "PATCH", `/v1/supplier_connections/${connection.id}`, { key: other.key, body: { webhook_secret: "theirs" } }), 404, "not_found");
    expect((await connectionOf(tenant.key)).webhook_secret_set).toBe(true);

    const mutation = "mutation ($id: ID!, $secret: String) { setSupplierConnectionWebhookSecret(id: $id, secret: $secret) { id webhookPath webhookSecretSet } }";
    const removed = await graphql(server, mutation, { id: connection.id, secret: null }, { key: tenant.key });
    expect(removed.body.data.setSupplierConnectionWebhookSecret).toEqual({ id: connection.id, webhookPath: connection.webhook_path, webhookSecretSet: false });
    const again = await graphql(server, mutation, { id: connection.id, secret }, { key: tenant.key });
    expect(again.body.data.setSupplierConnectionWebhookSecret.webhookSecretSet).toBe(true);
    expectGraphQLError(await graphql(server, mutation, { id: connection.id, secret: "" }, { key: tenant.key }), "invalid_field_value", { field: "secret" });
    const audited = await server.db.prisma.auditEvent.findMany({ where: { action: "supplier_connection.webhook_updated", targetId: connection.id } });
    expect(audited).toHaveLength(3);
    expect(JSON.stringify(audited)).not.toContain(secret);
  });

  it("a delivery to the connection's address is verified with its own secret (the platform's or another connection's is 401) and acts on its tenant's orders only", async () => {
    const mine = await connectionOf(tenant.key);
    const theirs = await connectionOf(other.key);
    const [secret, theirSecret] = [randomBytes(16).toString("hex"), randomBytes(16).toString("hex")];
    expect((await call(server, "PATCH", `/v1/supplier_connections/${mine.id}`, { key: tenant.key, body: { webhook_secret: secret } })).status).toBe(200);
    expect((await call(server, "PATCH", `/v1/supplier_connections/${theirs.id}`, { key: other.key, body: { webhook_secret: theirSecret } })).status).toBe(200);
    const { order, duffelOrderId } = await ticketedOnChangingRoute(server, fake, tenant.key);
    const change = fake.airlineChangeOf(duffelOrderId)!;
    const body = duffelEvent("order.airline_initiated_change_detected", change);

    for (const wrong of [PLATFORM_SECRET, theirSecret]) expectError(await deliverDuffelEvent(server, wrong, body, mine.webhook_path), 401, "webhook_signature_invalid");
    // The other tenant's address, rightly signed, cannot reach this tenant's order.
    const elsewhere = await deliverDuffelEvent(server, theirSecret, body, theirs.webhook_path);
    expect(elsewhere.body.data).toMatchObject({ acted: false });
    expect(await changesOf(tenant.key, order.id)).toEqual([]);

    const delivered = await deliverDuffelEvent(server, secret, duffelEvent("order.airline_initiated_change_detected", change), mine.webhook_path);
    expect(delivered.body.data).toMatchObject({ acted: true, duplicate: false });
    expect(await changesOf(tenant.key, order.id)).toHaveLength(1);
  });

  it("an unknown connection's address is 404; one whose secret is not set is 503 supplier_webhooks_unset; the platform's address keeps its own secret", async () => {
    const body = duffelEvent("order.created", { id: "ord_0000unknown" });
    expectError(await deliverDuffelEvent(server, PLATFORM_SECRET, body, "/suppliers/duffel/webhooks/spc_unknown"), 404, "not_found");
    const connection = await connectionOf(tenant.key);
    expect((await call(server, "PATCH", `/v1/supplier_connections/${connection.id}`, { key: tenant.key, body: { webhook_secret: null } })).status).toBe(200);
    expectError(await deliverDuffelEvent(server, PLATFORM_SECRET, body, connection.webhook_path), 503, "supplier_webhooks_unset");
    expect((await deliverDuffelEvent(server, PLATFORM_SECRET, body)).status).toBe(200);
  });

  describe("created at Duffel by Aerogate (register_webhook)", () => {
    const register = (key: string, id: string) => call(server, "POST", `/v1/supplier_connections/${id}/actions/register_webhook`, { key });
    const webhooksOf = (token: string) => [...fake.webhooks.values()].filter((webhook) => webhook.token === token);
    const ping = duffelEvent("order.created", { id: "ord_0000notours" });

    it("creates the connection's webhook at Duffel to PUBLIC_URL + webhook_path, for the events Aerogate reads, and keeps its secret: deliveries signed with it are verified", async () => {
      const owner = await duffelTenant(server, fake);
      const connection = await connectionOf(owner.key);
      const registered = await register(owner.key, connection.id);
      expect(registered.status, JSON.stringify(registered.body)).toBe(200);
      expect(registered.body.data).toMatchObject({ id: connection.id, webhook_secret_set: true });
      const [webhook, ...more] = webhooksOf(owner.token);
      expect(more).toEqual([]);
      expect(webhook!.url).toBe(PUBLIC_URL + connection.webhook_path);
      expect(webhook!.events).toEqual(expect.arrayContaining(["order.created", "order.creation_failed", "order.updated", "order.airline_initiated_change_detected", "order_cancellation.confirmed"]));
      expect(JSON.stringify(registered.body)).not.toContain(webhook!.secret);
      expect(JSON.stringify(await server.db.prisma.supplierConnection.findUnique({ where: { id: connection.id } }))).not.toContain(webhook!.secret);
      expect((await deliverDuffelEvent(server, webhook!.secret, ping, connection.webhook_path)).status).toBe(200);
      const audited = await server.db.prisma.auditEvent.findMany({ where: { action: "supplier_connection.webhook_updated", targetId: connection.id } });
      expect(audited).toHaveLength(1);
    });

    it("registering again (GraphQL too) replaces the webhook: one left at the address, the old secret refused; a webhook an interrupted call left is removed", async () => {
      const owner = await duffelTenant(server, fake);
      const connection = await connectionOf(owner.key);
      expect((await register(owner.key, connection.id)).status).toBe(200);
      const [first] = webhooksOf(owner.token);
      // What a crash after Duffel created a webhook, before its secret was stored, leaves behind.
      const leftover = await fetch(`${fake.url}/air/webhooks`, { method: "POST", headers: { authorization: `Bearer ${owner.token}`, "duffel-version": "v2", "content-type": "application/json" }, body: JSON.stringify({ data: { url: first!.url, events: first!.events } }) });
      expect(leftover.status).toBe(201);
      expect(webhooksOf(owner.token)).toHaveLength(2);

      const again = await graphql(server, "mutation ($id: ID!) { registerSupplierConnectionWebhook(id: $id) { id webhookSecretSet } }", { id: connection.id }, { key: owner.key });
      expect(again.body.data.registerSupplierConnectionWebhook).toEqual({ id: connection.id, webhookSecretSet: true });
      const [second, ...more] = webhooksOf(owner.token);
      expect(more).toEqual([]);
      expect(second!.id).not.toBe(first!.id);
      expectError(await deliverDuffelEvent(server, first!.secret, ping, connection.webhook_path), 401, "webhook_signature_invalid");
      expect((await deliverDuffelEvent(server, second!.secret, ping, connection.webhook_path)).status).toBe(200);
    });

    it("racing registrations leave one webhook at Duffel whose secret is the one kept; the others answer 409 supplier_webhook_changed", async () => {
      const owner = await duffelTenant(server, fake);
      const connection = await connectionOf(owner.key);
      const answers = await Promise.all(Array.from({ length: 4 }, () => register(owner.key, connection.id)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses).toContain(200);
      for (const answer of answers) if (answer.status !== 200) expectError(answer, 409, "supplier_webhook_changed");
      const [kept, ...more] = webhooksOf(owner.token);
      expect(more).toEqual([]);
      expect((await deliverDuffelEvent(server, kept!.secret, ping, connection.webhook_path)).status).toBe(200);
    });

    it("another tenant's connection is 404 and a token Duffel refuses is 502 supplier_error, both creating and changing nothing; deleting the connection removes its webhook at Duffel", async () => {
      const owner = await duffelTenant(server, fake);
      const connection = await connectionOf(owner.key);
      expectError(await register(other.key, connection.id), 404, "not_found");
      expectError(await register(owner.key, "spc_unknown"), 404, "not_found");
      fake.revoke(owner.token);
      expectError(await register(owner.key, connection.id), 502, "supplier_error");
      fake.allow(owner.token);
      expect(webhooksOf(owner.token)).toEqual([]);
      expect((await connectionOf(owner.key)).webhook_secret_set).toBe(false);

      expect((await register(owner.key, connection.id)).status).toBe(200);
      expect(webhooksOf(owner.token)).toHaveLength(1);
      const deleted = await call(server, "DELETE", `/v1/supplier_connections/${connection.id}`, { key: owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(webhooksOf(owner.token)).toEqual([]);
    });
  });
});
