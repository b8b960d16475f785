import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { availableServices } from "../search/available-services";
import { ok } from "./envelope";
import { offerDetailView } from "./offer.views";
import { restRoute } from "./route";

/** Single-offer retrieval (interface §4.5); an expired offer stays readable. */
export const offerRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/air/offers/:id",
    operation: "offer",
    summary: "Retrieve an offer, with payment requirements and optionally its available services",
    tag: "Search and offers",
    query: z.object({ return_available_services: z.enum(["true", "false"]).optional() }),
    handle: async ({ ctx, params, query }) => {
      const offer = await ctx.services.offers.get(tenantScope(ctx), params.id!);
      return ok(offerDetailView(offer, query.return_available_services === "true" ? availableServices(offer) : null));
    },
  }),
];
