import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { seatMapQuery } from "../seats/seat-map.inputs";
import { ok, okSchema } from "./envelope";
import { seatMapSchema } from "./seat-map.schemas";
import { seatMapView } from "./seat-map.views";
import { restRoute } from "./route";

/** Seat maps of an offer or a booked order (servicing §1). */
export const seatMapRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/air/seat_maps",
    operation: "seatMaps",
    summary: "Seat maps of an offer (offer_id) or a booked order (order_id): one per segment, each seat for sale with a service per passenger",
    tag: "Search and offers",
    query: seatMapQuery,
    response: okSchema(z.array(seatMapSchema)),
    errors: ["not_found"],
    handle: async ({ ctx, query }) => ok((await ctx.services.seatMaps.get(tenantScope(ctx), query)).map(seatMapView)),
  }),
];
