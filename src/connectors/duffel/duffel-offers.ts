import type { Airport } from "../../locations/airport";
import { wallTimeToInstant } from "../../time/local-time";
import type { BaggageAllowance, CabinClass, PassengerType } from "../../gateway/contract/air";
import type { PenaltyCondition, SupplierOffer, SupplierSearch, SupplierSegment, SupplierSlice } from "../../gateway/contract/offers";
import { convertedAmount, type ConvertedAmount } from "./duffel-prices";
import type { DuffelCondition, DuffelOffer, DuffelOfferRequestBody, DuffelSegment, DuffelSlice } from "./duffel-shapes";

/**
 * Seats a Duffel flight is taken to have for sale: Duffel keeps the inventory and refuses a
 * booking it cannot seat, so this only has to let any search's passengers (at most 9) through.
 */
const SEATS_FOR_SALE = 9;

/** Our search as Duffel's offer request: one place per slice (a city's code when every airport given is that city's). */
export function offerRequestBody(search: SupplierSearch): DuffelOfferRequestBody {
  return {
    slices: search.slices.map((slice) => ({ origin: placeCode(slice.origins), destination: placeCode(slice.destinations), departure_date: slice.departureDate })),
    passengers: search.passengers.map((passenger) => (passenger.type !== "adult" && passenger.age !== undefined ? { age: passenger.age } : { type: passenger.type })),
    cabin_class: search.cabinClass,
    max_connections: search.maxConnections,
  };
}

function placeCode(airports: readonly Airport[]): string {
  const [first] = airports;
  if (!first) throw new Error("a search slice names no airport");
  return airports.length > 1 && airports.every((airport) => airport.iataCityCode === first.iataCityCode) ? first.iataCityCode : first.iataCode;
}

/** A Duffel offer priced in the tenant's currency: its total, and the conversion when Duffel priced it in another currency. */
export interface PricedDuffelOffer {
  id: string;
  expiresAt: string;
  total: ConvertedAmount;
  /** Duffel's own total and currency, which a booking must pay. */
  duffelTotal: { amount: string; currency: string };
  requiresInstantPayment: boolean;
  paymentRequiredBy: string | null;
  priceGuaranteeExpiresAt: string | null;
  offer: DuffelOffer;
}

export function pricedOffer(offer: DuffelOffer, currency: string): PricedDuffelOffer {
  return {
    id: offer.id,
    expiresAt: offer.expires_at,
    total: convertedAmount(offer.total_amount, offer.total_currency, currency),
    duffelTotal: { amount: offer.total_amount, currency: offer.total_currency },
    requiresInstantPayment: offer.payment_requirements.requires_instant_payment,
    paymentRequiredBy: offer.payment_requirements.payment_required_by,
    priceGuaranteeExpiresAt: offer.payment_requirements.price_guarantee_expires_at,
    offer,
  };
}

/**
 * A Duffel offer as the Supplier interface states offers: in USD minor units (converted with the
 * static table), airports from our index, its fares under the search's passenger ids (Duffel
 * answers its passengers in the order they were asked), and Duffel's own ids and total kept
 * (`supplierOffer`) for booking to send back. Null when a place is not in our index, a price is
 * in a currency the table lacks, or its passengers are not the search's: such an offer cannot be
 * shown in our terms, so it is left out.
 */
export function toSupplierOffer(offer: DuffelOffer, airportByIata: (code: string) => Airport | undefined, searched: SupplierSearch["passengers"]): SupplierOffer | null {
  if (offer.passengers.length !== searched.length || offer.passengers.some((passenger, index) => passenger.type !== searched[index]!.type)) return null;
  try {
    const usd = (amount: string, currency: string) => convertedAmount(amount, currency, "USD").amountMinor;
    const total = usd(offer.total_amount, offer.total_currency);
    const tax = offer.tax_amount && offer.tax_currency ? Math.min(usd(offer.tax_amount, offer.tax_currency), total) : 0;
    const typeOf = new Map(offer.passengers.map((passenger) => [passenger.id, passenger.type]));
    const slices = offer.slices.map((slice) => toSupplierSlice(slice, typeOf, airportByIata));
    return {
      owner: { iataCode: offer.owner.iata_code ?? "", name: offer.owner.name },
      fareBrandName: offer.slices[0]?.fare_brand_name ?? "Duffel",
      slices,
      passengers: splitEvenly(total, offer.passengers.length).map((fareAmount, index) => ({
        id: searched[index]!.id,
        type: offer.passengers[index]!.type,
        fareAmount,
        taxAmount: splitEvenly(tax, offer.passengers.length)[index]!,
      })),
      totalAmount: total,
      baseCurrency: "USD",
      conditions: {
        changeBeforeDeparture: penalty(offer.conditions.change_before_departure, usd),
        refundBeforeDeparture: penalty(offer.conditions.refund_before_departure, usd),
      },
      passengerIdentityDocumentsRequired: offer.passenger_identity_documents_required,
      supplierOffer: {
        id: offer.id,
        passengerIds: offer.passengers.map((passenger) => passenger.id),
        totalAmount: offer.total_amount,
        totalCurrency: offer.total_currency,
        requiresInstantPayment: offer.payment_requirements.requires_instant_payment,
      },
    };
  } catch (error) {
    if (error instanceof UnknownPlace || (error instanceof Error && error.message.startsWith("no exchange rate"))) return null;
    throw error;
  }
}

