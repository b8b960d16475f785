import type { Airport } from "../../../locations/airport";
import { RecentMap } from "../../../recent-map";
import { CARRIERS, type CarrierProfile } from "./carriers";
import { combineSlices, priceFlight, priceSliceOption, type Journey, type SliceOption } from "./journeys";
import { fliesNonstop, resolveCarriers, type Carrier } from "./network";
import { buildOffer } from "./offers";
import { passengerFare, sellsCabin, sliceAdultFare } from "./pricing";
import { flightChains, nonstopDestinations } from "./hub-connections";
import { FlightSchedule } from "./schedule";
import { retimedFlight } from "./schedule-changes";
import { pickBestMix } from "./selection";
import { passengersNeedingSeats, type CabinClass } from "../../../gateway/contract/air";
import { type BookedItinerary, type FlightTimes } from "../../../gateway/contract/bookings";
import { type DatedFare, type FareQuote, type SupplierOffer, type SupplierSearch } from "../../../gateway/contract/offers";

/** What prices a search: the fares depend on nothing of who asks (the fare worker answers them with no tenant). */
export type FareSearch = Pick<SupplierSearch, "slices" | "passengers" | "cabinClass" | "maxConnections">;

/** Most offers one search returns: the best mix of cheap, fast and direct. */
export const MAX_OFFERS_PER_SEARCH = 50;

export interface SimulatedTimetableOptions {
  /** Resolves the carriers' hub codes, e.g. `(code) => airportIndex().getByIata(code)`. */
  airportByIata: (iataCode: string) => Airport | undefined;
  /** The carriers it sells: the network's (CARRIERS) unless told otherwise. */
  carriers?: readonly CarrierProfile[];
}

/**
 * The simulated airline's timetable and fares: a network of fictional carriers (carriers.ts)
 * whose flights, seats and fares are pure functions of carrier, route and date, so the same
 * search returns the same offers in every process. In memory, no I/O.
 */
export class SimulatedTimetable {
  readonly #carriers: readonly Carrier[];
  readonly #schedule = new FlightSchedule();
  readonly #airportByIata: SimulatedTimetableOptions["airportByIata"];
  /** Destinations reached from each set of origins (by their ids); a few hundred origins at most. */
  readonly #destinations = new RecentMap<string, Airport[]>(500);
  /** Nonstop routes between sets of airports, per carrier (`#nonstopRoutes`). */
  readonly #routes = new RecentMap<string, ReadonlyArray<readonly [Airport, Airport]>>(50_000);

  /** @throws Error when a hub airport is missing from the location data. */
  constructor(options: SimulatedTimetableOptions) {
    this.#carriers = resolveCarriers(options.carriers ?? CARRIERS, options.airportByIata);
    this.#airportByIata = options.airportByIata;
  }

