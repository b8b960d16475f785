import { flightCabinKey, passengersNeedingSeats, type FlightCabin, type Supplier, type SupplierOffer, type SupplierSearch } from "../gateway/contract/supplier";

/**
 * The offers the airline can still sell the party: every flight-cabin flown has at least as many
 * seats left as the passengers who need one, counting what bookings of the tenant's environment
 * hold now (one read for the whole search). A segment's `seatsLeft` stays the flight's seats for
 * sale: booking subtracts the holds itself, when it takes its own.
 */
export async function sellableOffers(
  supplier: Supplier,
  offers: SupplierOffer[],
  search: SupplierSearch,
  environment: "sandbox" | "live",
): Promise<SupplierOffer[]> {
  const flights = new Map<string, FlightCabin & { seatsForSale: number }>();
  for (const offer of offers) {
    for (const slice of offer.slices) {
      for (const segment of slice.segments) flights.set(flightCabinKey(segment), { flightKey: segment.flightKey, cabinClass: segment.cabinClass, seatsForSale: segment.seatsLeft });
    }
  }
  const held = await supplier.seatsHeld([...flights.values()], environment);
  if (held.size === 0) return offers;
  const needed = passengersNeedingSeats(search.passengers);
  const soldOut = new Set([...flights].filter(([key, flight]) => flight.seatsForSale - (held.get(key) ?? 0) < needed).map(([key]) => key));
  if (soldOut.size === 0) return offers;
  return offers.filter((offer) => offer.slices.every((slice) => slice.segments.every((segment) => !soldOut.has(flightCabinKey(segment)))));
}
