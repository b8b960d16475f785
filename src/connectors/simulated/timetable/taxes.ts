import { unitHash } from "./random";
import type { PassengerType } from "../../../gateway/contract/air";
import type { SupplierSegment, SupplierSlice } from "../../../gateway/contract/offers";

/**
 * The taxes, fees and charges inside each fare (Duffel's `tax_amount`), in USD cents like the
 * fares: per flight, what the departure airport, its country's security and (on international
 * flights) a departure duty and the arrival country charge each passenger; plus a ticket tax,
 * a percentage of the fare set by the country the journey starts in. Every rate is seeded by an
 * airport or country code, so the same flight is taxed the same in every search. Taxes split the
 * fare, they never add to it.
 */

/** Lap infants pay this share of the per-flight charges (no seat; many airports exempt them). */
const INFANT_CHARGE_PERCENT = 25;
/** Taxes never take more than this share of a passenger's fare: the airline keeps the rest. */
const MAX_TAX_PERCENT = 60;

/** What one itinerary's taxes depend on, worked out once per offer. */
export interface ItineraryTaxes {
  /** Per seated passenger, the charges of every flight together. */
  chargesPerSeat: number;
  /** The ticket tax, in hundredths of a percent of the fare (0–1,000). */
  ticketTaxBasisPoints: number;
}

export function itineraryTaxes(slices: readonly SupplierSlice[]): ItineraryTaxes {
  let chargesPerSeat = 0;
  for (const slice of slices) for (const segment of slice.segments) chargesPerSeat += flightCharges(segment);
  const start = slices[0]!.segments[0]!.origin.iataCountryCode;
  return { chargesPerSeat, ticketTaxBasisPoints: Math.round(1_000 * unitHash(`tax|ticket|${start}`)) };
}

/** A passenger's taxes in USD cents: part of `fareAmount`, more than 0 and at most 60 % of it. */
export function passengerTax(taxes: ItineraryTaxes, type: PassengerType, fareAmount: number): number {
  const charges =
    type === "infant_without_seat" ? Math.round((taxes.chargesPerSeat * INFANT_CHARGE_PERCENT) / 100) : taxes.chargesPerSeat;
  const ticketTax = Math.round((fareAmount * taxes.ticketTaxBasisPoints) / 10_000);
  return Math.min(charges + ticketTax, Math.floor((fareAmount * MAX_TAX_PERCENT) / 100));
}

/** One passenger's charges on one flight: airport $4–22, security $2–8, and abroad arrival $3–7 plus a duty. */
function flightCharges(segment: SupplierSegment): number {
  const { origin, destination } = segment;
  const airport = 400 + Math.round(1_800 * unitHash(`tax|airport|${origin.iataCode}`));
  const security = 200 + Math.round(600 * unitHash(`tax|security|${origin.iataCountryCode}`));
  if (origin.iataCountryCode === destination.iataCountryCode) return airport + security;
  const arrival = 300 + Math.round(400 * unitHash(`tax|arrival|${destination.iataCountryCode}`));
  return airport + security + arrival + departureDuty(segment);
}

/**
 * A departure duty on international flights, banded by distance and doubled above economy, as
 * the UK's Air Passenger Duty is; about a third of countries levy none.
 */
function departureDuty(segment: SupplierSegment): number {
  const rate = unitHash(`tax|duty|${segment.origin.iataCountryCode}`);
  if (rate < 0.3) return 0;
  const bands = segment.distanceKm < 2_000 ? 1 : segment.distanceKm < 5_500 ? 3 : 5;
  return Math.round(1_500 * rate) * bands * (segment.cabinClass === "economy" ? 1 : 2);
}