  /** A booked flight retimed (schedule-changes.ts), its connections checked against the carriers' hubs. */
  retimeFlight(flightKey: string, itineraries: readonly BookedItinerary[], now: Date): FlightTimes | null {
    return retimedFlight({ carriers: this.#carriers, airportByIata: this.#airportByIata }, flightKey, itineraries, now);
  }

  /**
   * Offers for an already validated search, cheapest first. Each offer is one carrier's
   * itinerary for every slice; each slice departs on its own date and after the previous one
   * lands. Flights without enough seats for the passengers who need one are left out.
   */
  async search(request: SupplierSearch): Promise<SupplierOffer[]> {
    return pickBestMix(this.#journeys(request), MAX_OFFERS_PER_SEARCH)
      .sort(cheapestJourneyFirst)
      .map((journey) => buildOffer(journey, request));
  }

  /**
   * The `limit` cheapest journeys `search` would offer, as fares and the flights they need seats
   * on, without building offers: the cheapest of them is the cheapest offer of the same search
   * (the best mix always keeps the cheapest few).
   */
  async lowestFares(request: FareSearch, limit: number): Promise<FareQuote[]> {
    if (request.maxConnections === 0 && request.slices.length === 1) return this.#lowestNonstopFares(request, limit);
    const journeys = this.#journeys(request).sort(cheapestJourneyFirst).slice(0, limit);
    return journeys.map((journey) =>
      fareQuote(
        request,
        journey.price,
        journey.slices.flatMap((slice) => slice.flights.map((flight, index) => ({ flightKey: flight.key, cabinClass: slice.cabins[index]!, seatsForSale: slice.seatsLeft[index]! }))),
        { owner: journey.carrier.ref.iataCode, origin: journey.slices[0]!.flights[0]!.origin.iataCode, destination: journey.slices.at(-1)!.flights.at(-1)!.destination.iataCode },
      ),
    );
  }

  /**
   * A one-way nonstop search's cheapest fares from the flights' fares alone, without working out
   * their times: the journeys `#journeys` would find (every carrier's flights on every nonstop
   * route between the slice's airports that day), in the same order, many times cheaper.
   */
  #lowestNonstopFares(request: FareSearch, limit: number): FareQuote[] {
    const slice = request.slices[0]!;
    const seatsNeeded = passengersNeedingSeats(request.passengers);
    const found: Array<{ price: number; flight: FareQuote["flights"][number]; route: NonNullable<FareQuote["route"]> }> = [];
    for (const carrier of this.#carriers) {
      if (!sellsCabin(carrier.fareFamily, request.cabinClass)) continue;
      for (const [origin, destination] of this.#nonstopRoutes(carrier, slice.origins, slice.destinations)) {
        for (const flight of this.#schedule.flightsForFares(carrier, origin, destination, slice.departureDate)) {
          const priced = priceFlight(flight, request.cabinClass, seatsNeeded);
          if (priced) {
            const route = { owner: carrier.ref.iataCode, origin: origin.iataCode, destination: destination.iataCode };
            found.push({ price: sliceAdultFare([priced.adultFare]), flight: { flightKey: flight.key, cabinClass: priced.cabin, seatsForSale: priced.seatsLeft }, route });
          }
        }
      }
    }
    return found
      .sort((a, b) => a.price - b.price || (a.flight.flightKey < b.flight.flightKey ? -1 : 1))
      .slice(0, limit)
      .map(({ price, flight, route }) => fareQuote(request, price, [flight], route));
  }

  /**
   * For each destination, the `limit` cheapest one-way nonstop fares for one adult over `days`,
   * each with its day, cheapest first (on a tie, the earlier day): what `lowestFares` of a nonstop
   * search each day answers, gathered in one call (destination ideas price every destination of an
   * origin for a month: tens of thousands of searches).
   */
  nonstopFaresTo(origins: readonly Airport[], destinations: readonly Airport[], days: readonly string[], cabinClass: CabinClass, limit: number): DatedFare[][] {
    const passengers = [{ id: "p1", type: "adult" as const }];
    return destinations.map((destination) => {
      const fares: DatedFare[] = [];
      for (const departureDate of days) {
        const search = { slices: [{ origins: [...origins], destinations: [destination], departureDate }], passengers, cabinClass, maxConnections: 0 };
        for (const quote of this.#lowestNonstopFares(search, limit)) fares.push({ departureDate, quote });
      }
      return fares.sort((a, b) => a.quote.passengerFares[0]! - b.quote.passengerFares[0]!).slice(0, limit);
    });
  }

  /** The airports among `candidates` some carrier flies to nonstop from one of `origins`, the network being fixed: remembered per set of origins. */
  destinationsFrom(origins: readonly Airport[], candidates: readonly Airport[]): Airport[] {
    const key = origins.map((airport) => airport.id).join(",");
    let reached = this.#destinations.get(key);
    if (!reached) {
      const found = new Set<Airport>();
      for (const carrier of this.#carriers) for (const airport of nonstopDestinations(carrier, origins, candidates)) found.add(airport);
      reached = [...found];
      this.#destinations.set(key, reached);
    }
    return reached;
  }

  /** The pairs of these airports the carrier flies nonstop, the network being fixed: remembered per carrier and airports. */
  #nonstopRoutes(carrier: Carrier, origins: readonly Airport[], destinations: readonly Airport[]): ReadonlyArray<readonly [Airport, Airport]> {
    const key = `${carrier.ref.iataCode}|${origins.map((airport) => airport.iataCode).join(",")}|${destinations.map((airport) => airport.iataCode).join(",")}`;
    let routes = this.#routes.get(key);
    if (!routes) {
      routes = origins.flatMap((origin) => destinations.filter((destination) => origin.id !== destination.id && fliesNonstop(carrier, origin, destination)).map((destination) => [origin, destination] as const));
      this.#routes.set(key, routes);
    }
    return routes;
  }

  /** Every priced journey of every carrier for the search, in no order. */
  #journeys(request: FareSearch): Journey[] {
    const seatsNeeded = passengersNeedingSeats(request.passengers);
    const journeys: Journey[] = [];
    for (const carrier of this.#carriers) {
      if (!sellsCabin(carrier.fareFamily, request.cabinClass)) continue;
      const optionsPerSlice = request.slices.map((slice) => {
        const query = { ...slice, maxConnections: request.maxConnections };
        const options: SliceOption[] = [];
        for (const chain of flightChains(this.#schedule, carrier, query)) {
          const option = priceSliceOption(chain, request.cabinClass, seatsNeeded);
          if (option) options.push(option);
        }
        return options;
      });
      journeys.push(...combineSlices(optionsPerSlice));
    }
    return journeys;
  }
}

/** The fares of a journey of adult fare `price` for the searched passengers, as its offer would carry them. */
function fareQuote(request: FareSearch, price: number, flights: FareQuote["flights"], route: FareQuote["route"]): FareQuote {
  return { passengerFares: request.passengers.map((passenger) => passengerFare(price, passenger.type)), flights, route };
}

const cheapestJourneyFirst = (a: Journey, b: Journey) => a.price - b.price || (a.key < b.key ? -1 : 1);
