import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { duffelAirline, duffelAirport, duffelCabin, offerExtras, segmentExtras, sliceExtras } from "./duffel-fake-shapes";

/**
 * A contract fake of Duffel's API v2 on 127.0.0.1, for the connector's tests. It follows Duffel's
 * published shapes (its API reference and the types of its official JavaScript client): `data`
 * envelopes, lists paged by `meta.after`, error bodies `{ errors: [{ type, code, title, message,
 * documentation_url }], meta: { status, request_id } }`, `ratelimit-limit/remaining/reset` headers on
 * every answer, `Authorization: Bearer` tokens and the `Duffel-Version: v2` check. A test can make it
 * answer slowly, fail, rate-limit, change an offer's price or withdraw it, and revoke a token.
 */
export interface DuffelFake {
  url: string;
  /** Every request it received: method, path with query, the Authorization header, the parsed body, and the bytes of its answer once sent. */
  readonly requests: ReadonlyArray<FakeRequest>;
  /** Orders made, by Duffel id. */
  readonly orders: ReadonlyMap<string, FakeOrder>;
  /** The currency it prices offers in (default GBP). */
  currency: string;
  /** Tokens it accepts; any other is answered 401. */
  allow(token: string): void;
  revoke(token: string): void;
  /** How many offers an offer request answers (default 3, one per airline; more puts dearer ones first). */
  offersPerSearch: number;
  /** Every answer waits this long first (0: none). */
  delayMs: number;
  /** How long a cancellation quote can be confirmed (default 15 minutes). */
  quoteLifetimeMs: number;
  /**
   * Where new cancellation quotes refund to: `balance` (default), or `airline_credits`, confirmed
   * with one credit per passenger (of the refund's amount, or of none stated with `creditAmountKnown: false`).
   */
  refundTo: "balance" | "airline_credits";
  creditAmountKnown: boolean;
  /** The next `count` requests (to `route` only, e.g. `POST /air/orders`, when given) answer `status` (a 5xx) with an api_error body. */
  failNext(count: number, status?: number, route?: string): void;
  /** The next `count` requests answer 429, the window resetting `resetInMs` from now. */
  rateLimitNext(count: number, resetInMs: number): void;
  /** Booking the offer now costs `newTotal`: an order paying the old total is refused with 422 price_changed. */
  changePrice(offerId: string, newTotal: string): void;
  /** Booking the offer is refused with 422 offer_no_longer_available. */
  withdraw(offerId: string): void;
  /** The bag or seat service `serviceId` of an offer read already costs `newAmount` from now on. */
  changeServicePrice(serviceId: string, newAmount: string): void;
  /**
   * The next order made is answered 202 (accepted, not confirmed: no booking reference), and reads
   * of it stay so for `readsPending` reads; then it is confirmed, or, with `fails`, it is gone (404,
   * as after Duffel's `order.creation_failed`).
   */
  acceptNextOrder(outcome: { readsPending: number; fails?: boolean }): void;
  /** The airline's change of a paid LHR→LTN order (made when first asked, as Duffel's test mode makes one): Duffel's AIC object, what its webhook event carries; undefined for any other order. */
  airlineChangeOf(duffelOrderId: string): Record<string, unknown> | undefined;
  /** How often each airline change was asked to be accepted, by its id. */
  readonly acceptsOfChange: Map<string, number>;
  /** What the cheapest change offer of a change request costs, in the order's currency (each further airline's 20.00 more; default 25.00). */
  changeTotalBase: number;
  /** How long a change offer (and the change made from it) can be confirmed (default 15 minutes). */
  changeOfferLifetimeMs: number;
  /** Duffel no longer honours the change offer (it expired at Duffel): making or confirming a change of it is refused with 422 offer_no_longer_available. */
  expireChangeOffer(changeOfferId: string): void;
  /** The ids of the latest change request's offers, cheapest first. */
  lastChangeOfferIds: string[];
  /** Each order change confirmed, with the amount paid from the Duffel balance. */
  readonly confirmedChanges: Array<{ id: string; amount: string; currency: string }>;
  /** Each payment for services added to a paid order (`POST /air/orders/:id/services`), from the Duffel balance. */
  readonly servicePayments: Array<{ orderId: string; amount: string; currency: string }>;
  /** The webhooks each token created (`/air/webhooks`), with the secret Duffel showed when it was created, by webhook id. */
  readonly webhooks: Map<string, FakeWebhook>;
  /** While true, paid orders show no documents (the airline has not issued the e-tickets yet), as Duffel's do for a while after payment. */
  withholdTickets: boolean;
  close(): Promise<void>;
}

export interface FakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
  answerBytes?: number;
}

export interface FakeWebhook {
  id: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
  /** The token that created it: only that account sees and removes it. */
  token: string;
}

export interface FakeOrder {
  id: string;
  type: "instant" | "hold";
  offerId: string;
  totalAmount: string;
  totalCurrency: string;
  metadata: Record<string, string>;
  paid: boolean;
  cancelled: boolean;
  body: Record<string, unknown>;
  /** Accepted and not confirmed yet (answered 202): no booking reference. */
  pending?: { readsPending: number; fails: boolean };
  /** Its flights once an airline's change was accepted or an order change confirmed (else the offer's). */
  slices?: unknown[];
  /** The services booked with it, priced (`total_amount` for their quantity). */
  services: FakeService[];
  /** How many confirmed order changes reissued its e-tickets (new numbers each time). */
  reissues?: number;
}

export interface FakeService {
  id: string;
  type: string;
  quantity: number;
  total_amount: string;
  passenger_ids: string[];
  segment_ids: string[];
  designator?: string;
}

const RATE_LIMIT = 120;

