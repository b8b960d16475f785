import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { authorize } from "../../context/authorize";
import { tenantScope, type RequestContext } from "../../context/request-context";
import { AppError, appError } from "../../errors/app-error";
import { offerServices } from "../../orders/services/service-selection";
import { offerDetailView, offerRequestView, offerViewA } from "../../rest/offer.views";
import { orderViewA } from "../../rest/order.views";
import { paymentView } from "../../rest/payment.views";
import { cancellationView } from "../../rest/cancellation.views";
import { seatMapView } from "../../rest/seat-map.views";
import { seatMapQuery } from "../../seat-maps/seat-map.inputs";
import { parseInput } from "../../validation/parse-input";
import { duffelErrorBody, unsupportedResource } from "./errors";
import { listOf, pageRequest, parse, type Route } from "./route";
import { changeRoutes } from "./changes.routes";
import { webhookRoutes } from "./webhooks.routes";
import {
  createCancellationBody,
  createOrderBody,
  createOrderCommand,
  createPaymentBody,
  isInstant,
  offerRequestBody,
  offerListQuery,
  offerRequestQuery,
  offerSort,
  paymentCommand,
  searchCommand,
  updateOrderBody,
} from "./inputs";

/** Where the surface is mounted; the client's `basePath` is this, with its trailing slash. */
export const DUFFEL_MOUNT = "/duffel";

/** The only API version the surface speaks, as the client sends it in `Duffel-Version`. */
const DUFFEL_VERSION = "v2";

const orderView = (ctx: RequestContext, order: Parameters<typeof orderViewA>[0]) => orderViewA(order, tenantScope(ctx).clock.now(), ctx.services.gateway.orders);

/** The client's methods that a booking flow uses (docs/duffel-compatible.md#the-methods-that-work). */
const routes: Route[] = [
  {
    method: "POST",
    url: "/air/offer_requests",
    operation: "searchFlights",
    status: 201,
    body: true,
    handle: async ({ ctx, body, query }) => {
      const search = searchCommand(parseInput(offerRequestBody, body, "invalid_search_params"), parseInput(offerRequestQuery, query, "invalid_search_params"));
      const result = await ctx.services.search.search(tenantScope(ctx), search);
      const request = offerRequestView(result.offerRequest);
      if (!search.returnOffers) return { data: request };
      const offers = [...result.offers].sort((a, b) => a.totalAmount - b.totalAmount).map(offerViewA);
      return { data: { ...request, offers } };
    },
  },
  {
    method: "GET",
    url: "/air/offer_requests",
    operation: "offerRequests",
    handle: async ({ ctx, query }) => listOf(await ctx.services.offers.listRequests(tenantScope(ctx), pageRequest(query)), offerRequestView),
  },
  {
    method: "GET",
    url: "/air/offers",
    operation: "offers",
    handle: async ({ ctx, query }) => {
      const { offer_request_id, sort, max_connections, ...page } = query;
      const offerQuery = parse(offerListQuery, { offer_request_id, sort, max_connections });
      const scope = tenantScope(ctx);
      // Without a sort, as Duffel: in the search's own order.
      const offers =
        offerQuery.sort === undefined && offerQuery.max_connections === undefined
          ? await ctx.services.offers.list(scope, offerQuery.offer_request_id, pageRequest(page))
          : await ctx.services.offers.listSorted(scope, offerQuery.offer_request_id!, offerSort(offerQuery), pageRequest(page));
      return listOf(offers, offerViewA);
    },
  },
  {
    method: "GET",
    url: "/air/offers/:id",
    operation: "offer",
    handle: async ({ ctx, params, query }) => {
      const offer = await ctx.services.offers.get(tenantScope(ctx), params.id!);
      return { data: offerDetailView(offer, query.return_available_services === "true" ? await offerServices(ctx.services.gateway.orders, offer) : null) };
    },
  },
  {
    method: "GET",
    url: "/air/seat_maps",
    operation: "seatMaps",
    handle: async ({ ctx, query }) => {
      const { maps } = await ctx.services.seatMaps.get(tenantScope(ctx), parseInput(seatMapQuery, query));
      return { data: maps.draw().map(seatMapView) };
    },
  },
  {
    method: "POST",
    url: "/air/orders",
    operation: "createOrder",
    status: 201,
    body: true,
    // A retry needs no key: an offer books one order (the second is 422 offer_no_longer_available).
    handle: async ({ ctx, body }) => {
      const parsed = parse(createOrderBody, body);
      const scope = tenantScope(ctx);
      const order = await ctx.services.orders.create(scope, createOrderCommand(parsed));
      // Instant: paid from the wallet as it is booked (ticketing debits it).
      const placed = isInstant(parsed) ? await ctx.services.ticketing.ticket(scope, order.id) : order;
      return { data: orderView(ctx, placed) };
    },
  },
  {
    method: "GET",
    url: "/air/orders",
    operation: "orders",
    handle: async ({ ctx, query }) => {
      const { booking_reference: bookingReference, awaiting_payment: _awaiting, sort: _sort, ...page } = query;
      const filter = typeof bookingReference === "string" ? { bookingReference } : {};
      return listOf(await ctx.services.orders.listDetails(tenantScope(ctx), filter, pageRequest(page)), (order) => orderView(ctx, order));
    },
  },
  {
    method: "GET",
    url: "/air/orders/:id",
    operation: "order",
    handle: async ({ ctx, params }) => ({ data: orderView(ctx, await ctx.services.orders.detail(tenantScope(ctx), params.id!)) }),
  },
  {
    method: "PATCH",
    url: "/air/orders/:id",
    // The permission of changing an order's own details (orders:write), as /v1's passenger update.
    operation: "updateOrderPassengers",
    body: true,
    handle: async ({ ctx, params, body }) => ({ data: orderView(ctx, await ctx.services.orders.updateMetadata(tenantScope(ctx), params.id!, parse(updateOrderBody, body))) }),
  },
  {
    method: "POST",
    url: "/air/payments",
    operation: "payOrder",
    status: 201,
    body: true,
    handle: async ({ ctx, body }) => ({ data: paymentView(await ctx.services.ticketing.payOrder(tenantScope(ctx), paymentCommand(parse(createPaymentBody, body)))) }),
  },
  {
    method: "POST",
    url: "/air/order_cancellations",
    operation: "quoteOrderCancellation",
    status: 201,
    body: true,
    handle: async ({ ctx, body }) => ({ data: cancellationView(await ctx.services.cancellations.quote(tenantScope(ctx), parse(createCancellationBody, body).data.order_id)) }),
  },
  {
    method: "POST",
    url: "/air/order_cancellations/:id/actions/confirm",
    operation: "confirmOrderCancellation",
    handle: async ({ ctx, params }) => ({ data: cancellationView(await ctx.services.cancellations.confirm(tenantScope(ctx), params.id!)) }),
  },
  {
    method: "GET",
    url: "/air/order_cancellations/:id",
    operation: "orderCancellation",
    handle: async ({ ctx, params }) => ({ data: cancellationView(await ctx.services.cancellations.get(tenantScope(ctx), params.id!)) }),
  },
  {
    method: "GET",
    url: "/air/order_cancellations",
    operation: "orderCancellations",
    handle: async ({ ctx, query }) => {
      const { order_id: orderId, ...page } = query;
      return listOf(await ctx.services.cancellations.list(tenantScope(ctx), typeof orderId === "string" ? orderId : undefined, pageRequest(page)), cancellationView);
    },
  },
];