export class UnknownPlace extends Error {}

/** A Duffel slice (of an offer, an order or an airline's change) as the contract states it; throws UnknownPlace for an airport not in our index. */
export function toSupplierSlice(slice: DuffelSlice, typeOf: Map<string, PassengerType>, airportByIata: (code: string) => Airport | undefined): SupplierSlice {
  const segments = slice.segments.map((segment) => toSupplierSegment(segment, typeOf, airportByIata));
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  return {
    origin: first.origin,
    destination: last.destination,
    departureDate: first.departingAtLocal.slice(0, 10),
    durationMinutes: isoDurationMinutes(slice.duration) ?? Math.round((Date.parse(last.arrivingAtUtc) - Date.parse(first.departingAtUtc)) / 60_000),
    segments,
  };
}

function toSupplierSegment(segment: DuffelSegment, typeOf: Map<string, PassengerType>, airportByIata: (code: string) => Airport | undefined): SupplierSegment {
  const origin = airportByIata(segment.origin.iata_code);
  const destination = airportByIata(segment.destination.iata_code);
  if (!origin || !destination) throw new UnknownPlace(`${segment.origin.iata_code}-${segment.destination.iata_code}`);
  const departingAtUtc = utcInstant(segment.departing_at, origin.timeZone);
  const arrivingAtUtc = utcInstant(segment.arriving_at, destination.timeZone);
  const carrier = { iataCode: segment.marketing_carrier.iata_code ?? "", name: segment.marketing_carrier.name };
  const cabinClass: CabinClass = segment.passengers[0]?.cabin_class ?? "economy";
  return {
    flightKey: `${carrier.iataCode}${segment.marketing_carrier_flight_number}@${segment.departing_at.slice(0, 10)}:${origin.iataCode}-${destination.iataCode}`,
    marketingCarrier: carrier,
    marketingCarrierFlightNumber: segment.marketing_carrier_flight_number,
    operatingCarrier: { iataCode: segment.operating_carrier.iata_code ?? carrier.iataCode, name: segment.operating_carrier.name },
    operatingCarrierFlightNumber: segment.operating_carrier_flight_number ?? segment.marketing_carrier_flight_number,
    aircraft: { iataCode: segment.aircraft?.iata_code ?? "", name: segment.aircraft?.name ?? "" },
    origin,
    destination,
    departingAtUtc,
    arrivingAtUtc,
    departingAtLocal: segment.departing_at.slice(0, 19),
    arrivingAtLocal: segment.arriving_at.slice(0, 19),
    durationMinutes: isoDurationMinutes(segment.duration) ?? Math.round((Date.parse(arrivingAtUtc) - Date.parse(departingAtUtc)) / 60_000),
    distanceKm: segment.distance ? Math.round(Number(segment.distance)) : 0,
    cabinClass,
    seatsLeft: SEATS_FOR_SALE,
    baggageAllowances: allowancesByType(segment, typeOf),
  };
}

function allowancesByType(segment: DuffelSegment, typeOf: Map<string, PassengerType>): Record<PassengerType, BaggageAllowance[]> {
  const byType: Record<PassengerType, BaggageAllowance[]> = { adult: [], child: [], infant_without_seat: [] };
  for (const passenger of segment.passengers) {
    const type = typeOf.get(passenger.passenger_id);
    if (type && byType[type].length === 0) byType[type] = passenger.baggages.map((bag) => ({ type: bag.type, quantity: bag.quantity }));
  }
  return byType;
}

function penalty(condition: DuffelCondition | null, usd: (amount: string, currency: string) => number): PenaltyCondition {
  if (!condition?.allowed) return { allowed: false, penaltyAmount: null };
  return { allowed: true, penaltyAmount: condition.penalty_amount && condition.penalty_currency ? usd(condition.penalty_amount, condition.penalty_currency) : 0 };
}

/** `total` in `parts` integer shares that add up to it exactly, the remainder on the first ones. */
function splitEvenly(total: number, parts: number): number[] {
  const share = Math.floor(total / parts);
  return Array.from({ length: parts }, (_unused, index) => share + (index < total - share * parts ? 1 : 0));
}

/** `PT7H5M`, `P1DT2H` → minutes; null when absent or not a duration. */
export function isoDurationMinutes(duration: string | null | undefined): number | null {
  const match = duration ? /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(duration) : null;
  if (!match) return null;
  return Number(match[1] ?? 0) * 1440 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

/** A local wall time of Duffel's (`2026-03-07T08:35:00`, no offset) as the UTC instant in `timeZone`. */
function utcInstant(local: string, timeZone: string): string {
  return new Date(wallTimeToInstant(timeZone, Date.parse(`${local.slice(0, 19)}Z`))).toISOString().replace(".000Z", "Z");
}