export async function startDuffelFake(): Promise<DuffelFake> {
  const tokens = new Set<string>();
  const requests: FakeRequest[] = [];
  /** The logged request each answer is for. */
  const answering = new WeakMap<ServerResponse, FakeRequest>();
  const offers = new Map<string, Record<string, unknown>>();
  const orders = new Map<string, FakeOrder>();
  const orderList: string[] = [];
  const cancellations = new Map<string, Record<string, unknown>>();
  const changeOffers = new Map<string, Record<string, unknown>>();
  const changes = new Map<string, Record<string, unknown>>();
  const airlineChanges = new Map<string, Record<string, unknown>>();
  const priceChanges = new Map<string, string>();
  const withdrawn = new Set<string>();
  /** Each offer's bags and seat maps, made when first asked: Duffel names the same services the same way on every read. */
  const extrasByOffer = new Map<string, { bags: Array<Record<string, unknown>>; maps: Array<Record<string, unknown>> }>();
  const extrasOf = (offer: Record<string, unknown>) => {
    let extras = extrasByOffer.get(offer.id as string);
    if (!extras) extrasByOffer.set(offer.id as string, (extras = { bags: availableServices(offer), maps: seatMaps(offer) }));
    return extras;
  };
  /** A service id of the offer's (a bag or a seat for sale), with its price and what it is. */
  const serviceOf = (offer: Record<string, unknown>, id: string) => {
    const { bags, maps } = extrasOf(offer);
    const bag = bags.find((service) => service.id === id);
    if (bag) return { type: "baggage", total_amount: bag.total_amount as string, passenger_ids: bag.passenger_ids as string[], segment_ids: bag.segment_ids as string[], maximum_quantity: bag.maximum_quantity as number };
    for (const map of maps) {
      for (const seat of seatElementsOf(map)) {
        const service = seat.available_services.find((candidate) => candidate.id === id);
        if (service) return { type: "seat", total_amount: service.total_amount, passenger_ids: [service.passenger_id], segment_ids: [map.segment_id as string], maximum_quantity: 1, designator: seat.designator };
      }
    }
    return undefined;
  };
  /** The services asked for, priced: undefined names the first id the offer does not sell (Duffel's 422). */
  const pricedServices = (offer: Record<string, unknown>, asked: Array<{ id: string; quantity: number }>) => {
    const priced: FakeService[] = [];
    for (const { id, quantity } of asked) {
      const service = serviceOf(offer, id);
      if (!service || !Number.isInteger(quantity) || quantity < 1 || quantity > service.maximum_quantity) return { unknown: id };
      priced.push({ id, quantity, ...service, total_amount: ((Math.round(Number(service.total_amount) * 100) * quantity) / 100).toFixed(2) });
    }
    return { priced };
  };
  const invalidService = (response: ServerResponse, id: string) =>
    send(response, 422, errorBody(422, "validation_error", "invalid_service", "Invalid service", `The service ${id} is not available for this offer, or not in that quantity`));
  /** The bags the order can still be given after booking: its offer's, as many as are left of their maximum. */
  const bagsLeft = (order: FakeOrder): Array<Record<string, unknown>> =>
    extrasOf(offers.get(order.offerId)!).bags.flatMap((bag) => {
      const booked = order.services.filter((service) => service.id === bag.id).reduce((sum, service) => sum + service.quantity, 0);
      const left = (bag.maximum_quantity as number) - booked;
      return left > 0 ? [{ ...bag, maximum_quantity: left }] : [];
    });
  let nextAccepted: { readsPending: number; fails: boolean } | null = null;
  /** The test-mode journey of each offer searched on one of TEST_JOURNEYS' routes. */
  const journeys = new Map<string, (typeof TEST_JOURNEYS)[string]>();
  const gone = (response: ServerResponse) => send(response, 422, errorBody(422, "invalid_state_error", "offer_no_longer_available", "Offer no longer available", "The offer is no longer available; search again"));
  let failures: { count: number; status: number; route?: string } = { count: 0, status: 500 };
  let rateLimited: { count: number; resetAt: number } = { count: 0, resetAt: 0 };
  let remaining = RATE_LIMIT;

  const fake = {
    url: "",
    requests,
    orders,
    currency: "GBP",
    delayMs: 0,
    quoteLifetimeMs: 15 * 60_000,
    refundTo: "balance" as "balance" | "airline_credits",
    offersPerSearch: 3,
    withholdTickets: false,
    creditAmountKnown: true,
    changeTotalBase: 25,
    changeOfferLifetimeMs: 15 * 60_000,
    confirmedChanges: [] as Array<{ id: string; amount: string; currency: string }>,
    servicePayments: [] as Array<{ orderId: string; amount: string; currency: string }>,
    lastChangeOfferIds: [] as string[],
    expireChangeOffer: (changeOfferId: string) => {
      const changeOffer = changeOffers.get(changeOfferId);
      if (changeOffer) changeOffer.expires_at = new Date(Date.now() - 1000).toISOString();
    },
    allow: (token: string) => void tokens.add(token),
    revoke: (token: string) => void tokens.delete(token),
    failNext: (count: number, status = 500, route?: string) => void (failures = { count, status, route }),
    rateLimitNext: (count: number, resetInMs: number) => void (rateLimited = { count, resetAt: Date.now() + resetInMs }),
    changePrice: (offerId: string, newTotal: string) => void priceChanges.set(offerId, newTotal),
    withdraw: (offerId: string) => void withdrawn.add(offerId),
    changeServicePrice: (serviceId: string, newAmount: string) => {
      for (const { bags, maps } of extrasByOffer.values()) {
        for (const bag of bags) if (bag.id === serviceId) bag.total_amount = newAmount;
        for (const map of maps) for (const seat of seatElementsOf(map)) for (const service of seat.available_services) if (service.id === serviceId) service.total_amount = newAmount;
      }
    },
    acceptNextOrder: (outcome: { readsPending: number; fails?: boolean }) => void (nextAccepted = { readsPending: outcome.readsPending, fails: outcome.fails ?? false }),
    airlineChangeOf: (duffelOrderId: string) => airlineChangeOf(duffelOrderId),
    acceptsOfChange: new Map<string, number>(),
    webhooks: new Map<string, FakeWebhook>(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies Omit<DuffelFake, "close"> & { close(): Promise<void> };

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: Error) => send(response, 500, errorBody(500, "api_error", "internal_server_error", "Internal error", error.message)));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const url = new URL(request.url ?? "/", "http://fake");
    let body: unknown = undefined;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return send(response, 400, errorBody(400, "invalid_request_error", "malformed_json", "Malformed JSON", "The request body is not valid JSON"));
      }
    }
    const logged: FakeRequest = { method: request.method ?? "GET", path: url.pathname + url.search, authorization: request.headers.authorization, body };
    requests.push(logged);
    answering.set(response, logged);
    if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    if (rateLimited.count > 0) {
      rateLimited.count--;
      return send(response, 429, errorBody(429, "rate_limit_error", "rate_limit_exceeded", "Rate limit exceeded", "You have exceeded the rate limit"), { remaining: 0, resetAt: rateLimited.resetAt });
    }
    if (failures.count > 0 && (!failures.route || failures.route === `${request.method} ${url.pathname}`)) {
      failures.count--;
      return send(response, failures.status, errorBody(failures.status, "api_error", "internal_server_error", "Internal server error", "Something went wrong"));
    }
    if (request.headers["duffel-version"] !== "v2") {
      return send(response, 400, errorBody(400, "invalid_request_error", "unsupported_version", "Unsupported version", "The Duffel-Version header must name a supported version: v2"));
    }
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!token || !tokens.has(token)) {
      return send(response, 401, errorBody(401, "authentication_error", "access_token_not_found", "Access token not found", "The access token used is not valid or has been revoked"));
    }
    const data = (body as { data?: Record<string, unknown> } | undefined)?.data ?? {};
    const route = `${request.method} ${url.pathname}`;
    const query = url.searchParams;
    let match: RegExpExecArray | null;

    if (route === "POST /air/offer_requests") {
      const slices = data.slices as Array<{ origin: string; destination: string; departure_date: string }> | undefined;
      const passengers = data.passengers as Array<{ type?: string; age?: number }> | undefined;
      if (!Array.isArray(slices) || slices.length === 0) return send(response, 422, errorBody(422, "validation_error", "validation_required", "Required field", "slices must be given"));
      if (!Array.isArray(passengers) || passengers.length === 0) return send(response, 422, errorBody(422, "validation_error", "validation_required", "Required field", "passengers must be given"));
      // Duffel asks a child's or an infant's age, and types only adults.
      if (passengers.some((passenger) => passenger.age === undefined && passenger.type !== "adult")) {
        return send(response, 422, errorBody(422, "validation_error", "invalid_passenger", "Invalid passenger", "A passenger who is not an adult must be given by age"));
      }
      const journey = TEST_JOURNEYS[`${slices[0]!.origin}-${slices[0]!.destination}`];
      if (journey === "search_timeout") return send(response, 504, errorBody(504, "api_error", "gateway_timeout", "Gateway timeout", "The airlines did not answer in time"));
      const typed = passengers.map((passenger) => ({ type: passenger.age === undefined ? "adult" : passenger.age < 2 ? "infant_without_seat" : passenger.age < 12 ? "child" : "adult", ...(passenger.age !== undefined && { age: passenger.age }) }));
      const offerRequest = makeOfferRequest(slices, typed, String(data.cabin_class ?? "economy"), fake.currency, fake.offersPerSearch);
      for (const offer of offerRequest.offers) {
        offers.set(offer.id as string, offer);
        if (journey) journeys.set(offer.id as string, journey);
      }
      if (query.get("return_offers") === "false") return send(response, 201, { data: { ...offerRequest, offers: undefined } });
      return send(response, 201, { data: offerRequest });
    }
    if (route === "GET /air/offers") {
      const list = [...offers.values()].filter((offer) => offer.offer_request_id === query.get("offer_request_id"));
      if (query.get("sort") === "total_amount") list.sort((a, b) => Number(a.total_amount) - Number(b.total_amount));
      return sendPage(response, list, query);
    }
    if ((match = /^GET \/air\/offers\/([^/]+)$/.exec(route))) {
      const offer = offers.get(match[1]!);
      if (!offer) return notFound(response);
      // Duffel answers a gone offer 422, not 404.
      if (withdrawn.has(match[1]!) || journeys.get(match[1]!) === "offer_gone") return gone(response);
      if (journeys.get(match[1]!) === "price_rises") priceChanges.set(match[1]!, addAmounts(priceChanges.get(match[1]!) ?? (offer.total_amount as string), "1.00"));
      const priced = priceChanges.has(offer.id as string) ? { ...offer, total_amount: priceChanges.get(offer.id as string) } : offer;
      return send(response, 200, { data: query.get("return_available_services") === "true" ? { ...priced, available_services: extrasOf(offer).bags } : priced });
    }
    if (route === "GET /air/seat_maps") {
      const offer = offers.get(query.get("offer_id") ?? "");
      if (!offer) return notFound(response);
      return send(response, 200, { data: extrasOf(offer).maps });
    }
    if (route === "POST /air/orders") {
      const offerId = (data.selected_offers as string[] | undefined)?.[0] ?? "";
      const offer = offers.get(offerId);
      if (!offer || withdrawn.has(offerId) || journeys.get(offerId) === "offer_gone") return gone(response);
      const refusal = passengersRefusal(offer, (data.passengers as OrderPassengerInput[] | undefined) ?? []);
      if (refusal) return send(response, 422, errorBody(422, "validation_error", refusal.code, refusal.title, refusal.message));
      if (journeys.get(offerId) === "airline_unknown") return send(response, 502, errorBody(502, "airline_error", "airline_unknown", "Airline unknown", "The airline answered with an unknown error"));
      if (journeys.get(offerId) === "insufficient_balance" && data.type !== "hold") return send(response, 422, errorBody(422, "invalid_state_error", "insufficient_balance", "Insufficient balance", "Your Duffel balance is too low"));
      const type = data.type === "hold" || data.type === "pay_later" ? "hold" : "instant";
      const askedServices = (data.services as Array<{ id: string; quantity: number }> | undefined) ?? [];
      // Duffel holds no services: a hold order is made without them.
      if (type === "hold" && askedServices.length > 0) return send(response, 422, errorBody(422, "validation_error", "invalid_order_type", "Invalid order type", "Services cannot be booked with a hold order"));
      const services = pricedServices(offer, askedServices);
      if (services.unknown) return invalidService(response, services.unknown);
      const fare = priceChanges.get(offerId) ?? (offer.total_amount as string);
      // The order's total is its fare's and its services'; an instant order's payment must be exactly that.
      const total = services.priced!.reduce((sum, service) => addAmounts(sum, service.total_amount), fare);
      const payment = (data.payments as Array<{ amount: string; currency: string }> | undefined)?.[0];
      if (type === "instant" && (!payment || payment.amount !== total || payment.currency !== offer.total_currency)) {
        if (priceChanges.has(offerId)) return send(response, 422, errorBody(422, "airline_error", "price_changed", "Price changed", `The offer's price changed to ${total} ${String(offer.total_currency)}`));
        return send(response, 422, errorBody(422, "validation_error", "invalid_payment_amount", "Invalid payment amount", "The payment must equal the offer's total_amount in its total_currency"));
      }
      const order: FakeOrder = {
        id: duffelId("ord"),
        type,
        offerId,
        totalAmount: total,
        totalCurrency: offer.total_currency as string,
        metadata: (data.metadata as Record<string, string> | undefined) ?? {},
        paid: type === "instant",
        cancelled: false,
        body: data,
        services: services.priced!,
        ...(nextAccepted && { pending: nextAccepted }),
      };
      nextAccepted = null;
      orders.set(order.id, order);
      orderList.unshift(order.id);
      return send(response, order.pending ? 202 : 201, { data: orderView(order, offer, fake.withholdTickets) });
    }
    if (route === "GET /air/orders") {
      // Duffel lists the orders of one offer when asked (`offer_id`).
      const listed = orderList.map((id) => orders.get(id)!).filter((order) => !query.has("offer_id") || order.offerId === query.get("offer_id"));
      return sendPage(response, listed.map((order) => orderView(order, offers.get(order.offerId)!, fake.withholdTickets)), query);
    }
    if ((match = /^GET \/air\/orders\/([^/]+)$/.exec(route))) {
      const order = orders.get(match[1]!);
      if (order?.pending) {
        if (order.pending.readsPending > 0) order.pending.readsPending--;
        else if (order.pending.fails) {
          orders.delete(order.id);
          orderList.splice(orderList.indexOf(order.id), 1);
          return notFound(response);
        } else delete order.pending;
      }
      return order ? send(response, 200, { data: orderView(order, offers.get(order.offerId)!, fake.withholdTickets) }) : notFound(response);
    }
    if ((match = /^GET \/air\/orders\/([^/]+)\/available_services$/.exec(route))) {
      const order = orders.get(match[1]!);
      if (!order) return notFound(response);
      return send(response, 200, { data: bagsLeft(order) });
    }
    if ((match = /^POST \/air\/orders\/([^/]+)\/services$/.exec(route))) {
      const order = orders.get(match[1]!);
      if (!order) return notFound(response);
      // Duffel sells services after booking on a paid order only.
      if (!order.paid || order.cancelled) return send(response, 422, errorBody(422, "invalid_state_error", "order_not_paid", "Order not paid", "Services can be added to a paid order that is not cancelled"));
      const left = new Map(bagsLeft(order).map((bag) => [bag.id as string, bag]));
      const asked = (data.add_services as Array<{ id: string; quantity: number }> | undefined) ?? [];
      const added: FakeService[] = [];
      for (const { id, quantity } of asked) {
        const bag = left.get(id);
        if (!bag || !Number.isInteger(quantity) || quantity < 1 || quantity > (bag.maximum_quantity as number)) return invalidService(response, id);
        added.push({ id, type: "baggage", quantity, total_amount: ((Math.round(Number(bag.total_amount) * 100) * quantity) / 100).toFixed(2), passenger_ids: bag.passenger_ids as string[], segment_ids: bag.segment_ids as string[] });
      }
      if (added.length === 0) return send(response, 422, errorBody(422, "validation_error", "validation_required", "Required field", "add_services must be given"));
      const total = added.reduce((sum, service) => addAmounts(sum, service.total_amount), "0.00");
      const payment = data.payment as { type?: string; amount?: string; currency?: string } | undefined;
      if (payment?.type !== "balance" || payment.amount !== total || payment.currency !== order.totalCurrency) {
        return send(response, 422, errorBody(422, "validation_error", "invalid_payment_amount", "Invalid payment amount", `The payment must equal the services' total_amount ${total} ${order.totalCurrency}`));
      }
      order.services.push(...added);
      order.totalAmount = addAmounts(order.totalAmount, total);
      fake.servicePayments.push({ orderId: order.id, amount: total, currency: order.totalCurrency });
      return send(response, 201, { data: orderView(order, offers.get(order.offerId)!, fake.withholdTickets) });
    }
    if (route === "POST /air/payments") {
      const order = orders.get(String(data.order_id));
      if (!order) return notFound(response);
      const payment = data.payment as { amount: string; currency: string; type: string };
      if (order.paid) return send(response, 422, errorBody(422, "invalid_state_error", "already_paid", "Order already paid", "The order has been paid for"));
      if (order.cancelled) return send(response, 422, errorBody(422, "invalid_state_error", "already_cancelled", "Order already cancelled", "The order has been cancelled"));
      if (journeys.get(order.offerId) === "insufficient_balance") return send(response, 422, errorBody(422, "invalid_state_error", "insufficient_balance", "Insufficient balance", "Your Duffel balance is too low"));
      if (payment.amount !== order.totalAmount || payment.currency !== order.totalCurrency) {
        return send(response, 422, errorBody(422, "airline_error", "price_changed", "Price changed", `The order's total is ${order.totalAmount} ${order.totalCurrency}`));
      }
      order.paid = true;
      return send(response, 201, { data: { id: duffelId("pay"), type: "balance", amount: payment.amount, currency: payment.currency, created_at: new Date().toISOString(), live_mode: false } });
    }
    if (route === "POST /air/order_cancellations") {
      const order = orders.get(String(data.order_id));
      if (!order) return notFound(response);
      const toCredits = (fake.refundTo === "airline_credits" || journeys.get(order.offerId) === "airline_credits") && order.paid;
      const cancellation: Record<string, unknown> = { id: duffelId("ore"), order_id: order.id, refund_amount: toCredits && !fake.creditAmountKnown ? null : order.paid ? order.totalAmount : "0.00", refund_currency: order.totalCurrency, refund_to: toCredits ? "airline_credits" : "balance", expires_at: new Date(Date.now() + fake.quoteLifetimeMs).toISOString(), confirmed_at: null, created_at: new Date().toISOString(), live_mode: false, airline_credits: [] };
      cancellations.set(cancellation.id as string, cancellation);
      return send(response, 201, { data: cancellation });
    }
    if (route === "GET /air/order_cancellations") {
      return sendPage(response, [...cancellations.values()].filter((cancellation) => !query.has("order_id") || cancellation.order_id === query.get("order_id")), query);
    }
    if ((match = /^POST \/air\/order_cancellations\/([^/]+)\/actions\/confirm$/.exec(route))) {
      const cancellation = cancellations.get(match[1]!);
      if (!cancellation) return notFound(response);
      const cancelled = orders.get(cancellation.order_id as string)!;
      // Duffel confirms a cancellation once, and only the order's most recent one.
      if (cancelled.cancelled) return send(response, 422, errorBody(422, "invalid_state_error", "already_cancelled", "Order already cancelled", "The order has already been cancelled"));
      const latest = [...cancellations.values()].filter((other) => other.order_id === cancelled.id).at(-1);
      if (latest !== cancellation) return send(response, 422, errorBody(422, "validation_error", "invalid_order_cancellation", "Invalid order cancellation", "Only the most recent order cancellation of an order can be confirmed"));
      cancellation.confirmed_at = new Date().toISOString();
      cancelled.cancelled = true;
      if (cancellation.refund_to === "airline_credits" && (cancellation.airline_credits as unknown[]).length === 0) {
        const passengers = (cancelled.body.passengers as Array<{ id: string }> | undefined) ?? [];
        const each = cancellation.refund_amount === null ? null : (Number(cancellation.refund_amount) / passengers.length).toFixed(2);
        cancellation.airline_credits = passengers.map((passenger, index) => ({
          id: duffelId("acd"),
          passenger_id: passenger.id,
          credit_amount: each,
          credit_currency: each === null ? null : cancellation.refund_currency,
          credit_code: `CR${cancelled.id.slice(-6).toUpperCase()}${index}`,
          credit_name: "Airline credit",
          expires_at: new Date(Date.now() + 365 * 86_400_000).toISOString(),
          issued_on: new Date().toISOString().slice(0, 10),
        }));
      }
      return send(response, 200, { data: cancellation });
    }
    if (route === "POST /air/order_change_requests") {
      const order = orders.get(String(data.order_id));
      if (!order) return notFound(response);
      if (!order.paid || order.cancelled) return send(response, 422, errorBody(422, "invalid_state_error", "order_not_changeable", "Order not changeable", "Only a paid order that is not cancelled can be changed"));
      const requested = data.slices as { add?: Array<{ origin: string; destination: string; departure_date: string; cabin_class?: string }>; remove?: Array<{ slice_id: string }> } | undefined;
      const current = orderSlices(order);
      const removed = (requested?.remove ?? []).map((slice) => current.find((booked) => booked.id === slice.slice_id));
      if (removed.length === 0 || removed.some((slice) => slice === undefined)) return send(response, 422, errorBody(422, "validation_error", "invalid_data", "Invalid data", "slices.remove must name slices of the order"));
      const add = requested?.add ?? [];
      const offerPassengers = (offers.get(order.offerId)!.passengers as Array<{ type: string; age?: number }>).map(({ type, age }) => ({ type, ...(age !== undefined && { age }) }));
      const answer = makeOfferRequest(add, offerPassengers, add[0]?.cabin_class ?? "economy", order.totalCurrency, CARRIERS.length);
      // Each airline's flights as a change offer: a change total of 20.00 more per airline, its penalty included.
      const offered = answer.offers.map((offer, index) => {
        const changeTotal = (fake.changeTotalBase + index * 20).toFixed(2);
        const changeOffer = {
          id: duffelId("oco"),
          order_change_id: null as string | null,
          change_total_amount: changeTotal,
          change_total_currency: order.totalCurrency,
          new_total_amount: addAmounts(order.totalAmount, changeTotal),
          new_total_currency: order.totalCurrency,
          penalty_total_amount: "10.00",
          penalty_total_currency: order.totalCurrency,
          refund_to: "balance",
          expires_at: new Date(Date.now() + fake.changeOfferLifetimeMs).toISOString(),
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
          slices: { add: offer.slices.map((slice) => ({ ...slice, segments: slice.segments.map(({ passengers: _passengers, ...segment }) => segment) })), remove: removed },
          order_id: order.id,
        };
        changeOffers.set(changeOffer.id, changeOffer);
        return changeOffer;
      });
      fake.lastChangeOfferIds = offered.map((offer) => offer.id);
      return send(response, 201, { data: { id: duffelId("ocr"), order_id: order.id, live_mode: false, created_at: new Date().toISOString(), slices: data.slices, order_change_offers: offered } });
    }
    if ((match = /^GET \/air\/order_change_offers\/([^/]+)$/.exec(route))) {
      const changeOffer = changeOffers.get(match[1]!);
      return changeOffer ? send(response, 200, { data: changeOffer }) : notFound(response);
    }
    if (route === "POST /air/order_changes") {
      const changeOffer = changeOffers.get(String(data.selected_order_change_offer));
      if (!changeOffer) return notFound(response);
      if (Date.parse(String(changeOffer.expires_at)) <= Date.now()) return gone(response);
      const change = { id: duffelId("oce"), order_id: changeOffer.order_id, change_total_amount: changeOffer.change_total_amount, change_total_currency: changeOffer.change_total_currency, new_total_amount: changeOffer.new_total_amount, new_total_currency: changeOffer.new_total_currency, penalty_total_amount: changeOffer.penalty_total_amount, penalty_total_currency: changeOffer.penalty_total_currency, refund_to: "balance", confirmed_at: null as string | null, expires_at: changeOffer.expires_at, created_at: new Date().toISOString(), live_mode: false, slices: changeOffer.slices };
      changes.set(change.id, change);
      changeOffer.order_change_id = change.id;
      return send(response, 201, { data: change });
    }
    if ((match = /^GET \/air\/order_changes\/([^/]+)$/.exec(route))) {
      const change = changes.get(match[1]!);
      return change ? send(response, 200, { data: change }) : notFound(response);
    }
    if ((match = /^POST \/air\/order_changes\/([^/]+)\/actions\/confirm$/.exec(route))) {
      const change = changes.get(match[1]!);
      if (!change) return notFound(response);
      // Duffel confirms a change once, before it expires, paid exactly its change total.
      if (change.confirmed_at !== null) return send(response, 422, errorBody(422, "invalid_state_error", "already_confirmed", "Order change already confirmed", "The order change has already been confirmed"));
      if (Date.parse(String(change.expires_at)) <= Date.now()) return gone(response);
      const payment = data.payment as { type?: string; amount?: string; currency?: string } | undefined;
      const owed = Number(change.change_total_amount) > 0;
      if (owed && (payment?.type !== "balance" || payment.amount !== change.change_total_amount || payment.currency !== change.change_total_currency)) {
        return send(response, 422, errorBody(422, "validation_error", "payment_amount_does_not_match_order_amount", "Payment amount does not match", `The change costs ${String(change.change_total_amount)} ${String(change.change_total_currency)}`));
      }
      const order = orders.get(change.order_id as string)!;
      const slices = change.slices as { add: unknown[]; remove: Array<{ id: string }> };
      const removedIds = new Set(slices.remove.map((slice) => slice.id));
      order.slices = [...orderSlices(order).filter((slice) => !removedIds.has(slice.id)), ...slices.add];
      order.totalAmount = String(change.new_total_amount);
      order.reissues = (order.reissues ?? 0) + 1;
      change.confirmed_at = new Date().toISOString();
      fake.confirmedChanges.push({ id: change.id as string, amount: owed ? String(change.change_total_amount) : "0.00", currency: String(change.change_total_currency) });
      return send(response, 200, { data: change });
    }
    if (route === "GET /air/airline_initiated_changes") {
      const orderId = query.get("order_id");
      if (orderId) airlineChangeOf(orderId);
      return sendPage(response, [...airlineChanges.values()].filter((change) => !orderId || change.order_id === orderId), query);
    }
    if ((match = /^POST \/air\/airline_initiated_changes\/([^/]+)\/actions\/accept$/.exec(route))) {
      const change = airlineChanges.get(match[1]!);
      if (!change) return notFound(response);
      fake.acceptsOfChange.set(change.id as string, (fake.acceptsOfChange.get(change.id as string) ?? 0) + 1);
      if (change.action_taken !== null && change.action_taken !== "accepted") return send(response, 422, errorBody(422, "invalid_state_error", "already_actioned", "Already actioned", "The airline-initiated change was already actioned"));
      change.action_taken ??= "accepted";
      change.action_taken_at ??= new Date().toISOString();
      const order = orders.get(change.order_id as string);
      if (order) order.slices = change.added as unknown[];
      return send(response, 200, { data: change });
    }
    if (route === "POST /air/webhooks") {
      if (typeof data.url !== "string" || !Array.isArray(data.events) || data.events.length === 0) {
        return send(response, 422, errorBody(422, "validation_error", "validation_required", "Field required", "url and events are required"));
      }
      const webhook: FakeWebhook = { id: duffelId("sev"), url: data.url, events: data.events as string[], secret: randomBytes(16).toString("base64url"), createdAt: new Date().toISOString(), token };
      fake.webhooks.set(webhook.id, webhook);
      return send(response, 201, { data: { ...webhookView(webhook), secret: webhook.secret } });
    }
    if (route === "GET /air/webhooks") {
      return sendPage(response, [...fake.webhooks.values()].filter((webhook) => webhook.token === token).map(webhookView), query);
    }
    if ((match = /^DELETE \/air\/webhooks\/([^/]+)$/.exec(route))) {
      const webhook = fake.webhooks.get(match[1]!);
      if (!webhook || webhook.token !== token) return notFound(response);
      fake.webhooks.delete(webhook.id);
      response.writeHead(204).end();
      return;
    }
    return notFound(response);
  }

  /** The order's slices as Duffel has them now (its offer's until a change). */
  function orderSlices(order: FakeOrder): Array<{ id: string } & Record<string, unknown>> {
    return (order.slices ?? offers.get(order.offerId)!.slices) as Array<{ id: string } & Record<string, unknown>>;
  }

  /** A webhook as Duffel shows it: never its secret after it was created. */
  function webhookView(webhook: FakeWebhook): Record<string, unknown> {
    return { id: webhook.id, url: webhook.url, events: webhook.events, active: true, live_mode: false, created_at: webhook.createdAt, updated_at: webhook.createdAt };
  }

  /**
   * The airline's change of the order, as Duffel's test mode makes one for a paid order on
   * LHR→LTN: its flights retimed 2 h 05 min later (the same flights, new times); none for any
   * other order.
   */
  function airlineChangeOf(orderId: string): Record<string, unknown> | undefined {
    const existing = [...airlineChanges.values()].find((change) => change.order_id === orderId);
    const order = orders.get(orderId);
    if (existing || !order || !order.paid || order.cancelled || journeys.get(order.offerId) !== "airline_change") return existing;
    const removed = (order.slices ?? offers.get(order.offerId)!.slices) as Array<Record<string, unknown> & { segments: Array<Record<string, unknown>> }>;
    const later = (local: unknown) => new Date(Date.parse(`${String(local)}Z`) + 125 * 60_000).toISOString().slice(0, 19);
    const added = removed.map((slice) => ({ ...slice, id: duffelId("sli"), segments: slice.segments.map((segment) => ({ ...segment, id: duffelId("seg"), departing_at: later(segment.departing_at), arriving_at: later(segment.arriving_at) })) }));
    const now = new Date().toISOString();
    const change = { id: duffelId("aic"), order_id: order.id, action_taken: null, action_taken_at: null, available_actions: ["accept", "cancel", "change", "update"], added, removed, created_at: now, updated_at: now };
    airlineChanges.set(change.id, change);
    return change;
  }

  function send(response: ServerResponse, status: number, body: unknown, limit: { remaining?: number; resetAt?: number } = {}): void {
    remaining = limit.remaining ?? Math.max(0, remaining - 1);
    if (remaining === 0 && limit.remaining === undefined) remaining = RATE_LIMIT;
    const resetAt = limit.resetAt ?? Date.now() + 60_000;
    const text = body === undefined ? "" : JSON.stringify(body);
    const logged = answering.get(response);
    if (logged) logged.answerBytes = Buffer.byteLength(text);
    response.writeHead(status, {
      "content-type": "application/json",
      "ratelimit-limit": String(RATE_LIMIT),
      "ratelimit-remaining": String(remaining),
      "ratelimit-reset": new Date(Math.ceil(resetAt / 1000) * 1000).toUTCString(),
      "x-request-id": duffelId("req"),
    });
    response.end(text);
  }

  function sendPage(response: ServerResponse, items: unknown[], query: URLSearchParams): void {
    const limit = Math.min(200, Math.max(1, Number(query.get("limit") ?? 50)));
    const start = query.get("after") ? Number(Buffer.from(query.get("after")!, "base64url").toString()) : 0;
    const page = items.slice(start, start + limit);
    const after = start + limit < items.length ? Buffer.from(String(start + limit)).toString("base64url") : null;
    send(response, 200, { data: page, meta: { after, before: null, limit } });
  }

  function notFound(response: ServerResponse): void {
    send(response, 404, errorBody(404, "invalid_request_error", "not_found", "Not found", "The resource you are trying to access does not exist"));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake as DuffelFake;
}

