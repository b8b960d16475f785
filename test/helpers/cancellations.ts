import { expect } from "vitest";
import type { Endpoint } from "./client";
import { bookOffer, searchForBooking, ticketOrder, waitForStatus } from "./orders";

/** A fresh offer whose fare allows refunds (`refundable`: a business fare) or not (an economy one). */
export async function offerWithRefunds(api: Endpoint, key: string, refundable: boolean): Promise<any> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const offers = await searchForBooking(api, key, { cabin: refundable ? "business" : "economy" });
    const offer = offers.find((candidate) => candidate.conditions.refund_before_departure.allowed === refundable);
    if (offer) return offer;
  }
  throw new Error(`no ${refundable ? "refundable" : "non-refundable"} offer`);
}

/** A TICKETED order (its Variant A view) of a fare that allows refunds or not, with its offer. */
export async function ticketedOrderWithRefunds(api: Endpoint, key: string, refundable: boolean): Promise<{ order: any; offer: any }> {
  const offer = await offerWithRefunds(api, key, refundable);
  const order = await bookOffer(api, key, offer);
  const ticketed = await ticketOrder(api, key, order.id);
  expect(ticketed.status, JSON.stringify(ticketed.body).slice(0, 300)).toBe(200);
  return { order: (await waitForStatus(api, key, order.id, ["TICKETED"], 30_000)).body.data, offer };
}
