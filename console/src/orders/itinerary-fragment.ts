import { graphql } from "../generated";

/** What the console shows of a slice wherever an itinerary appears (offers, orders). */
export const ItinerarySliceFragment = graphql(`
  fragment ItinerarySlice on Slice {
    id
    departureDate
    duration
    fareBrandName
    origin {
      iataCode
      cityName
    }
    destination {
      iataCode
      cityName
    }
    segments {
      id
      departingAt
      arrivingAt
      duration
      marketingCarrierFlightNumber
      marketingCarrier {
        iataCode
        name
      }
      aircraft {
        name
      }
      cabinClass
      origin {
        iataCode
        name
      }
      destination {
        iataCode
        name
      }
    }
  }
`);
