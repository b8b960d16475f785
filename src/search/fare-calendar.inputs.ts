import { z } from "zod";
import { parseInput } from "../validation/parse-input";
import { calendarDate, placeCode, wholeNumber, yearMonth } from "../validation/input-values";
import { CABIN_CLASSES, type CabinClass } from "../gateway/contract/air";

/** The longest range a fare calendar covers, in days (both ends included). */
export const MAX_CALENDAR_DAYS = 90;
/** The longest stay a round-trip calendar prices, in days. */
export const MAX_STAY_DAYS = 90;

const cabinClass = z.enum(CABIN_CLASSES as [CabinClass, ...CabinClass[]], { error: `must be one of ${CABIN_CLASSES.join(", ")}` });

const amount = z.string().regex(/^\d{1,13}(\.\d+)?$/, "must be a decimal amount, e.g. 450.00");

/** GET /v1/air/fare_calendar and Query.fareCalendar, in the REST names. */
export const fareCalendarInput = z.object({
  origin: placeCode,
  destination: placeCode,
  from: calendarDate,
  to: calendarDate,
  cabin_class: cabinClass.optional(),
  adults: wholeNumber(1, 9).optional(),
  stay_days: wholeNumber(0, MAX_STAY_DAYS).optional(),
});

/** GET /v1/air/destinations and Query.destinations, in the REST names. */
export const destinationsInput = z.object({
  origin: placeCode,
  month: yearMonth,
  max_price: amount.optional(),
  cabin_class: cabinClass.optional(),
});

/** A fare calendar asked for: codes upper-cased, not yet resolved; dates not yet checked against today. */
export interface FareCalendarRequest {
  origin: string;
  destination: string;
  from: string;
  to: string;
  cabinClass: CabinClass;
  adults: number;
  /** Null: one way. Otherwise each day's return is this many days after it. */
  stayDays: number | null;
}

/** Destination ideas asked for: the month as `YYYY-MM`, the price cap as written (in the tenant's currency). */
export interface DestinationsRequest {
  origin: string;
  month: string;
  maxPrice: string | null;
  cabinClass: CabinClass;
}

/** Every field problem is 400 `invalid_search_params` naming the field, as a search's are. */
export function parseFareCalendarRequest(raw: unknown): FareCalendarRequest {
  return fromFareCalendarInput(parseInput(fareCalendarInput, raw, "invalid_search_params"));
}

export function fromFareCalendarInput(input: z.output<typeof fareCalendarInput>): FareCalendarRequest {
  return {
    origin: input.origin,
    destination: input.destination,
    from: input.from,
    to: input.to,
    cabinClass: input.cabin_class ?? "economy",
    adults: input.adults ?? 1,
    stayDays: input.stay_days ?? null,
  };
}

export function parseDestinationsRequest(raw: unknown): DestinationsRequest {
  return fromDestinationsInput(parseInput(destinationsInput, raw, "invalid_search_params"));
}

export function fromDestinationsInput(input: z.output<typeof destinationsInput>): DestinationsRequest {
  return { origin: input.origin, month: input.month, maxPrice: input.max_price ?? null, cabinClass: input.cabin_class ?? "economy" };
}