type OrderPassengerInput = { id?: string; identity_documents?: Array<{ type?: string; unique_identifier?: string; issuing_country_code?: string; expires_on?: string }>; infant_passenger_id?: string | null };

/**
 * What Duffel refuses in an order's passengers: one missing an identity document (one at most,
 * a passport with its number, issuing country and expiry) when the offer says
 * `passenger_identity_documents_required`, and an infant without a seat that no adult holds
 * (`infant_passenger_id`), or one named by a passenger who is not an adult.
 */
function passengersRefusal(offer: Record<string, unknown>, passengers: OrderPassengerInput[]): { code: string; title: string; message: string } | null {
  const types = new Map((offer.passengers as Array<{ id: string; type: string }>).map((passenger) => [passenger.id, passenger.type]));
  for (const [index, passenger] of passengers.entries()) {
    const documents = passenger.identity_documents ?? [];
    if (documents.length > 1) return { code: "invalid_data", title: "Invalid data", message: `passengers[${index}].identity_documents: only one identity document may be given` };
    const document = documents[0];
    if (document && (document.type !== "passport" || !document.unique_identifier || !/^[A-Z]{2}$/.test(document.issuing_country_code ?? "") || !/^\d{4}-\d{2}-\d{2}$/.test(document.expires_on ?? ""))) {
      return { code: "invalid_data", title: "Invalid data", message: `passengers[${index}].identity_documents[0] must be a passport with unique_identifier, issuing_country_code and expires_on` };
    }
    if (offer.passenger_identity_documents_required === true && !document) {
      return { code: "validation_required", title: "Required field", message: `passengers[${index}].identity_documents: the offer requires an identity document for every passenger` };
    }
    if (passenger.infant_passenger_id != null && (types.get(passenger.id ?? "") !== "adult" || types.get(passenger.infant_passenger_id) !== "infant_without_seat")) {
      return { code: "invalid_data", title: "Invalid data", message: `passengers[${index}].infant_passenger_id must name an infant without a seat, on an adult` };
    }
  }
  const held = passengers.map((passenger) => passenger.infant_passenger_id).filter((id): id is string => typeof id === "string");
  const unheld = [...types].find(([id, type]) => type === "infant_without_seat" && held.filter((heldId) => heldId === id).length !== 1);
  if (unheld) return { code: "invalid_data", title: "Invalid data", message: `the infant ${unheld[0]} must be held by exactly one adult (infant_passenger_id)` };
  return null;
}

