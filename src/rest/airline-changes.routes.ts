import { simulateAirlineChangeInput } from "../airline-changes/airline-change.inputs";
import { tenantScope } from "../context/request-context";
import { airlineChangeSchema } from "./airline-change.schemas";
import { airlineChangeView } from "./airline-change.views";
import { ok, okSchema } from "./envelope";
import { restRoute } from "./route";

const tag = "Airline-initiated changes";

/** The airline's changes to booked flights (docs/rest-api.md#airline-initiated-changes): accepting one, and the sandbox trigger that makes one. */
export const airlineChangeRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/air/airline_initiated_changes/:id/actions/accept",
    operation: "acceptAirlineInitiatedChange",
    summary: "Accept an airline's change: the order's slices become the added ones, its seats move; the same answer to every repeat",
    tag,
    response: okSchema(airlineChangeSchema),
    // 503 service_unavailable: the acceptance stalled past its seat exchange's lease and was not made (a retry accepts it).
    errors: ["not_found", "order_state_conflict", "change_not_allowed", "offer_no_longer_available", "service_unavailable"],
    handle: async ({ ctx, params }) => ok(airlineChangeView(await ctx.services.airlineChanges.accept(tenantScope(ctx), params.id!)), "Airline-initiated change accepted"),
  }),
  restRoute({
    method: "POST",
    url: "/v1/sandbox/orders/:id/airline_initiated_change",
    operation: "simulateAirlineInitiatedChange",
    summary: "Sandbox only: make the airline retime or cancel a ticketed order's first flight (every ticketed order of the tenant on it gets the change)",
    tag,
    body: simulateAirlineChangeInput,
    status: 201,
    response: okSchema(airlineChangeSchema),
    errors: ["route_not_found", "not_found", "order_state_conflict", "change_not_allowed", "invalid_field_value", "unsupported_by_supplier"],
    handle: async ({ ctx, params, body }) => ok(airlineChangeView(await ctx.services.airlineChanges.simulate(tenantScope(ctx), params.id!, body.kind)), "Airline-initiated change made"),
  }),
];
