import { expect } from "vitest";
import type { TestServer } from "./test-server";
import { storedOfferOf } from "./offers";
import { flightsOfOffer, freshFlights, searchForBooking, type SearchOptions } from "./orders";

/** A direct flight as a client identifies it: carrier, flight number and local departure. */
export interface FlightChoice {
  days: number;
  flight: string;
  /** Seats it is offered with (read from the stored offer: the API does not show it). */
  capacity: number;
  /** The airline's key of the flight, as seat holds name it. */
  flightKey: string;
}

/** The offer's first flight, as flightsOfOffer names it. */
const flightOf = (offer: any) => JSON.stringify(flightsOfOffer(offer)[0]);

/** The stored offer's only segment: its seats for sale and flight key (test setup reads the database). */
async function storedSegment(server: TestServer, offerId: string): Promise<{ seatsLeft: number; flightKey: string }> {
  return (await storedOfferOf(server, offerId)).payload.slices[0]!.segments[0]!;
}

/**
 * A direct flight (LHR → JFK by default) with between `min` and `max` seats left, found by
 * searching successive dates: for races over the last seats, or over many bookings of one flight.
 */
export async function findFlight(server: TestServer, key: string, min: number, max: number, options: SearchOptions = {}): Promise<FlightChoice> {
  for (let days = 20; days < 120; days++) {
    const offers = await searchForBooking(server, key, { ...options, days, reuseFlights: true });
    for (const offer of offers.filter((candidate) => candidate.slices[0].segments.length === 1)) {
      const { seatsLeft: capacity, flightKey } = await storedSegment(server, offer.id);
      const choice = { days, flight: flightOf(offer), capacity, flightKey };
      const left = await seatsLeft(server, choice);
      // Taken only if no other booking of the suite flies it, and then kept from them.
      if (left >= min && left <= max && freshFlights([offer], flightsOfOffer).length === 1) return choice;
    }
  }
  throw new Error(`no direct flight with ${min}–${max} seats found`);
}

/** The chosen flight's direct offer in a new search of its date, if search still sells it. */
async function searchFlight(server: TestServer, key: string, choice: FlightChoice, options: SearchOptions): Promise<any | undefined> {
  const offers = await searchForBooking(server, key, { ...options, days: choice.days, reuseFlights: true });
  return offers.find((candidate) => candidate.slices[0].segments.length === 1 && flightOf(candidate) === choice.flight);
}

/** A fresh offer (offers are booked once) on the chosen flight. */
export async function offerOnFlight(server: TestServer, key: string, choice: FlightChoice, options: SearchOptions = {}): Promise<any> {
  const offer = await searchFlight(server, key, choice, options);
  expect(offer, `flight ${choice.flight} offered again`).toBeDefined();
  return offer;
}

/** Whether search offers the flight to `key`'s tenant now (it offers only flights with seats for the party). */
export async function isOffered(server: TestServer, key: string, choice: FlightChoice, options: SearchOptions = {}): Promise<boolean> {
  return (await searchFlight(server, key, choice, options)) !== undefined;
}

/**
 * Seats of the flight no booking holds now (economy, as searched): in one environment's inventory
 * (sandbox and live tenants book separate ones), or, without one, held by neither.
 */
export async function seatsLeft(server: TestServer, choice: Pick<FlightChoice, "capacity" | "flightKey">, environment?: "sandbox" | "live"): Promise<number> {
  const held = await server.db.prisma.seatHold.aggregate({ where: { flightKey: choice.flightKey, ...(environment && { environment }) }, _sum: { seats: true } });
  return choice.capacity - (held._sum.seats ?? 0);
}

/** Seats left on the first flight of an offer, as `seatsLeft` counts them. */
export async function seatsLeftOnOffer(server: TestServer, offer: { id: string }): Promise<number> {
  const { seatsLeft: capacity, flightKey } = await storedSegment(server, offer.id);
  return seatsLeft(server, { capacity, flightKey });
}

/** Seat holds the airline keeps for an order (0 once released). */
export async function seatHoldsOf(server: TestServer, orderId: string): Promise<number> {
  return server.db.prisma.seatHold.count({ where: { holdId: orderId } });
}
