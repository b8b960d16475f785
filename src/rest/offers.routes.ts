import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { offerServices } from "../orders/services/service-selection";
import { ok, okSchema } from "./envelope";
import { offerDetailSchema } from "./offer.schemas";
import { offerDetailView } from "./offer.views";
import { restRoute } from "./route";
import { RenderedResponses } from "./rendered-responses";

const renderedOffers = new RenderedResponses(2000);

/** Single-offer retrieval (docs/rest-api.md#search-and-offers); an expired offer stays readable. */
export const offerRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/air/offers/:id",
    operation: "offer",
    summary: "Retrieve an offer, with payment requirements and optionally its available services",
    tag: "Search and offers",
    query: z.object({ return_available_services: z.enum(["true", "false"]).optional() }),
    response: okSchema(offerDetailSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params, query }) => {
      // The tenant check is the service's; the body of an immutable offer is then always the same.
      const offer = await ctx.services.offers.get(tenantScope(ctx), params.id!);
      const withServices = query.return_available_services === "true";
      const services = withServices ? await offerServices(ctx.services.gateway.orders, offer) : null;
      return renderedOffers.get(`${offer.id} ${withServices}`, () => ok(offerDetailView(offer, services)));
    },
  }),
];