function sendDuffelError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const retryAfter = error.details.retryAfterSeconds;
  if (retryAfter !== undefined) reply.header("retry-after", String(retryAfter));
  return reply.code(error.status).send(duffelErrorBody(error, request.id));
}

/**
 * The Duffel-compatible surface (docs/duffel-compatible.md): Duffel API v2's paths, envelopes,
 * lists and errors over the same domain as /v1 and GraphQL, for Duffel's official client
 * pointed here. Authenticated like /v1 (http/authentication.ts); anything else under the mount
 * answers Duffel's 404.
 */
export async function registerDuffelRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    async (mount) => {
      mount.setErrorHandler((error, request, reply) => {
        if (error instanceof AppError) return sendDuffelError(request, reply, error);
        // The framework's own refusals (a body too large, malformed JSON) stay the client's.
        const status = (error as { statusCode?: number }).statusCode;
        if (typeof status === "number" && status >= 400 && status < 500) return sendDuffelError(request, reply, appError("validation_failed", { reason: (error as Error).message }));
        request.log.error({ err: error }, "request failed");
        return sendDuffelError(request, reply, appError("internal_server_error"));
      });
      mount.setNotFoundHandler((request, reply) => sendDuffelError(request, reply, unsupportedResource(request.url.split("?", 1)[0]!.slice(DUFFEL_MOUNT.length))));
      mount.addHook("preHandler", async (request) => {
        const version = request.headers["duffel-version"];
        if (version !== undefined && version !== DUFFEL_VERSION) {
          throw appError("validation_failed", { field: "Duffel-Version", reason: `Duffel-Version must be ${DUFFEL_VERSION} (or left out).` });
        }
      });
      for (const route of [...routes, ...changeRoutes, ...webhookRoutes]) {
        // The client sends some creates with a trailing slash: both spellings route here.
        for (const url of route.method === "POST" ? [route.url, `${route.url}/`] : [route.url]) {
          mount.route({
            method: route.method,
            url,
            config: { operation: route.operation, variant: "A", jsonObjectBody: route.body ?? false, validatesNulText: false },
            handler: async (request, reply) => {
              const ctx = request.ctx;
              if (!ctx) throw new Error(`${url} reached without a request context`);
              const query = request.query as Record<string, unknown>;
              await authorize(ctx, route.operation, query);
              const answer = await route.handle({ ctx, body: request.body, query, params: request.params as Record<string, string> });
              return reply.code(route.status ?? 200).send(answer);
            },
          });
        }
      }
    },
    { prefix: DUFFEL_MOUNT },
  );
}
