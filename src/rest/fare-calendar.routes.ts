import { z } from "zod";
import { tenantScope } from "../context/request-context";
import type { DestinationIdea, IndicativeFare } from "../search/fare-calendar.service";
import { parseDestinationsRequest, parseFareCalendarRequest } from "../search/fare-calendar.inputs";
import { formatMinor } from "../money/format";
import { toLocationView } from "../locations/location-view";
import { ok, okSchema } from "./envelope";
import { locationSchema } from "./location.schemas";
import { restRoute } from "./route";
import { chargeCost } from "./cost-charge";
import { calendarCost } from "../search/calendar-work";

const tag = "Fare calendar";

/** Query parameters as given; the fare calendar's own rules check them (400 `invalid_search_params` naming the field). */
const text = (description: string) => z.string().optional().meta({ description });

const fareCalendarQuery = z.object({
  origin: text("IATA airport or city code"),
  destination: text("IATA airport or city code"),
  from: text("First departure date, YYYY-MM-DD, not in the past"),
  to: text("Last departure date, YYYY-MM-DD: at most 90 days after from, counting both"),
  cabin_class: text("economy (default), premium_economy, business or first"),
  adults: text("1–9, default 1"),
  stay_days: text("For round trips: the return is this many days after each departure (0–90)"),
});

const destinationsQuery = z.object({
  origin: text("IATA airport or city code"),
  month: text("YYYY-MM, with at least one date on sale"),
  max_price: text("Only destinations at most this dear, in the tenant's currency (e.g. 450.00)"),
  cabin_class: text("economy (default), premium_economy, business or first"),
});

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
    query: fareCalendarQuery,
    response: okSchema(z.array(indicativeFareSchema)),
    errors: ["invalid_search_params"],
    handle: async ({ ctx, query }) => {
      const scope = tenantScope(ctx);
      const request = parseFareCalendarRequest(query);
      await chargeCost(ctx, calendarCost(ctx.services.fareCalendar.calendarSearches(request)));
      return ok((await ctx.services.fareCalendar.calendar(scope, request)).map(indicativeFareView));
    },
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/destinations",
    operation: "destinations",
    summary: "The cheapest fare of a month to each destination reachable from an origin, cheapest first, at most 50 (indicative)",
    tag,
    query: destinationsQuery,
    response: okSchema(z.array(destinationIdeaSchema)),
    errors: ["invalid_search_params"],
    handle: async ({ ctx, query }) => {
      const scope = tenantScope(ctx);
      const request = parseDestinationsRequest(query);
      await chargeCost(ctx, calendarCost(ctx.services.fareCalendar.destinationsSearches(request)));
      return ok((await ctx.services.fareCalendar.destinations(scope, request)).map(destinationIdeaView));
    },
  }),
];
