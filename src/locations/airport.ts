/** An airport we can sell flights from and to: the Location (docs/rest-api.md#locations), in camelCase. */
export interface Airport {
  /** Stable internal id: `arp_` + the lower-case IATA code, so it is the same after every restart. */
  id: string;
  iataCode: string;
  icaoCode: string;
  name: string;
  cityName: string;
  /** The metropolitan code (LON, NYC, …) where one exists, else the airport's own IATA code. */
  iataCityCode: string;
  /** ISO 3166-1 alpha-2, which is the country code IATA uses. */
  iataCountryCode: string;
  latitude: number;
  longitude: number;
  /** IANA time zone, accepted by `Intl.DateTimeFormat`. */
  timeZone: string;
  /** Larger means bigger or busier; orders search ties and a city's airports. */
  sizeRank: number;
}

/** The stable id of the airport with this IATA code. */
export function airportIdFor(iataCode: string): string {
  return `arp_${iataCode.toLowerCase()}`;
}