function errorBody(status: number, type: string, code: string, title: string, message: string) {
  return { errors: [{ type, code, title, message, documentation_url: `https://duffel.com/docs/api/overview/errors#${code}` }], meta: { status, request_id: duffelId("req") } };
}

function duffelId(prefix: string): string {
  return `${prefix}_0000${randomBytes(9).toString("base64url").replace(/[-_]/g, "A")}`;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (text += chunk)).on("end", () => resolve(text)).on("error", reject);
  });
}

function addAmounts(a: string, b: string): string {
  return ((Math.round(Number(a) * 100) + Math.round(Number(b) * 100)) / 100).toFixed(2);
}

/** The fake's airlines, each with its own departure time and price: enough to tell offers apart. */
const CARRIERS = [
  { iata_code: "BA", name: "British Airways", departs: "08:35", minutes: 475, price: 41255 },
  { iata_code: "VS", name: "Virgin Atlantic", departs: "11:20", minutes: 490, price: 38820 },
  { iata_code: "AA", name: "American Airlines", departs: "17:05", minutes: 465, price: 45010 },
];

/** A city's main airport: Duffel answers a search from a city code with flights between airports. */
/**
 * Duffel's test-mode journeys, by a search's first origin and destination airports: as Duffel's
 * sandbox does, the offer is gone at booking, its price rises on every read, the airline is
 * unknown (502), the balance is short, the search times out (504), the airline changes the paid
 * order (an airline-initiated change), or a refund goes to airline credits.
 */
