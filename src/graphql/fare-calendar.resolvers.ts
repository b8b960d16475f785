import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { formatMinor } from "../money/format";
import type { IndicativeFare } from "../search/fare-calendar.service";
import { parseDestinationsRequest, parseFareCalendarRequest } from "../search/fare-calendar.inputs";
import { fromGraphQLEnum } from "./enum-case";
import { inGraphQLFieldNames } from "./field-names";

/** The REST names the fare calendar's rules report, as GraphQL's arguments spell them. */
const FARE_CALENDAR_FIELD_NAMES: Readonly<Record<string, string>> = {
  cabin_class: "cabinClass",
  stay_days: "stayDays",
  max_price: "maxPrice",
};

const fareFields = (fare: IndicativeFare) => ({
  departureDate: fare.departureDate,
  returnDate: fare.returnDate,
  lowestTotalAmount: formatMinor(fare.lowestTotalAmount, fare.currency),
  totalCurrency: fare.currency,
  supplier: fare.supplier,
});

/** Indicative prices (docs/fare-calendar.md): the REST rules apply to GraphQL's arguments, in their names. */
export const fareCalendarResolvers: Resolvers = {
  Query: {
    fareCalendar: (_parent, args, ctx) =>
      inGraphQLFieldNames(FARE_CALENDAR_FIELD_NAMES, async () => {
        const request = parseFareCalendarRequest({
          origin: args.origin,
          destination: args.destination,
          from: args.from,
          to: args.to,
          cabin_class: args.cabinClass == null ? undefined : fromGraphQLEnum(args.cabinClass),
          adults: args.adults ?? undefined,
          stay_days: args.stayDays ?? undefined,
        });
        return (await ctx.services.fareCalendar.calendar(tenantScope(ctx), request)).map(fareFields);
      }),
    destinations: (_parent, args, ctx) =>
      inGraphQLFieldNames(FARE_CALENDAR_FIELD_NAMES, async () => {
        const request = parseDestinationsRequest({
          origin: args.origin,
          month: args.month,
          max_price: args.maxPrice ?? undefined,
          cabin_class: args.cabinClass == null ? undefined : fromGraphQLEnum(args.cabinClass),
        });
        return (await ctx.services.fareCalendar.destinations(tenantScope(ctx), request)).map((idea) => ({ destination: idea.destination, ...fareFields(idea) }));
      }),
  },
};
