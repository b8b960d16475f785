import { createHash } from "node:crypto";
import { greatCircleKm } from "../../geo/great-circle";
import type { Airport } from "../../locations/airport";
import { instantToLocalIso, instantToUtcIso, localToInstant } from "../../time/local-time";
import type { PassengerType } from "../../gateway/contract/air";
import type { BookingAnswer, BookingRef, CancellationQuote, SupplierBooking, SupplierOrder, TicketingAnswer } from "../../gateway/contract/bookings";
import type { SupplierOffer, SupplierSearch, SupplierSlice } from "../../gateway/contract/offers";
import type { Supplier } from "../../gateway/contract/supplier";
import type { Script } from "./script";

/** The scripted supplier's one carrier. */
const CARRIER = { iataCode: "ZS", name: "Scripted Air" };
/** Every flight leaves at 10:00 local time, and flies at this speed, plus half an hour on the ground. */
const DEPARTURE_MINUTE = 10 * 60;
const KM_PER_HOUR = 800;
/** Each passenger's fare in US cents, by type, a fifth of it taxes. */
const FARES: Readonly<Record<PassengerType, number>> = { adult: 10_000, child: 7_500, infant_without_seat: 1_000 };
const TAX_SHARE = 0.2;

/**
 * A supplier written for the tests (docs/connectors.md#the-scripted-connector): the core of the
 * contract and nothing more, each call ending as the tests' script says (script.ts), else
 * answering. A search offers one nonstop flight a slice, from its first origin to its first
 * destination; bookings live in memory, as long as the process. Keyed by our ids as every
 * supplier's calls are: a repeat answers the same.
 */
export class ScriptedSupplier implements Supplier {
  readonly #bookings = new Map<string, SupplierOrder>();

  constructor(private readonly script: Script) {}

  async search(request: SupplierSearch): Promise<SupplierOffer[]> {
    await this.script.play("search", request.signal);
    const slices = request.slices.map((slice) => flight(slice.origins[0]!, slice.destinations[0]!, slice.departureDate, request.cabinClass));
    const passengers = request.passengers.map((passenger) => ({ id: passenger.id, type: passenger.type, fareAmount: FARES[passenger.type], taxAmount: Math.round(FARES[passenger.type] * TAX_SHARE) }));
    return [
      {
        owner: CARRIER,
        fareBrandName: "Scripted",
        slices,
        passengers,
        totalAmount: passengers.reduce((sum, fare) => sum + fare.fareAmount, 0),
        baseCurrency: "USD",
        conditions: { changeBeforeDeparture: { allowed: false, penaltyAmount: null }, refundBeforeDeparture: { allowed: true, penaltyAmount: 0 } },
        passengerIdentityDocumentsRequired: slices.some((slice) => slice.origin.iataCountryCode !== slice.destination.iataCountryCode),
      },
    ];
  }

  async book(booking: SupplierBooking): Promise<BookingAnswer> {
    await this.script.play("book");
    const held = this.#bookings.get(booking.id) ?? { bookingReference: reference(booking.id), status: "held" as const };
    this.#bookings.set(booking.id, held);
    return { outcome: "held", bookingReference: held.bookingReference!, paymentRequiredBy: null };
  }

  async cancelBookings(bookings: readonly BookingRef[]): Promise<void> {
    await this.script.play("cancelBookings");
    for (const booking of bookings) {
      const held = this.#bookings.get(booking.id);
      if (held) this.#bookings.set(booking.id, { ...held, status: "cancelled" });
    }
  }

  readOrder(booking: BookingRef): Promise<SupplierOrder | null> {
    return Promise.resolve(this.#bookings.get(booking.id) ?? null);
  }

  async issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    await this.script.play("issueTickets");
    this.#bookings.set(booking.id, { bookingReference: reference(booking.id), status: "ticketed" });
    return { outcome: "ticketed", tickets: booking.passengers.map((passenger) => ({ passengerId: passenger.id, number: ticketNumber(`${booking.id}:${passenger.id}`) })) };
  }

  /** Cancellations are priced by Aerogate's refund rule. */
  quoteCancellation(): Promise<CancellationQuote | null> {
    return Promise.resolve(null);
  }

  async refundTickets(booking: SupplierBooking): Promise<void> {
    await this.script.play("refundTickets");
    this.#bookings.set(booking.id, { bookingReference: reference(booking.id), status: "cancelled" });
  }
}

/** The one flight of a slice: ZS100 at 10:00 local, nonstop. */
function flight(origin: Airport, destination: Airport, date: string, cabinClass: SupplierSearch["cabinClass"]): SupplierSlice {
  const distanceKm = Math.round(greatCircleKm(origin, destination));
  const durationMinutes = Math.round((distanceKm / KM_PER_HOUR) * 60) + 30;
  const departing = localToInstant(origin.timeZone, date, DEPARTURE_MINUTE);
  const arriving = departing + durationMinutes * 60_000;
  const bags = [{ type: "checked" as const, quantity: 1 }, { type: "carry_on" as const, quantity: 1 }];
  return {
    origin,
    destination,
    departureDate: date,
    durationMinutes,
    segments: [
      {
        flightKey: `ZS100@${date}:${origin.iataCode}-${destination.iataCode}`,
        marketingCarrier: CARRIER,
        marketingCarrierFlightNumber: "100",
        operatingCarrier: CARRIER,
        operatingCarrierFlightNumber: "100",
        aircraft: { iataCode: "320", name: "Airbus A320" },
        origin,
        destination,
        departingAtUtc: instantToUtcIso(departing),
        arrivingAtUtc: instantToUtcIso(arriving),
        departingAtLocal: instantToLocalIso(origin.timeZone, departing),
        arrivingAtLocal: instantToLocalIso(destination.timeZone, arriving),
        durationMinutes,
        distanceKm,
        cabinClass,
        seatsLeft: 9,
        baggageAllowances: { adult: bags, child: bags, infant_without_seat: [] },
      },
    ],
  };
}

/** A booking reference fixed by our order id: six letters. */
function reference(orderId: string): string {
  return createHash("sha256").update(orderId).digest("hex").slice(0, 6).toUpperCase();
}

/** A 13-digit ticket number fixed by what it is for. */
function ticketNumber(of: string): string {
  return `999${(createHash("sha256").update(of).digest().readBigUInt64BE(0) % 10_000_000_000n).toString().padStart(10, "0")}`;
}
