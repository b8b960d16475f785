import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { seatMapQuery } from "../seat-maps/seat-map.inputs";
import { ok, okSchema } from "./envelope";
import { seatMapSchema } from "./seat-map.schemas";
import { seatMapView } from "./seat-map.views";
import { RenderedResponses } from "./rendered-responses";
import { restRoute } from "./route";
import type { SeatMapSubject } from "../connectors/simulated/seating/seat-map";

/**
 * A map depends only on its subject (an immutable offer, or an order and whether it takes
 * services), its flights' fixed seating and the seats bookings hold: rendered once per subject
 * and set of taken seats (part of the key, so a seat sold since is never shown free). A
 * widebody's is ~60 KB, so fewer are kept than offers.
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
      const subject = await ctx.services.seatMaps.subject(tenantScope(ctx), query);
      return renderedMaps.get(`${subject.id} ${subject.onSale} ${takenKey(subject)}`, () => ok(ctx.services.seatMaps.maps(subject).map(seatMapView)));
    },
  }),
];

/** The seats taken on the subject's flights, in a fixed order: equal sets give equal keys. */
function takenKey(subject: SeatMapSubject): string {
  return [...subject.taken]
    .map(([flightKey, designators]) => `${flightKey}:${[...designators].sort().join(",")}`)
    .sort()
    .join(";");
}
