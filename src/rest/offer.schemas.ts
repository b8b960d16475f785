import { z } from "zod";
import type { CabinClass, PassengerType } from "../gateway/contract/air";
import { decimalAmount, timestamp } from "./envelope";
import { locationSchema } from "./location.schemas";

export const passengerType = z.enum(["adult", "child", "infant_without_seat"]) satisfies z.ZodType<PassengerType>;
export const cabinClass = z.enum(["economy", "premium_economy", "business", "first"]).meta({ id: "CabinClass" }) satisfies z.ZodType<CabinClass>;

const carrierSchema = z.object({ iata_code: z.string(), name: z.string() }).meta({ id: "Carrier" });

const segmentA = z
  .object({
    id: z.string(),
    origin: locationSchema,
    destination: locationSchema,
    departing_at: z.string().meta({ description: "Local time at the origin, no offset" }),
    arriving_at: z.string().meta({ description: "Local time at the destination, no offset" }),
    duration: z.string().meta({ description: "ISO 8601 duration" }),
    distance: z.string().meta({ description: "Kilometres" }),
    marketing_carrier: carrierSchema,
    marketing_carrier_flight_number: z.string(),
    operating_carrier: carrierSchema,
    operating_carrier_flight_number: z.string(),
    aircraft: carrierSchema,
    passengers: z.array(
      z.object({
        passenger_id: z.string(),
        cabin_class: cabinClass,
        baggages: z.array(z.object({ type: z.enum(["checked", "carry_on"]), quantity: z.int() })),
      }),
    ),
  })
  .meta({ id: "SegmentA" });

export const sliceA = z
  .object({
    id: z.string(),
    origin: locationSchema,
    destination: locationSchema,
    departure_date: z.string(),
    duration: z.string(),
    fare_brand_name: z.string(),
    segments: z.array(segmentA),
  })
  .meta({ id: "SliceA" });

const penalty = z.object({ allowed: z.boolean(), penalty_amount: decimalAmount.nullable(), penalty_currency: z.string().nullable() });

/** Base fare, taxes (Variant A's names) and the platform's fee: they add up to `total_amount`, in its currency. */
export const priceSplitFields = {
  base_amount: decimalAmount.meta({ description: "The fare without taxes: total_amount less tax_amount and fee_amount" }),
  base_currency: z.string(),
  tax_amount: decimalAmount.meta({ description: "The airline's taxes, fees and charges included in total_amount" }),
  tax_currency: z.string(),
  ...feeFields(),
};

/** The platform's fee included in `total_amount`, fixed when the offer was searched ("0.00" when no pricing rule applied). */
function feeFields() {
  return {
    fee_amount: decimalAmount.meta({ description: "The platform's fee included in total_amount, fixed when the offer was searched; \"0.00\" when none" }),
    fee_currency: z.string(),
  };
}

const passengerFare = z.object({ id: z.string(), type: passengerType, fare_amount: decimalAmount }).meta({ id: "PassengerFare" });

/** The supplier an offer (and the order booked from it) came from. */
export const supplierRefSchema = z.object({ id: z.string(), name: z.string() }).meta({ id: "SupplierRef" });

/** The same flights in the same cabins have the same key whatever the supplier. */
const comparisonKeySchema = z.string().meta({ description: "The same flights (carrier, flight number, date) in the same cabins have the same key, whatever the supplier", examples: ["ZA102@2026-03-07:economy"] });

/** How one supplier did in a search. */
export const supplierResultSchema = z
  .object({
    supplier: z.string(),
    status: z.enum(["ok", "timeout", "error", "unavailable"]),
    offer_count: z.int(),
    duration_ms: z.int(),
  })
  .meta({ id: "SupplierResult" });

/** Variant A offer (Variant A's names): search results, single-offer retrieval, orders' offer as booked. */
export const offerASchema = z
  .object({
    id: z.string(),
    total_amount: decimalAmount,
    total_currency: z.string(),
    ...priceSplitFields,
    expires_at: timestamp,
    created_at: timestamp,
    owner: carrierSchema,
    supplier: supplierRefSchema,
    comparison_key: comparisonKeySchema,
    slices: z.array(sliceA),
    passengers: z.array(passengerFare),
    passenger_identity_documents_required: z.boolean(),
    conditions: z.object({ change_before_departure: penalty, refund_before_departure: penalty }),
  })
  .meta({ id: "OfferA" });

/** A service an offer can be booked with, or an order's passengers can still add (`GET /v1/air/orders/:id/available_services`). */
export const availableServiceSchema = z
  .object({
    id: z.string(),
    type: z.enum(["baggage", "seat"]),
    total_amount: decimalAmount,
    total_currency: z.string(),
    maximum_quantity: z.int(),
    passenger_ids: z.array(z.string()),
    segment_ids: z.array(z.string()),
  })
  .meta({ id: "AvailableService" });

/** Single-offer retrieval: Variant A plus payment requirements and, when asked, services. */
export const offerDetailSchema = offerASchema
  .extend({
    payment_requirements: z.object({ requires_instant_payment: z.boolean().meta({ description: "true for an offer its supplier cannot hold: booked, it must be paid within 15 minutes" }), price_guarantee_expires_at: timestamp }),
    available_services: z.array(availableServiceSchema).optional().meta({ description: "Only with return_available_services=true" }),
  })
  .meta({ id: "OfferDetail" });

/** Variant B offer: the seed's names, airports as codes, local times with their offsets. */
export const offerBSchema = z
  .object({
    id: z.string(),
    object: z.literal("offer"),
    total_amount: decimalAmount,
    currency: z.string(),
    ...feeFields(),
    expires_at: timestamp,
    supplier: supplierRefSchema,
    comparison_key: comparisonKeySchema,
    slices: z.array(
      z.object({
        origin: z.string(),
        destination: z.string(),
        segments: z.array(
          z.object({
            departure_airport: z.string(),
            arrival_airport: z.string(),
            departure_time: z.string(),
            arrival_time: z.string(),
            airline: z.string(),
            flight_number: z.string(),
          }),
        ),
      }),
    ),
    passengers: z.array(passengerFare),
  })
  .meta({ id: "OfferB" });

const searchedSlice = z.object({ origin: z.string(), destination: z.string(), departure_date: z.string() });
const searchedPassenger = z.object({ id: z.string(), type: z.string(), age: z.int().optional().meta({ description: "A child's or an infant's age, when the search gave one" }) });

/** A Variant B offer request (`orq_`). */
export const offerRequestSchema = z
  .object({
    id: z.string(),
    object: z.literal("offer_request"),
    slices: z.array(searchedSlice),
    passengers: z.array(searchedPassenger),
    cabin_class: z.string(),
    max_connections: z.int(),
    offer_count: z.int(),
    created_at: timestamp,
    supplier_results: z.array(supplierResultSchema).optional().meta({ description: "Only in the search's own answer (`return_offers: false`)" }),
  })
  .meta({ id: "OfferRequest" });

/** Variant A search result: the search as understood and its offers. */
export const searchResultASchema = z
  .object({ slices: z.array(searchedSlice), passengers: z.array(searchedPassenger), cabin_class: cabinClass, supplier_results: z.array(supplierResultSchema), offers: z.array(offerASchema) })
  .meta({ id: "SearchResultA" });
