/**
 * A REST integration written from /openapi.json alone: `./api` is what openapi-typescript
 * generated from the running server's document, `openapi-fetch` the only runtime. The test
 * copies this file beside the generated types, compiles both with tsc, then runs it (so the
 * repository's own typecheck leaves this folder out: `./api` exists only there).
 */
import createClient from "openapi-fetch";
import type { paths } from "./api";

type CreateOrderBody = paths["/v1/air/orders"]["post"]["requestBody"]["content"]["application/json"];
export type Passenger = Extract<CreateOrderBody, { selected_offers: unknown }>["passengers"][number];

export interface JourneyInput {
  baseUrl: string;
  apiKey: string;
  departureDate: string;
  /** A traveller for the search's passenger `id`. */
  passenger: (id: string) => Passenger;
  /** How long to wait for the airline to ticket. */
  deadlineMs: number;
}

/** Search → book the first offer → ticket → poll until ticketed → read the wallet and its ledger. */
export async function journey(input: JourneyInput) {
  const client = createClient<paths>({ baseUrl: input.baseUrl, headers: { authorization: `Bearer ${input.apiKey}` } });
  const unique = `${Date.now()}-${Math.random()}`;

  const search = await client.POST("/v1/air/search", {
    body: { slices: [{ origin: "LHR", destination: "JFK", departure_date: input.departureDate }], passengers: [{ type: "adult", id: "p1" }], cabin_class: "economy" },
  });
  if (!search.data) throw new Error(`search: ${search.error?.errorCode}`);
  const found = search.data.data;
  if (!("offers" in found)) throw new Error("search: expected the Variant A result");
  const offer = found.offers[0];
  if (!offer) throw new Error("search: no offers");

  const created = await client.POST("/v1/air/orders", {
    params: { header: { "Idempotency-Key": `order-${unique}` } },
    body: {
      selected_offers: [offer.id],
      passengers: offer.passengers.map((passenger) => input.passenger(passenger.id)),
      payments: [{ type: "balance", amount: offer.total_amount, currency: offer.total_currency }],
    },
  });
  if (!created.data) throw new Error(`order: ${created.error?.errorCode} ${created.error?.message}`);
  if (!("data" in created.data)) throw new Error("order: expected the Variant A answer");
  const orderId: string = created.data.data.id;

  const ticketing = await client.POST("/v1/air/orders/{id}/actions/ticket", {
    params: { path: { id: orderId }, header: { "Idempotency-Key": `ticket-${unique}` } },
  });
  if (!ticketing.data) throw new Error(`ticket: ${ticketing.error?.errorCode}`);
  const ticketingStatus: "not_started" | "in_progress" | "ticketed" | "failed" = ticketing.data.data.ticketing_status;

  const deadline = Date.now() + input.deadlineMs;
  let order = (await client.GET("/v1/air/orders/{id}", { params: { path: { id: orderId } } })).data;
  while (order?.order.status !== "TICKETED") {
    if (Date.now() > deadline) throw new Error(`order ${orderId} still ${order?.order.status} after ${input.deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    order = (await client.GET("/v1/air/orders/{id}", { params: { path: { id: orderId } } })).data;
  }

  const wallet = await client.GET("/v1/wallet");
  const ledger = await client.GET("/v1/wallet/transactions", { params: { query: { limit: 10 } } });
  if (!wallet.data || !ledger.data) throw new Error("wallet: unreadable");
  return {
    offerTotal: { amount: offer.total_amount, currency: offer.total_currency },
    ticketingStatus,
    order: { id: order.data.id, status: order.data.status, tickets: order.data.documents.map((document) => document.unique_identifier) },
    wallet: { balance: wallet.data.data.balance, currency: wallet.data.data.currency },
    ledger: ledger.data.data.items.map((entry) => ({ type: entry.type, amount: entry.amount, orderId: entry.order_id })),
  };
}
