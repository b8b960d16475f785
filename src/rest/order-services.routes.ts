import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { addServicesInput, fromAddServicesInput } from "../orders/services/service-addition.inputs";
import { ok, okSchema } from "./envelope";
import { availableServiceSchema } from "./offer.schemas";
import { availableServiceView } from "./offer.views";
import { orderASchema } from "./order.schemas";
import { orderViewA } from "./order.views";
import { restRoute } from "./route";

const tag = "Orders";

/** Services after booking (docs/rest-api.md#services-after-booking): what an order's passengers can still add, and adding it. */
export const orderServiceRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/air/orders/:id/available_services",
    operation: "orderAvailableServices",
    summary: "The bags and seats the order's passengers can still add (as an offer's available_services); seats by designator come from the order's seat maps",
    tag,
    response: okSchema(z.array(availableServiceSchema)),
    // 502 supplier_error, 504 supplier_timeout: a supplier selling bags after booking itself is asked for the order's.
    errors: ["not_found", "supplier_error", "supplier_timeout"],
    handle: async ({ ctx, params }) => ok((await ctx.services.serviceAdditions.available(tenantScope(ctx), params.id!)).map(availableServiceView)),
  }),
  restRoute({
    method: "POST",
    url: "/v1/air/orders/:id/services",
    operation: "addOrderServices",
    summary: "Add services to a pending order (its total grows) or a ticketed one (the wallet pays at once; an EMD per service follows)",
    tag,
    body: addServicesInput,
    status: 201,
    idempotencyKeyRequired: true,
    response: okSchema(orderASchema),
    // 503 service_unavailable: the addition stalled past its sale's lease (a seat sale was undone: a retry adds it; a sale
    // paid at the supplier is completed by the reconciler). 422 price_changed, 502 supplier_error, 504 supplier_timeout:
    // the supplier selling the services (a seat sale, or bags paid at the supplier) priced them otherwise or failed.
    errors: ["not_found", "order_state_conflict", "invalid_field_value", "seat_unavailable", "payment_amount_mismatch", "insufficient_balance", "price_changed", "service_unavailable", "supplier_error", "supplier_timeout", "unsupported_by_supplier"],
    handle: async ({ ctx, params, body }) => ok(orderViewA(await ctx.services.serviceAdditions.add(tenantScope(ctx), params.id!, fromAddServicesInput(body)), tenantScope(ctx).clock.now(), ctx.services.gateway.orders), "Services added"),
  }),
];
