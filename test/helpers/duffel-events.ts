import { createHmac, randomBytes } from "node:crypto";
import { clock } from "../../src/clock";
import { expect } from "vitest";
import { call, type Endpoint } from "./client";
import type { DuffelFake } from "./duffel-fake";
import { duffelOrdersOf } from "./duffel-gateway";
import { daysAhead } from "./offers";
import { bookOffer, ticketOrder, waitForStatus } from "./orders";

/** Duffel's webhook event of `type` about `object` (an order, a cancellation, an airline's change), with a new event id. */
export function duffelEvent(type: string, object: Record<string, unknown>): string {
  return JSON.stringify({ id: `wev_${randomBytes(8).toString("hex")}`, type, live_mode: false, created_at: clock.now().toISOString(), api_version: "v2", data: { object } });
}

/** Delivers `body` to a Duffel webhook address (the platform's by default), signed as Duffel signs it (X-Duffel-Signature) under `secret`. */
export function deliverDuffelEvent(server: Endpoint, secret: string, body: string, path = "/suppliers/duffel/webhooks") {
  const t = Math.floor(clock.nowMs() / 1000);
  const signature = `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
  return call(server, "POST", path, { rawBody: body, headers: { "x-duffel-signature": signature, "content-type": "application/json" } });
}

/** Cancels Duffel's order at the fake as its dashboard would (a quote confirmed, outside Aerogate): Duffel's confirmed cancellation. */
export async function cancelAtDuffel(fake: DuffelFake, token: string, duffelOrderId: string): Promise<Record<string, unknown>> {
  const headers = { authorization: `Bearer ${token}`, "duffel-version": "v2", "content-type": "application/json" };
  const quote = (await (await fetch(`${fake.url}/air/order_cancellations`, { method: "POST", headers, body: JSON.stringify({ data: { order_id: duffelOrderId } }) })).json()) as { data: { id: string } };
  const confirmed = await fetch(`${fake.url}/air/order_cancellations/${quote.data.id}/actions/confirm`, { method: "POST", headers });
  return ((await confirmed.json()) as { data: Record<string, unknown> }).data;
}

let searchDay = 40;

/** A Duffel offer (VS: holdable) of a fresh search on LHR→LTN, the route on which Duffel's test mode has the airline change a paid order. */
export async function changingRouteOffer(server: Endpoint, key: string): Promise<any> {
  searchDay += 1;
  const search = await call(server, "POST", "/v1/air/search", {
    key,
    body: { slices: [{ origin: "LHR", destination: "LTN", departure_date: daysAhead(searchDay) }], passengers: [{ type: "adult", id: "p1" }], cabin_class: "economy" },
  });
  expect(search.status, JSON.stringify(search.body).slice(0, 300)).toBe(200);
  return search.body.data.offers.find((candidate: any) => candidate.supplier.id === "duffel" && candidate.owner.iata_code === "VS");
}

/** A ticketed order of a Duffel offer on LHR→LTN (the route on which Duffel's test mode has the airline change the order), and Duffel's order id. */
export async function ticketedOnChangingRoute(server: Endpoint, fake: DuffelFake, key: string): Promise<{ order: any; duffelOrderId: string }> {
  const booked = await bookOffer(server, key, await changingRouteOffer(server, key));
  expect((await ticketOrder(server, key, booked.id)).status).toBe(200);
  const order = (await waitForStatus(server, key, booked.id, ["TICKETED"])).body.data;
  const [atDuffel] = duffelOrdersOf(fake, order.id);
  return { order, duffelOrderId: atDuffel!.id };
}
