import type { Airport } from "../locations/airport";
import { CARRIERS, type CarrierProfile } from "./carriers";
import { combineSlices, priceSliceOption, type Journey, type SliceOption } from "./journeys";
import { resolveCarriers, type Carrier } from "./network";
import { buildOffer } from "./offers";
import { sellsCabin } from "./pricing";
import { flightChains } from "./routing";
import { FlightSchedule } from "./schedule";
import { retimedFlight } from "./schedule-changes";
import { pickBestMix } from "./selection";
import { passengersNeedingSeats, type BookedItinerary, type FlightTimes, type SupplierOffer, type SupplierSearch } from "./supplier";

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
    return pickBestMix(journeys, MAX_OFFERS_PER_SEARCH)
      .sort((a, b) => a.price - b.price || (a.key < b.key ? -1 : 1))
      .map((journey) => buildOffer(journey, request));
  }
}
