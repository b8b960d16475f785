import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { formatMinor } from "../money/format";
import { seatMapQuery } from "../seat-maps/seat-map.inputs";
import { parseInput } from "../validation/parse-input";
import { toGraphQLEnum } from "./enum-case";
import { inGraphQLFieldNames } from "./field-names";

/** The REST query names the seat-map rules report, as the GraphQL arguments spell them. */
const SEAT_MAP_FIELD_NAMES: Readonly<Record<string, string>> = { offer_id: "offerId", order_id: "orderId" };

export const seatMapResolvers: Resolvers = {
  Query: {
    seatMaps: (_parent, { offerId, orderId }, ctx) =>
      inGraphQLFieldNames(SEAT_MAP_FIELD_NAMES, async () =>
        (await ctx.services.seatMaps.get(tenantScope(ctx), parseInput(seatMapQuery, { offer_id: offerId ?? undefined, order_id: orderId ?? undefined }))).maps.draw(),
      ),
  },
  SeatMapCabin: {
    cabinClass: (cabin) => toGraphQLEnum(cabin.cabinClass),
  },
  SeatMapElement: {
    type: (element) => toGraphQLEnum(element.type),
    designator: (element) => (element.type === "seat" ? element.designator : null),
    name: (element) => (element.type === "seat" ? element.name : null),
    disclosures: (element) => (element.type === "seat" ? [...element.disclosures] : null),
    availableServices: (element) => (element.type === "seat" ? element.availableServices : null),
  },
  SeatService: {
    totalAmount: (service) => formatMinor(service.totalAmount, service.currency),
    totalCurrency: (service) => service.currency,
  },
};
