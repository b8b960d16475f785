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
    errors: ["not_found"],
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
    // 503 service_unavailable: the addition stalled past its seat sale's lease and was not made (a retry adds it).
    errors: ["not_found", "order_state_conflict", "invalid_field_value", "seat_unavailable", "payment_amount_mismatch", "insufficient_balance", "service_unavailable", "unsupported_by_supplier"],
    handle: async ({ ctx, params, body }) => ok(orderViewA(await ctx.services.serviceAdditions.add(tenantScope(ctx), params.id!, fromAddServicesInput(body)), tenantScope(ctx).clock.now(), ctx.services.gateway.orders), "Services added"),
  }),
];