const TEST_JOURNEYS: Record<string, "offer_gone" | "price_rises" | "airline_unknown" | "insufficient_balance" | "search_timeout" | "airline_change" | "airline_credits"> = {
  "LGW-LHR": "offer_gone",
  "LHR-STN": "price_rises",
  "LHR-LGW": "airline_unknown",
  "LGW-STN": "insufficient_balance",
  "STN-LHR": "search_timeout",
  "LHR-LTN": "airline_change",
  "LTN-SYD": "airline_credits",
};

const CITY_AIRPORTS: Record<string, string> = { LON: "LHR", NYC: "JFK", PAR: "CDG", CHI: "ORD", MIL: "MXP" };

function place(code: string) {
  return duffelAirport(CITY_AIRPORTS[code] ?? code);
}

/**
 * An offer request's answer: one offer per carrier, cheapest last but one; `offersPerSearch` more
 * than that puts dearer offers (other flight numbers) before them, as a large real answer comes in
 * no useful order.
 */
function makeOfferRequest(slices: Array<{ origin: string; destination: string; departure_date: string }>, passengers: Array<{ type: string; age?: number }>, cabinClass: string, currency: string, offersPerSearch: number) {
  const offerRequestId = duffelId("orq");
  const requestPassengers = passengers.map((passenger) => ({ id: duffelId("pas"), type: passenger.type, ...(passenger.age !== undefined && { age: passenger.age }) }));
  const extra = Math.max(0, offersPerSearch - CARRIERS.length);
  const slots = [
    ...Array.from({ length: extra }, (_, slot) => ({ index: slot % CARRIERS.length, flightNumber: 200 + slot, price: CARRIERS[slot % CARRIERS.length]!.price + (extra - slot) * 1000 })),
    ...CARRIERS.map((carrier, index) => ({ index, flightNumber: 100 + index, price: carrier.price })),
  ];
  const offers = slots.map(({ index, flightNumber, price }) => {
    const carrier = CARRIERS[index]!;
    const total = ((price * requestPassengers.length) / 100).toFixed(2);
    return {
      id: duffelId("off"),
      offer_request_id: offerRequestId,
      live_mode: false,
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 30 * 60_000).toISOString(),
      total_amount: total,
      total_currency: currency,
      base_amount: (Number(total) * 0.8).toFixed(2),
      base_currency: currency,
      tax_amount: (Number(total) - Number((Number(total) * 0.8).toFixed(2))).toFixed(2),
      tax_currency: currency,
      ...offerExtras(),
      owner: duffelAirline(carrier),
      passengers: requestPassengers,
      passenger_identity_documents_required: true,
      payment_requirements: { requires_instant_payment: index === 0, payment_required_by: index === 0 ? null : new Date(Date.now() + 24 * 3600_000).toISOString(), price_guarantee_expires_at: index === 0 ? null : new Date(Date.now() + 12 * 3600_000).toISOString() },
      conditions: {
        change_before_departure: { allowed: true, penalty_amount: "50.00", penalty_currency: currency },
        refund_before_departure: index === 2 ? { allowed: true, penalty_amount: "100.00", penalty_currency: currency } : { allowed: false, penalty_amount: null, penalty_currency: null },
      },
      slices: slices.map((slice) => {
        const departing = `${slice.departure_date}T${carrier.departs}:00`;
        const arrivingMs = Date.parse(`${departing}Z`) + (carrier.minutes - 300) * 60_000;
        const segment = {
          id: duffelId("seg"),
          origin: place(slice.origin),
          destination: place(slice.destination),
          departing_at: departing,
          arriving_at: new Date(arrivingMs).toISOString().slice(0, 19),
          ...segmentExtras(),
          marketing_carrier: duffelAirline(carrier),
          marketing_carrier_flight_number: String(flightNumber),
          operating_carrier: duffelAirline(carrier),
          operating_carrier_flight_number: String(flightNumber),
          aircraft: { iata_code: "77W", name: "Boeing 777-300ER" },
          duration: `PT${Math.floor(carrier.minutes / 60)}H${carrier.minutes % 60}M`,
          distance: "5540.1",
          passengers: requestPassengers.map((passenger) => ({ passenger_id: passenger.id, cabin_class: cabinClass, cabin_class_marketing_name: "Economy", cabin: duffelCabin(cabinClass), baggages: [{ type: "checked", quantity: 1 }, { type: "carry_on", quantity: 1 }] })),
        };
        return { ...sliceExtras(), id: duffelId("sli"), origin: place(slice.origin), destination: place(slice.destination), duration: segment.duration, fare_brand_name: index === 2 ? "Flex" : "Basic", segments: [segment] };
      }),
    };
  });
  return { id: offerRequestId, live_mode: false, created_at: new Date().toISOString(), cabin_class: cabinClass, slices: slices.map((slice) => ({ origin: place(slice.origin), destination: place(slice.destination), departure_date: slice.departure_date })), passengers: requestPassengers, offers };
}

