import { expect } from "vitest";
import { call, createTenant, type Endpoint, type TenantFixture } from "./client";
import { eventually } from "./eventually";
import { bookOffer, newKey, searchForBooking, ticketOrder, waitForStatus } from "./orders";
import type { TestServer } from "./test-server";

/** A tenant with one record of every kind a path can name: offers, orders in three states, an e-ticket, webhook deliveries. */
export interface TenantRecords extends TenantFixture {
  /** Offers of one search, as the search answered them (unbooked ones can still be booked). */
  offers: any[];
  orderIds: { pending: string; ticketed: string; canceled: string };
  documentIds: string[];
  deliveryIds: string[];
  /** The signing secret the webhook URL was set with (`whsec_…`), with `webhookUrl`. */
  webhookSecret?: string;
}

/**
 * Creates a tenant and fills it through the API: a search, three orders (one left pending, one
 * ticketed, one canceled), and, with `webhookUrl`, the webhook deliveries of their events once
 * every one has been attempted. The server should ticket quickly (a small TICKETING_DELAY_MS).
 */
export async function tenantWithRecords(server: Endpoint & Pick<TestServer, "ownerKey">, webhookUrl?: string): Promise<TenantRecords> {
  const tenant = await createTenant(server);
  let webhookSecret: string | undefined;
  if (webhookUrl) {
    const patched = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: webhookUrl, webhook_enabled: true } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    webhookSecret = patched.body.data.webhook_secret;
  }
  const offers = await searchForBooking(server, tenant.key);
  expect(offers.length).toBeGreaterThanOrEqual(4);
  const [pending, ticketed, canceled] = [await bookOffer(server, tenant.key, offers[0]), await bookOffer(server, tenant.key, offers[1]), await bookOffer(server, tenant.key, offers[2])];
  expect((await ticketOrder(server, tenant.key, ticketed.id)).status).toBe(200);
  const cancel = await call(server, "POST", `/v1/air/orders/${canceled.id}/actions/cancel`, { key: tenant.key, headers: { "idempotency-key": newKey("cancel") } });
  expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
  const done = await waitForStatus(server, tenant.key, ticketed.id, ["TICKETED"]);
  const documentIds = (done.body.data.documents as Array<{ id: string }>).map((document) => document.id);
  expect(documentIds.length).toBeGreaterThan(0);
  const deliveryIds = webhookUrl ? await settledDeliveryIds(server, tenant.key) : [];
  return { ...tenant, offers: offers.slice(3), orderIds: { pending: pending.id, ticketed: ticketed.id, canceled: canceled.id }, documentIds, deliveryIds, webhookSecret };
}

/** The tenant's webhook deliveries, once none is pending. */
async function settledDeliveryIds(server: Endpoint, key: string): Promise<string[]> {
  let items: Array<{ id: string; status: string }> = [];
  return eventually(
    async () => {
      const response = await call(server, "GET", "/v1/webhooks/deliveries?limit=100", { key });
      items = response.body.data.items;
      return items.length > 0 && items.every((item) => item.status !== "pending") ? items.map((item) => item.id) : undefined;
    },
    () => `webhook deliveries still pending: ${JSON.stringify(items)}`,
  );
}
