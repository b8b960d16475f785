import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { seatMapQuery } from "../seat-maps/seat-map.inputs";
import { ok, okSchema } from "./envelope";
import { seatMapSchema } from "./seat-map.schemas";
import { seatMapView } from "./seat-map.views";
import { RenderedResponses } from "./rendered-responses";
import { restRoute } from "./route";

/**
 * A map depends only on its subject (an immutable offer, or an order and whether it takes
 * services) and what its supplier's answer says of it (its key: the seats taken, so a seat sold
 * since is never shown free): rendered once per subject and key. A widebody's is ~60 KB, so
 * fewer are kept than offers.
 */
const renderedMaps = new RenderedResponses(100);

/** Seat maps of an offer or a booked order (docs/rest-api.md#seat-maps). */
export const seatMapRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/air/seat_maps",
    operation: "seatMaps",
    summary: "Seat maps of an offer (offer_id) or a booked order (order_id, which needs orders: read too): one per segment, each seat for sale with a service per passenger",
    tag: "Search and offers",
    query: seatMapQuery,
    response: okSchema(z.array(seatMapSchema)),
    errors: ["not_found", "unsupported_by_supplier"],
    handle: async ({ ctx, query }) => {
      const { subject, maps } = await ctx.services.seatMaps.get(tenantScope(ctx), query);
      return renderedMaps.get(`${subject.id} ${subject.onSale} ${maps.key}`, () => ok(maps.draw().map(seatMapView)));
    },
  }),
];