function availableServices(offer: Record<string, unknown>) {
  const passengers = offer.passengers as Array<{ id: string }>;
  const segments = (offer.slices as Array<{ segments: Array<{ id: string }> }>).flatMap((slice) => slice.segments);
  return passengers.map((passenger) => ({ id: duffelId("ase"), type: "baggage", total_amount: "30.00", total_currency: offer.total_currency, passenger_ids: [passenger.id], segment_ids: segments.map((segment) => segment.id), maximum_quantity: 2, metadata: { type: "checked", maximum_weight_kg: 23 } }));
}

function seatMaps(offer: Record<string, unknown>) {
  const passengers = offer.passengers as Array<{ id: string }>;
  return (offer.slices as Array<{ id: string; segments: Array<{ id: string }> }>).flatMap((slice) =>
    slice.segments.map((segment) => ({
      id: duffelId("sea"),
      slice_id: slice.id,
      segment_id: segment.id,
      cabins: [
        {
          cabin_class: "economy",
          deck: 0,
          aisles: 1,
          wings: { first_row_index: 0, last_row_index: 1 },
          rows: [10, 11].map((row) => ({
            sections: [
              {
                // 10A is taken (no services); row 11 costs more.
                elements: ["A", "B", "C"].map((letter) => ({
                  type: "seat",
                  designator: `${row}${letter}`,
                  name: row === 11 ? "Extra legroom seat" : "Standard seat",
                  disclosures: [],
                  available_services: row === 10 && letter === "A" ? [] : passengers.map((passenger) => ({ id: duffelId("ase"), passenger_id: passenger.id, total_amount: row === 11 ? "25.00" : "12.00", total_currency: offer.total_currency })),
                })),
              },
            ],
          })),
        },
      ],
    })),
  );
}

