import { tenantScope, type RequestContext } from "../context/request-context";
import type { QueryDestinationsArgs, QueryFareCalendarArgs, Resolvers } from "../generated/graphql";
import { formatMinor } from "../money/format";
import type { IndicativeFare } from "../search/fare-calendar.service";
import { parseDestinationsRequest, parseFareCalendarRequest, type DestinationsRequest, type FareCalendarRequest } from "../search/fare-calendar.inputs";
import { calendarCost } from "../search/calendar-work";
import type { WorkPricedFields } from "./query-cost";
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

/** Query.fareCalendar's arguments as the fare calendar's request (its rules' 400s in REST's names). */
function fareCalendarRequest(args: QueryFareCalendarArgs): FareCalendarRequest {
  return parseFareCalendarRequest({
    origin: args.origin,
    destination: args.destination,
    from: args.from,
    to: args.to,
    cabin_class: args.cabinClass == null ? undefined : fromGraphQLEnum(args.cabinClass),
    adults: args.adults ?? undefined,
    stay_days: args.stayDays ?? undefined,
  });
}

function destinationsRequest(args: QueryDestinationsArgs): DestinationsRequest {
  return parseDestinationsRequest({
    origin: args.origin,
    month: args.month,
    max_price: args.maxPrice ?? undefined,
    cabin_class: args.cabinClass == null ? undefined : fromGraphQLEnum(args.cabinClass),
  });
}

/**
 * The operation cost of the fare calendar's fields (graphql/query-cost.ts): the fare searches
 * they ask for (search/calendar-work.ts), as REST charges them. Arguments the rules refuse
 * price as any field; the resolver then answers the refusal.
 */
export function calendarFieldCosts(ctx: RequestContext): WorkPricedFields {
  return {
    fields: new Set(["fareCalendar", "destinations"]),
    cost: (field, args) => {
      try {
        const service = ctx.services.fareCalendar;
        const searches = field === "fareCalendar" ? service.calendarSearches(fareCalendarRequest(args as QueryFareCalendarArgs)) : service.destinationsSearches(destinationsRequest(args as QueryDestinationsArgs));
        return calendarCost(searches);
      } catch {
        return undefined;
      }
    },
  };
}

/** Indicative prices (docs/fare-calendar.md): the REST rules apply to GraphQL's arguments, in their names. */
export const fareCalendarResolvers: Resolvers = {
  Query: {
    fareCalendar: (_parent, args, ctx) =>
      inGraphQLFieldNames(FARE_CALENDAR_FIELD_NAMES, async () => (await ctx.services.fareCalendar.calendar(tenantScope(ctx), fareCalendarRequest(args))).map(fareFields)),
    destinations: (_parent, args, ctx) =>
      inGraphQLFieldNames(FARE_CALENDAR_FIELD_NAMES, async () =>
        (await ctx.services.fareCalendar.destinations(tenantScope(ctx), destinationsRequest(args))).map((idea) => ({ destination: idea.destination, ...fareFields(idea) })),
      ),
  },
};
