import type { Airport } from "../locations/airport";
import type { AirportIndex } from "../locations/airport-index";
import { appError } from "../errors/app-error";
import { newId } from "../ids";
import type { SearchRequest } from "./search.inputs";
import type { SupplierSearch } from "../gateway/contract/offers";
import { dayToIsoDate, instantToLocalDay, localDay } from "../time/local-time";

/** How far ahead the airline sells: 361 days after today at the origin, as airlines' schedules open. */
export const SALES_HORIZON_DAYS = 361;

/**
 * Checks what the shape cannot (docs/rest-api.md#search-and-offers) and resolves codes to airports: codes exist
 * (an airport or a metropolitan city code), origin and destination differ, no date is in the
 * past at its origin, slices are in date order, at least one adult, no more infants than
 * adults, passenger ids unique. Each failure is 400 `invalid_search_params` naming the field;
 * a date past SALES_HORIZON_DAYS is 422 `departure_date_out_of_range` (a date not on sale yet).
 * Passengers without an id get a `pas_` one.
 */
/** A search as checked and resolved: what a supplier is asked, but for whose it is and how it is bounded. */
export type ResolvedSearch = Pick<SupplierSearch, "slices" | "passengers" | "cabinClass" | "maxConnections">;

export function resolveSearch(request: SearchRequest, airports: AirportIndex, now: Date): ResolvedSearch {
  const fail = (field: string, message: string) => appError("invalid_search_params", { field: request.fieldPrefix + field, message: `${request.fieldPrefix}${field}: ${message}` });

  const slices = request.slices.map((slice, index) => {
    const place = (side: "origin" | "destination"): Airport[] => {
      const found = airports.airportsForCode(slice[side]);
      if (found.length === 0) throw fail(`slices[${index}].${side}`, `${slice[side]} is not a known IATA airport or city code`);
      return found;
    };
    const origins = place("origin");
    const destinations = place("destination");
    if (origins.some((airport) => destinations.includes(airport))) {
      throw fail(`slices[${index}].destination`, "must differ from the origin");
    }
    const field = `slices[${index}].departure_date`;
    const today = instantToLocalDay(origins[0]!.timeZone, now.getTime());
    const departure = localDay(slice.departureDate);
    if (departure < today) throw fail(field, `is in the past (today is ${dayToIsoDate(today)} at the origin)`);
    if (departure > today + SALES_HORIZON_DAYS) {
      throw appError("departure_date_out_of_range", {
        field: request.fieldPrefix + field,
        message: `${request.fieldPrefix}${field}: is not on sale yet (the last date on sale is ${dayToIsoDate(today + SALES_HORIZON_DAYS)}, ${SALES_HORIZON_DAYS} days ahead at the origin)`,
      });
    }
    const previous = request.slices[index - 1];
    if (previous && departure < localDay(previous.departureDate)) {
      throw fail(`slices[${index}].departure_date`, "must not be before the previous slice's departure date");
    }
    return { origins, destinations, departureDate: slice.departureDate };
  });

  const count = (type: string) => request.passengers.filter((passenger) => passenger.type === type).length;
  if (count("adult") === 0) throw fail("passengers", "at least one adult is required");
  if (count("infant_without_seat") > count("adult")) throw fail("passengers", "each infant without a seat needs an adult");
  const ids = request.passengers.map((passenger) => passenger.id).filter((id) => id !== undefined);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) throw fail("passengers", `passenger id ${duplicate} is used twice`);

  return {
    slices,
    passengers: request.passengers.map((passenger) => ({ id: passenger.id ?? newId("pas"), type: passenger.type, ...(passenger.age !== undefined && { age: passenger.age }) })),
    cabinClass: request.cabinClass,
    maxConnections: request.maxConnections,
  };
}
