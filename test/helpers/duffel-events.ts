import { createHmac, randomBytes } from "node:crypto";
import { clock } from "../../src/clock";
import { call, type Endpoint } from "./client";
import type { DuffelFake } from "./duffel-fake";

/** Duffel's webhook event of `type` about `object` (an order, a cancellation, an airline's change), with a new event id. */
export function duffelEvent(type: string, object: Record<string, unknown>): string {
  return JSON.stringify({ id: `wev_${randomBytes(8).toString("hex")}`, type, live_mode: false, created_at: clock.now().toISOString(), api_version: "v2", data: { object } });
}

/** Delivers `body` to the platform's Duffel webhook address, signed as Duffel signs it (X-Duffel-Signature) under `secret`. */
export function deliverDuffelEvent(server: Endpoint, secret: string, body: string) {
  const t = Math.floor(clock.nowMs() / 1000);
  const signature = `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
  return call(server, "POST", "/suppliers/duffel/webhooks", { rawBody: body, headers: { "x-duffel-signature": signature, "content-type": "application/json" } });
}

/** Cancels Duffel's order at the fake as its dashboard would (a quote confirmed, outside Aerogate): Duffel's confirmed cancellation. */
export async function cancelAtDuffel(fake: DuffelFake, token: string, duffelOrderId: string): Promise<Record<string, unknown>> {
  const headers = { authorization: `Bearer ${token}`, "duffel-version": "v2", "content-type": "application/json" };
  const quote = (await (await fetch(`${fake.url}/air/order_cancellations`, { method: "POST", headers, body: JSON.stringify({ data: { order_id: duffelOrderId } }) })).json()) as { data: { id: string } };
  const confirmed = await fetch(`${fake.url}/air/order_cancellations/${quote.data.id}/actions/confirm`, { method: "POST", headers });
  return ((await confirmed.json()) as { data: Record<string, unknown> }).data;
}
