import { passengersNeedingSeats, type Environment } from "../../gateway/contract/air";
import type { Availability } from "../../gateway/contract/capabilities";
import type { FareQuote, FlightCabin, SupplierOffer, SupplierSearch } from "../../gateway/contract/offers";
import { flightCabinKey, type SimulatedBookings } from "./simulated-bookings";

/**
 * What the simulated airline can still sell (docs/simulated-airline.md): its timetable offers
 * every flight with the seats it was offered with, and the bookings of the searching tenant's
 * environment hold seats against that (one read per answer). A flight-cabin with fewer seats left
 * than the party needs takes its offers and fares out. A segment's `seatsLeft` stays the flight's
 * seats for sale: booking subtracts the holds itself, when it takes its own.
 */
export class SimulatedAvailability implements Availability {
  constructor(private readonly bookings: SimulatedBookings) {}

  async sellableOffers(offers: SupplierOffer[], search: SupplierSearch): Promise<SupplierOffer[]> {
    const flights = new Map<string, FlightCabin & { seatsForSale: number }>();
    for (const offer of offers) {
      for (const slice of offer.slices) {
        for (const segment of slice.segments) flights.set(flightCabinKey(segment), { flightKey: segment.flightKey, cabinClass: segment.cabinClass, seatsForSale: segment.seatsLeft });
      }
    }
    const held = await this.bookings.seatsHeld([...flights.values()], search.environment);
    if (held.size === 0) return offers;
    const needed = passengersNeedingSeats(search.passengers);
    const soldOut = new Set([...flights].filter(([key, flight]) => flight.seatsForSale - (held.get(key) ?? 0) < needed).map(([key]) => key));
    if (soldOut.size === 0) return offers;
    return offers.filter((offer) => offer.slices.every((slice) => slice.segments.every((segment) => !soldOut.has(flightCabinKey(segment)))));
  }

  async sellableFares(groups: ReadonlyArray<readonly FareQuote[]>, party: { seatsNeeded: number; environment: Environment }): Promise<Array<FareQuote | null>> {
    const flights = new Map<string, FlightCabin & { seatsForSale: number }>();
    for (const group of groups) for (const quote of group) for (const flight of quote.flights) flights.set(flightCabinKey(flight), flight);
    const held = flights.size === 0 ? new Map<string, number>() : await this.bookings.seatsHeld([...flights.values()], party.environment);
    return groups.map((group) => group.find((quote) => quote.flights.every((flight) => flight.seatsForSale - (held.get(flightCabinKey(flight)) ?? 0) >= party.seatsNeeded)) ?? null);
  }
}
