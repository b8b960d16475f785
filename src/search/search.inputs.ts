import { z } from "zod";
import { calendarDate, placeCode } from "../validation/input-values";
import { CABIN_CLASSES, type CabinClass, type PassengerType } from "../gateway/contract/air";
import { type ForcedOutcome } from "../gateway/contract/offers";

const sliceInput = z.strictObject({
  origin: placeCode,
  destination: placeCode,
  departure_date: calendarDate,
});

const passengerInput = z.strictObject({
  type: z.enum(["adult", "child", "infant_without_seat"]),
  /** Optional client-chosen id, echoed back and named later by order passengers. */
  id: z.string().min(1).max(64).optional(),
  /** A child's or an infant's age on the last slice's date: a supplier that prices by age is asked with it; the simulated airline prices by type. */
  age: z.number().int().min(0).max(130).optional(),
});

const cabinClass = z.enum(CABIN_CLASSES as [CabinClass, ...CabinClass[]]);

const searchCore = {
  slices: z.array(sliceInput).min(1, "at least one slice").max(4, "at most 4 slices"),
  // At least one adult: resolveSearch's rule (400 invalid_search_params), stated here.
  passengers: z
    .array(passengerInput)
    .min(1, "at least one passenger")
    .max(9, "at most 9 passengers")
    .meta({ contains: { properties: { type: { const: "adult" } }, required: ["type"] } }),
  max_connections: z.number().int().min(0).max(2).optional(),
};

/** How long the suppliers may take, in seconds (the search's deadline). */
const supplierTimeout = z.number().int().min(2, "must be at least 2 seconds").max(60).optional();

/** Sandbox only: an outcome forced on a supplier, by its id (`{ "<supplier id>": "timeout" }`). */
const supplierBehaviour = z.record(z.string(), z.enum(["timeout", "error", "ok"])).optional();

/** Variant A: the search fields at the top level; `cabin_class` defaults to economy. */
export const searchInputA = z.strictObject({ ...searchCore, cabin_class: cabinClass.optional(), supplier_timeout: supplierTimeout, supplier_behaviour: supplierBehaviour });

/** Variant B: the search under `data` (cabin class required), plus delivery options. */
export const searchInputB = z.strictObject({
  data: z.strictObject({ ...searchCore, cabin_class: cabinClass }),
  return_offers: z.boolean().optional(),
  supplier_timeout: supplierTimeout,
  supplier_behaviour: supplierBehaviour,
});

/** A search in one shape whatever the variant it came in. Codes are upper-cased, not yet resolved. */
export interface SearchRequest {
  slices: Array<{ origin: string; destination: string; departureDate: string }>;
  passengers: Array<{ id: string | undefined; type: PassengerType; age?: number }>;
  cabinClass: CabinClass;
  maxConnections: number;
  /** B: whether offers come back in the response (default true). */
  returnOffers: boolean;
  /** How long the suppliers may take (the search's deadline). */
  supplierTimeoutMs: number;
  /** Sandbox only: outcomes forced on suppliers, by supplier id (`supplier_behaviour`). */
  supplierBehaviour: Readonly<Record<string, ForcedOutcome>> | undefined;
  /** Prefix of field names in errors: "" for A, "data." for B. */
  fieldPrefix: string;
}

const DEFAULT_SUPPLIER_TIMEOUT_MS = 20_000;

export function fromVariantA(input: z.output<typeof searchInputA>): SearchRequest {
  return normalise(input, { returnOffers: true, ...searchDeadline(input), fieldPrefix: "" });
}

export function fromVariantB(input: z.output<typeof searchInputB>): SearchRequest {
  return normalise(input.data, { returnOffers: input.return_offers ?? true, ...searchDeadline(input), fieldPrefix: "data." });
}

/** The search's deadline and forced outcomes, as both variants send them beside the search. */
export function searchDeadline(input: { supplier_timeout?: number | undefined; supplier_behaviour?: Record<string, ForcedOutcome> | undefined }): Pick<SearchRequest, "supplierTimeoutMs" | "supplierBehaviour"> {
  return {
    supplierTimeoutMs: input.supplier_timeout === undefined ? DEFAULT_SUPPLIER_TIMEOUT_MS : input.supplier_timeout * 1000,
    supplierBehaviour: input.supplier_behaviour,
  };
}

function normalise(
  core: { slices: z.output<typeof sliceInput>[]; passengers: z.output<typeof passengerInput>[]; cabin_class?: CabinClass; max_connections?: number },
  delivery: Pick<SearchRequest, "returnOffers" | "supplierTimeoutMs" | "supplierBehaviour" | "fieldPrefix">,
): SearchRequest {
  return {
    slices: core.slices.map((slice) => ({ origin: slice.origin, destination: slice.destination, departureDate: slice.departure_date })),
    passengers: core.passengers.map((passenger) => ({ id: passenger.id, type: passenger.type, ...(passenger.age !== undefined && { age: passenger.age }) })),
    cabinClass: core.cabin_class ?? "economy",
    maxConnections: core.max_connections ?? 1,
    ...delivery,
  };
}
