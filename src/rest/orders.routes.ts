import { z } from "zod";
import type { Operation } from "../context/operations";
import { tenantScope, type RequestContext } from "../context/request-context";
import { AppError, appError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalogue";
import type { OrderDetail, OrderStatus } from "../orders/core/order";
import type { CreateOrderRequest } from "../orders/core/order-commands";
import { createOrderInputA, createOrderInputB, fromOrderInputA, fromOrderInputB, fromUpdatePassengersInput, updatePassengersInput } from "./order.inputs";
import { parseInput } from "../validation/parse-input";
import { ok, okPage, okPageSchema, okSchema } from "./envelope";
import { createdOrderBSchema, documentDetailSchema, orderASchema, orderBSchema, orderDetailSchema } from "./order.schemas";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { offerViewA } from "./offer.views";
import { availableActions } from "../orders/core/order-supplier";
import { createdOrderViewB, documentView, orderDetailView, orderViewA, orderViewB, statusFilter, STATUS_FILTER_VALUES } from "./order.views";
import { JsonText } from "./rendered-responses";
import { restRoute, type RestRoute } from "./route";

const tag = "Orders";

/**
 * What was rendered of each order detail: the orders service returns the same object while the
 * order is unchanged. What the order allows moves with time (a payment deadline passes), so a
 * rendering serves only while it still lists the same actions.
 */
const renderedOrders = new WeakMap<OrderDetail, { actions: string; text: JsonText<ReturnType<typeof orderDetailView>> }>();

/** Which variant an order request is (docs/rest-api.md#two-interface-variants): a body with `offerId` is Variant B, anything else Variant A. */
function parseCreateOrder(body: unknown): { variant: "A" | "B"; request: CreateOrderRequest } {
  if (typeof body === "object" && body !== null && !Array.isArray(body) && Object.hasOwn(body, "offerId")) {
    return { variant: "B", request: fromOrderInputB(parseInput(createOrderInputB, body)) };
  }
  return { variant: "A", request: fromOrderInputA(parseInput(createOrderInputA, body)) };
}

/** `?status=`, in either variant's spelling (any letter case: the document lists both variants' own). */
const orderStatusFilter = z
  .string()
  .refine((value) => statusFilter(value) !== undefined, { message: `must be one of ${STATUS_FILTER_VALUES.join(", ")}` })
  .meta({ enum: [...STATUS_FILTER_VALUES, ...new Set(STATUS_FILTER_VALUES.map(statusFilter))] })
  .transform((value): OrderStatus => statusFilter(value)!);

const orderListQuery = listQuery.extend({ status: orderStatusFilter.optional() });

/**
 * An order action on both path styles (docs/rest-api.md#orders-and-ticketing): Variant A's `/actions/<name>` answers the
 * Variant A order in `data`; Variant B's `/<name>` answers `{ order }`. `forB` turns an error
 * into Variant B's name for it.
 */
function orderAction(
  name: "ticket" | "cancel" | "refund",
  operation: Operation,
  summary: string,
  run: (ctx: RequestContext, orderId: string) => Promise<OrderDetail>,
  options: { idempotencyKeyRequired?: boolean; errors: { A: ErrorCode[]; B: ErrorCode[] }; forB?: (error: AppError) => AppError },
): RestRoute<undefined, Record<string, never>, unknown>[] {
  return [
    restRoute({
      method: "POST",
      url: `/v1/air/orders/:id/actions/${name}`,
      operation,
      summary: `${summary} (Variant A)`,
      tag,
      idempotencyKeyRequired: options.idempotencyKeyRequired,
      response: okSchema(orderASchema),
      errors: options.errors.A,
      handle: async ({ ctx, params }) => ok(orderViewA(await run(ctx, params.id!), tenantScope(ctx).clock.now(), ctx.services.gateway.orders)),
    }),
    restRoute({
      method: "POST",
      url: `/v1/air/orders/:id/${name}`,
      operation,
      summary: `${summary} (Variant B)`,
      tag,
      variant: "B",
      idempotencyKeyRequired: options.idempotencyKeyRequired,
      response: z.object({ order: orderBSchema }),
      errors: options.errors.B,
      handle: async ({ ctx, params }) => {
        try {
          return { order: orderViewB(await run(ctx, params.id!)) };
        } catch (error) {
          throw error instanceof AppError && options.forB ? options.forB(error) : error;
        }
      },
    }),
  ];
}

/** Variant B names insufficient balance at ticketing `TB_AUTH_101`, a 400 (docs/errors.md#codes). */
function insufficientBalanceAsB(error: AppError): AppError {
  return error.code === "insufficient_balance" ? appError("TB_AUTH_101", { reason: error.details.reason, replayReason: error.details.replayReason }) : error;
}

const passengerUpdate = (method: "POST" | "PUT") =>
  restRoute({
    method,
    url: "/v1/air/orders/:id/passengers",
    operation: "updateOrderPassengers",
    operationId: method === "PUT" ? "replaceOrderPassengers" : undefined,
    summary: "Change passengers' details while the order is pending",
    tag,
    body: updatePassengersInput,
    response: okSchema(orderASchema),
    // 422 unsupported_by_supplier: an order whose supplier keeps the names it booked (no holds on our terms).
    errors: ["not_found", "order_state_conflict", "unsupported_by_supplier"],
    handle: async ({ ctx, params, body }) => ok(orderViewA(await ctx.services.orders.updatePassengers(tenantScope(ctx), params.id!, fromUpdatePassengersInput(body)), tenantScope(ctx).clock.now(), ctx.services.gateway.orders), "Passengers updated"),
  });

/** Orders (docs/rest-api.md#orders-and-ticketing, docs/rest-api.md#two-interface-variants), both variants. */
export const orderRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/air/orders",
    operation: "createOrder",
    summary: "Book an offer (Variant A: selected_offers, passengers, payments; Variant B: offerId, passengers, services, metadata)",
    tag,
    body: z.union([createOrderInputA, createOrderInputB]) as unknown as z.ZodType<ReturnType<typeof parseCreateOrder>>,
    parseBody: parseCreateOrder,
    status: 201,
    idempotencyKeyRequired: true,
    response: z.union([okSchema(orderASchema), createdOrderBSchema]).meta({ description: "Variant A: the order in `data`. Variant B (a body with `offerId`): the order, unwrapped." }),
    // 503 service_unavailable: the booking stalled past its seat lease and was not made (a retry books it).
    // 422 invalid_field_value: a service id (services[i].id) the offer does not offer its passengers,
    // or a metadata key holding an invisible or direction-changing character.
    // 422 price_changed, unsupported_by_supplier, 502 supplier_error, 504 supplier_timeout: an offer its
    // supplier priced again, services asked of a supplier without them, the supplier failing or not answering in time.
    errors: ["not_found", "invalid_field_value", "offer_no_longer_available", "price_changed", "unsupported_by_supplier", "seat_unavailable", "payment_amount_mismatch", "insufficient_balance", "hold_limit_reached", "service_unavailable", "supplier_error", "supplier_timeout", "clock_advanced", "supplier_not_allowed"],
    handle: async ({ ctx, body, idempotencyKey }) => {
      const order = await ctx.services.orders.create(tenantScope(ctx), { ...body.request, ...(idempotencyKey && { idempotencyKey }) });
      return body.variant === "B" ? createdOrderViewB(order) : ok(orderViewA(order, tenantScope(ctx).clock.now(), ctx.services.gateway.orders), "Order created");
    },
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/orders",
    operation: "orders",
    summary: "List orders, newest first, optionally in one status",
    tag,
    query: orderListQuery,
    response: okPageSchema(orderASchema),
    handle: async ({ ctx, query }) => orderPage(ctx, query, 25),
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/orders/:id",
    operation: "order",
    summary: "Read an order with the offer as booked (data: Variant A; order and offer: Variant B)",
    tag,
    response: orderDetailSchema,
    errors: ["not_found"],
    handle: async ({ ctx, params }) => {
      const scope = tenantScope(ctx);
      const order = await ctx.services.orders.detail(scope, params.id!);
      const now = scope.clock.now();
      const actions = availableActions(order, now, ctx.services.gateway.orders).join();
      const rendered = renderedOrders.get(order);
      if (rendered?.actions === actions) return rendered.text;
      const text = new JsonText<ReturnType<typeof orderDetailView>>(JSON.stringify(orderDetailView(order, now, ctx.services.gateway.orders)));
      renderedOrders.set(order, { actions, text });
      return text;
    },
  }),
  passengerUpdate("POST"),
  passengerUpdate("PUT"),
  ...orderAction("ticket", "ticketOrder", "Ticket a pending order: debits the wallet; the outcome arrives later", (ctx, id) => ctx.services.ticketing.ticket(tenantScope(ctx), id), {
    idempotencyKeyRequired: true,
    // payment_amount_mismatch: services added while it was paid raised the total (read it and ticket again).
    errors: {
      A: ["not_found", "order_state_conflict", "price_changed", "payment_amount_mismatch", "insufficient_balance", "clock_advanced"],
      B: ["not_found", "order_state_conflict", "price_changed", "payment_amount_mismatch", "TB_AUTH_101", "clock_advanced"],
    },
    forB: insufficientBalanceAsB,
  }),
  ...orderAction("cancel", "cancelOrder", "Cancel a pending order and release its seats", (ctx, id) => ctx.services.orders.cancel(tenantScope(ctx), id), {
    errors: { A: ["not_found", "order_state_conflict"], B: ["not_found", "order_state_conflict"] },
  }),
  ...orderAction("refund", "refundOrder", "Refund a ticketed order (the fare's penalty is kept); completes after the airline confirms", (ctx, id) =>
    ctx.services.cancellations.requestRefund(tenantScope(ctx), id), {
    // 502 supplier_error, 504 supplier_timeout: a supplier that prices its own cancellations quotes the refund.
    errors: {
      A: ["not_found", "order_state_conflict", "refund_not_allowed", "supplier_error", "supplier_timeout", "clock_advanced"],
      B: ["not_found", "order_state_conflict", "refund_not_allowed", "supplier_error", "supplier_timeout", "clock_advanced"],
    },
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/orders/:id/documents/:documentId",
    operation: "order",
    operationId: "orderDocument",
    summary: "Read a document of the order (an electronic ticket, or an EMD of a service added after ticketing)",
    tag,
    response: okSchema(documentDetailSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => {
      const order = await ctx.services.orders.detail(tenantScope(ctx), params.id!);
      const document = order.documents.find((candidate) => candidate.id === params.documentId);
      if (!document) throw appError("not_found", { field: "documentId" });
      const passenger = order.passengers.find((candidate) => candidate.id === document.passengerId);
      return ok({
        ...documentView(document),
        order_id: order.id,
        booking_reference: order.bookingReference,
        passenger_name: passenger ? `${passenger.givenName} ${passenger.familyName}` : null,
        slices: offerViewA(order.offer).slices,
      });
    },
  }),
  restRoute({
    method: "GET",
    url: "/v1/bookings",
    operation: "bookings",
    summary: "List bookings (orders, Variant A), newest first",
    tag,
    query: orderListQuery,
    response: okPageSchema(orderASchema),
    handle: async ({ ctx, query }) => orderPage(ctx, query),
  }),
];

/** A page of the tenant's orders in Variant A, as of the tenant's time (`GET /v1/air/orders`, `GET /v1/bookings`). */
async function orderPage(ctx: RequestContext, query: z.output<typeof orderListQuery>, defaultLimit?: number) {
  const scope = tenantScope(ctx);
  const now = scope.clock.now();
  const page = await ctx.services.orders.listDetails(scope, { status: query.status }, pageRequestFromQuery(query, defaultLimit));
  return okPage(page, (order) => orderViewA(order, now, ctx.services.gateway.orders));
}
