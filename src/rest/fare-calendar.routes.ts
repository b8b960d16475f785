import { z } from "zod";
import { tenantScope } from "../context/request-context";
import type { DestinationIdea, IndicativeFare } from "../search/fare-calendar.service";
import { destinationsInput, fareCalendarInput, fromDestinationsInput, fromFareCalendarInput } from "../search/fare-calendar.inputs";
import { formatMinor } from "../money/format";
import { toLocationView } from "../locations/location-view";
import { ok, okSchema } from "./envelope";
import { locationSchema } from "./location.schemas";
import { restRoute } from "./route";
import { chargeCost } from "./cost-charge";
import { calendarCost } from "../search/calendar-work";

const tag = "Fare calendar";

const indicativeFareSchema = z
  .object({
    departure_date: z.string(),
    return_date: z.string().optional(),
    lowest_total_amount: z.string(),
    total_currency: z.string(),
    supplier: z.string(),
  })
  .meta({ id: "IndicativeFare" });

const destinationIdeaSchema = indicativeFareSchema.extend({ destination: locationSchema }).meta({ id: "DestinationIdea" });

function indicativeFareView(fare: IndicativeFare): z.output<typeof indicativeFareSchema> {
  return {
    departure_date: fare.departureDate,
    ...(fare.returnDate === null ? {} : { return_date: fare.returnDate }),
    lowest_total_amount: formatMinor(fare.lowestTotalAmount, fare.currency),
    total_currency: fare.currency,
    supplier: fare.supplier,
  };
}

const destinationIdeaView = (idea: DestinationIdea) => ({ destination: toLocationView(idea.destination), ...indicativeFareView(idea) });

/** Indicative prices (docs/fare-calendar.md): the lowest price of each day, and destination ideas, charged by their work. Nothing is stored. */
export const fareCalendarRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/air/fare_calendar",
    operation: "fareCalendar",
    summary: "The lowest price of each day on sale for a route (indicative: a search that day gives the bookable offer)",
    tag,
    query: fareCalendarInput,
    queryErrorCode: "invalid_search_params",
    response: okSchema(z.array(indicativeFareSchema)),
    errors: ["invalid_search_params"],
    handle: async ({ ctx, query }) => {
      const request = fromFareCalendarInput(query);
      await chargeCost(ctx, calendarCost(ctx.services.fareCalendar.calendarSearches(request)));
      return ok((await ctx.services.fareCalendar.calendar(tenantScope(ctx), request)).map(indicativeFareView));
    },
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/destinations",
    operation: "destinations",
    summary: "The cheapest fare of a month to each destination reachable from an origin, cheapest first, at most 50 (indicative)",
    tag,
    query: destinationsInput,
    queryErrorCode: "invalid_search_params",
    response: okSchema(z.array(destinationIdeaSchema)),
    errors: ["invalid_search_params"],
    handle: async ({ ctx, query }) => {
      const request = fromDestinationsInput(query);
      await chargeCost(ctx, calendarCost(ctx.services.fareCalendar.destinationsSearches(request)));
      return ok((await ctx.services.fareCalendar.destinations(tenantScope(ctx), request)).map(destinationIdeaView));
    },
  }),
];
