import type { Airport } from "../locations/airport";
import type { AirportIndex } from "../locations/airport-index";
import { appError } from "../errors/app-error";
import { newId } from "../ids";
import type { SearchRequest } from "./search.inputs";
import type { SupplierSearch } from "../supplier/supplier";
import { instantToLocalDate } from "../supplier/time";

/**
 * Checks what the shape cannot (decisions §4) and resolves codes to airports: codes exist
 * (an airport or a metropolitan city code), origin and destination differ, no date is in the
 * past at its origin, slices are in date order, at least one adult, no more infants than
 * adults, passenger ids unique. Each failure is 400 `invalid_search_params` naming the field.
 * Passengers without an id get a `pas_` one.
 */
export function resolveSearch(request: SearchRequest, airports: AirportIndex, now: Date): SupplierSearch {
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
    const today = instantToLocalDate(origins[0]!.timeZone, now.getTime());
    if (slice.departureDate < today) throw fail(`slices[${index}].departure_date`, `is in the past (today is ${today} at the origin)`);
    const previous = request.slices[index - 1];
    if (previous && slice.departureDate < previous.departureDate) {
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
    passengers: request.passengers.map((passenger) => ({ id: passenger.id ?? newId("pas"), type: passenger.type })),
    cabinClass: request.cabinClass,
    maxConnections: request.maxConnections,
  };
}