function seatElementsOf(map: Record<string, unknown>) {
  const cabins = map.cabins as Array<{ rows: Array<{ sections: Array<{ elements: Array<{ type: string; designator: string; available_services: Array<{ id: string; passenger_id: string; total_amount: string }> }> }> }> }>;
  return cabins.flatMap((cabin) => cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements.filter((element) => element.type === "seat"))));
}

function orderView(order: FakeOrder, offer: Record<string, unknown>, ticketsWithheld: boolean) {
  const given = (order.body.passengers as Array<{ id: string; given_name: string; family_name: string }> | undefined) ?? [];
  return {
    id: order.id,
    live_mode: false,
    created_at: new Date().toISOString(),
    booking_reference: order.pending ? null : order.id.slice(-6).toUpperCase(),
    total_amount: order.totalAmount,
    total_currency: order.totalCurrency,
    owner: offer.owner,
    slices: order.slices ?? offer.slices,
    passengers: given.map((passenger) => ({ id: passenger.id, given_name: passenger.given_name, family_name: passenger.family_name })),
    payment_status: { awaiting_payment: !order.paid, payment_required_by: order.paid ? null : (offer.payment_requirements as { payment_required_by: string | null }).payment_required_by, price_guarantee_expires_at: null },
    documents: order.paid && !order.pending && !ticketsWithheld ? given.map((passenger, index) => ({ type: "electronic_ticket", unique_identifier: order.reissues ? `126${String(order.reissues).padStart(9, "0")}${index}` : `12500000000${index}`, passenger_ids: [passenger.id] })) : [],
    cancelled_at: order.cancelled ? new Date().toISOString() : null,
    metadata: order.metadata,
    services: order.services.map((service) => ({
      id: duffelId("ser"),
      type: service.type,
      quantity: service.quantity,
      total_amount: service.total_amount,
      total_currency: order.totalCurrency,
      passenger_ids: service.passenger_ids,
      segment_ids: service.segment_ids,
      ...(service.designator && { metadata: { designator: service.designator, name: "Seat", disclosures: [] } }),
    })),
  };
}
