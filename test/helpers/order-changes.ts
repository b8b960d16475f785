import { expect } from "vitest";
import { call, type ApiResponse, type Endpoint } from "./client";
import { bookOffer, searchForBooking, ticketOrder, waitForStatus, type SearchOptions } from "./orders";

/**
 * Order changes (docs/rest-api.md#order-changes) as a client makes them: a ticketed order, a change request for a
 * later date, a change chosen from its offers, and its confirmation paying what it costs.
 */

/** Books the first fresh offer of a search (LHR → JFK economy by default), tickets it, and returns the TICKETED order. */
export async function ticketedOrder(api: Endpoint, key: string, options: SearchOptions = {}): Promise<any> {
  const [offer] = await searchForBooking(api, key, options);
  const order = await bookOffer(api, key, offer);
  const ticketed = await ticketOrder(api, key, order.id);
  expect(ticketed.status, JSON.stringify(ticketed.body).slice(0, 300)).toBe(200);
  return (await waitForStatus(api, key, order.id, ["TICKETED"], 30_000)).body.data;
}

/** `date` (YYYY-MM-DD) moved `days` later. */
export function laterDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** POST /v1/air/order_change_requests replacing the order's first slice with its route on `departureDate`. */
export function requestChange(api: Endpoint, key: string, order: any, departureDate: string, cabinClass = "economy"): Promise<ApiResponse> {
  const [slice] = order.slices;
  return call(api, "POST", "/v1/air/order_change_requests", {
    key,
    body: {
      order_id: order.id,
      slices: {
        remove: [{ slice_id: slice.id }],
        add: [{ origin: slice.origin.iata_code, destination: slice.destination.iata_code, departure_date: departureDate, cabin_class: cabinClass }],
      },
    },
  });
}

/**
 * A change request for the order's route on the first later date (1–10 days after its first
 * departure) whose offers `accept` finds one to take; returns the request and that offer.
 */
export async function changeOffer(api: Endpoint, key: string, order: any, options: { cabinClass?: string; accept?: (offer: any) => boolean } = {}): Promise<{ request: any; offer: any }> {
  const accept = options.accept ?? (() => true);
  for (let days = 1; days <= 10; days++) {
    const response = await requestChange(api, key, order, laterDate(order.slices[0].departure_date, days), options.cabinClass);
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
    const offer = response.body.data.order_change_offers.find(accept);
    if (offer) return { request: response.body.data, offer };
  }
  throw new Error(`no change offer for order ${order.id} in the 10 days after its departure`);
}

/** POST /v1/air/order_changes choosing `offerId`. */
export function createChange(api: Endpoint, key: string, offerId: string): Promise<ApiResponse> {
  return call(api, "POST", "/v1/air/order_changes", { key, body: { selected_order_change_offer: offerId } });
}

/** The payment a confirmation sends: the change's cost when it costs something, none otherwise. */
export function paymentFor(change: { change_total_amount: string; change_total_currency: string }): Record<string, unknown> {
  return change.change_total_amount.startsWith("-") || Number(change.change_total_amount) === 0
    ? {}
    : { payment: { type: "balance", amount: change.change_total_amount, currency: change.change_total_currency } };
}

/** POST /v1/air/order_changes/:id/actions/confirm with `body` (default: paying what it costs). */
export function confirmChange(api: Endpoint, key: string, change: any, body: Record<string, unknown> = paymentFor(change)): Promise<ApiResponse> {
  return call(api, "POST", `/v1/air/order_changes/${change.id}/actions/confirm`, { key, body });
}
