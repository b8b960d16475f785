import { isLongHaul } from "../long-haul";
import { baggageAllowances } from "./baggage";
import type { Journey, SliceOption } from "./journeys";
import { fareBrandName, fareConditions, passengerFare } from "./pricing";
import { CABIN_CLASSES, passengersNeedingSeats, type CabinClass } from "../../../gateway/contract/air";
import { type SupplierOffer, type SupplierSearch, type SupplierSegment, type SupplierSlice } from "../../../gateway/contract/offers";
import { itineraryTaxes, passengerTax } from "./taxes";

/** Turns a chosen journey into the supplier's offer shape for the searched passengers. */
export function buildOffer(journey: Journey, request: SupplierSearch): SupplierOffer {
  const { carrier } = journey;
  const slices = journey.slices.map((slice) => buildSlice(slice));
  const taxes = itineraryTaxes(slices);
  const passengers = request.passengers.map((passenger) => {
    const fareAmount = passengerFare(journey.price, passenger.type);
    return { id: passenger.id, type: passenger.type, fareAmount, taxAmount: passengerTax(taxes, passenger.type, fareAmount) };
  });
  // The fare is sold in the best cabin flown: a first-class search on narrowbodies buys business.
  const fareCabin = highestCabin(journey.slices.flatMap((slice) => slice.cabins));
  return {
    owner: carrier.ref,
    fareBrandName: fareBrandName(carrier.fareFamily, fareCabin),
    slices,
    passengers,
    totalAmount: passengers.reduce((sum, passenger) => sum + passenger.fareAmount, 0),
    baseCurrency: "USD",
    conditions: fareConditions(carrier.fareFamily, fareCabin, passengersNeedingSeats(request.passengers)),
    passengerIdentityDocumentsRequired: slices.some((slice) =>
      slice.segments.some((segment) => segment.origin.iataCountryCode !== segment.destination.iataCountryCode),
    ),
  };
}

function highestCabin(cabins: readonly CabinClass[]): CabinClass {
  return cabins.reduce((best, cabin) => (CABIN_CLASSES.indexOf(cabin) > CABIN_CLASSES.indexOf(best) ? cabin : best));
}

function buildSlice(option: SliceOption): SupplierSlice {
  const first = option.flights[0]!;
  const last = option.flights[option.flights.length - 1]!;
  const longHaul = isLongHaul(option.flights.map((flight) => flight.distanceKm));
  return {
    origin: first.origin,
    destination: last.destination,
    departureDate: first.departureDate,
    durationMinutes: option.durationMinutes,
    segments: option.flights.map((flight, i): SupplierSegment => {
      const cabin: CabinClass = option.cabins[i]!;
      return {
        flightKey: flight.key,
        marketingCarrier: flight.carrier.ref,
        marketingCarrierFlightNumber: flight.flightNumber,
        operatingCarrier: flight.carrier.ref,
        operatingCarrierFlightNumber: flight.flightNumber,
        aircraft: { iataCode: flight.aircraft.iataCode, name: flight.aircraft.name },
        origin: flight.origin,
        destination: flight.destination,
        departingAtUtc: flight.departingAtUtc,
        arrivingAtUtc: flight.arrivingAtUtc,
        departingAtLocal: flight.departingAtLocal,
        arrivingAtLocal: flight.arrivingAtLocal,
        durationMinutes: flight.durationMinutes,
        distanceKm: flight.distanceKm,
        cabinClass: cabin,
        seatsLeft: option.seatsLeft[i]!,
        baggageAllowances: baggageAllowances(flight.carrier.fareFamily, cabin, longHaul),
      };
    }),
  };
}
