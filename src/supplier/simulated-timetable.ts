import type { Airport } from "../locations/airport";
import { RecentMap } from "../recent-map";
import { CARRIERS } from "./carriers";
import { combineSlices, priceSliceOption, type Journey, type SliceOption } from "./journeys";
import { resolveCarriers, type Carrier } from "./network";
import { buildOffer } from "./offers";
import { passengerFare, sellsCabin } from "./pricing";
import { flightChains, nonstopDestinations } from "./routing";
import { FlightSchedule } from "./schedule";
import { retimedFlight } from "./schedule-changes";
import { pickBestMix } from "./selection";
import { passengersNeedingSeats, type BookedItinerary, type FareQuote, type FlightTimes, type SupplierOffer, type SupplierSearch } from "./supplier";

/** Most offers one search returns: the best mix of cheap, fast and direct. */
export const MAX_OFFERS_PER_SEARCH = 50;

export interface SimulatedTimetableOptions {
  /** Resolves the carriers' hub codes, e.g. `(code) => airportIndex().getByIata(code)`. */
  airportByIata: (iataCode: string) => Airport | undefined;
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

  /** @throws Error when a hub airport is missing from the location data. */
  constructor(options: SimulatedTimetableOptions) {
    this.#carriers = resolveCarriers(CARRIERS, options.airportByIata);
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
  async lowestFares(request: SupplierSearch, limit: number): Promise<FareQuote[]> {
    const journeys = this.#journeys(request).sort(cheapestJourneyFirst).slice(0, limit);
    return journeys.map((journey) => {
      const passengerFares = request.passengers.map((passenger) => passengerFare(journey.price, passenger.type));
      const flights = journey.slices.flatMap((slice) =>
        slice.flights.map((flight, index) => ({ flightKey: flight.key, cabinClass: slice.cabins[index]!, seatsForSale: slice.seatsLeft[index]! })),
      );
      return { passengerFares, flights };
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

  /** Every priced journey of every carrier for the search, in no order. */
  #journeys(request: SupplierSearch): Journey[] {
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

const cheapestJourneyFirst = (a: Journey, b: Journey) => a.price - b.price || (a.key < b.key ? -1 : 1);
