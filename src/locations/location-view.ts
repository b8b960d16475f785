import type { Airport } from "./airport";

/** The Location object (docs/rest-api.md#locations), as the REST API returns it. */
export interface LocationView {
  id: string;
  type: "airport";
  iata_code: string;
  icao_code: string;
  name: string;
  city_name: string;
  iata_city_code: string;
  iata_country_code: string;
  latitude: number;
  longitude: number;
  time_zone: string;
  /** Present and null in results (docs/rest-api.md#locations). */
  airports: null;
  /** Present and null in results (docs/rest-api.md#locations). */
  city: null;
}

/** The REST (snake_case) form of an airport. */
export function toLocationView(airport: Airport): LocationView {
  return {
    id: airport.id,
    type: "airport",
    iata_code: airport.iataCode,
    icao_code: airport.icaoCode,
    name: airport.name,
    city_name: airport.cityName,
    iata_city_code: airport.iataCityCode,
    iata_country_code: airport.iataCountryCode,
    latitude: airport.latitude,
    longitude: airport.longitude,
    time_zone: airport.timeZone,
    airports: null,
    city: null,
  };
}
