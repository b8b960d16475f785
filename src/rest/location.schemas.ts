import { z } from "zod";
import type { LocationView } from "../locations/location-view";

/** The Location object (docs/rest-api.md#locations), as lookups and Variant A offers show it. */
export const locationSchema = z
  .object({
    id: z.string(),
    type: z.literal("airport"),
    iata_code: z.string(),
    icao_code: z.string(),
    name: z.string(),
    city_name: z.string(),
    iata_city_code: z.string(),
    iata_country_code: z.string(),
    latitude: z.number(),
    longitude: z.number(),
    time_zone: z.string(),
    airports: z.null(),
    city: z.null(),
  })
  .meta({ id: "Location" }) satisfies z.ZodType<LocationView>;
