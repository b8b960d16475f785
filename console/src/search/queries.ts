import { graphql } from "../generated";

export const LocationsQuery = graphql(`
  query ConsoleLocations($query: String!) {
    locations(query: $query, limit: 8) {
      id
      iataCode
      name
      cityName
      iataCountryCode
    }
  }
`);

/** An offer as the console compares and books it. */
export const OfferSummaryFragment = graphql(`
  fragment OfferSummary on Offer {
    id
    totalAmount
    totalCurrency
    baseAmount
    taxAmount
    expiresAt
    expired
    owner {
      name
    }
    supplier {
      id
      name
    }
    passengerIdentityDocumentsRequired
    passengers {
      id
      type
      fareAmount
    }
    conditions {
      ...FareConditions
    }
    paymentRequirements {
      requiresInstantPayment
      priceGuaranteeExpiresAt
    }
    slices {
      ...ItinerarySlice
    }
  }
`);

export const SearchFlightsMutation = graphql(`
  mutation ConsoleSearchFlights($input: SearchFlightsInput!) {
    searchFlights(input: $input) {
      offerRequestId
      supplierResults {
        supplier
        status
        offerCount
        durationMs
      }
    }
  }
`);

export const OffersQuery = graphql(`
  query ConsoleOffers($offerRequestId: ID!) {
    offers(offerRequestId: $offerRequestId, first: 50) {
      totalCount
      nodes {
        ...OfferSummary
      }
    }
  }
`);

export const OfferQuery = graphql(`
  query ConsoleOffer($id: ID!) {
    offer(id: $id) {
      ...OfferSummary
    }
  }
`);

export const SeatMapsQuery = graphql(`
  query ConsoleSeatMaps($offerId: ID!) {
    seatMaps(offerId: $offerId) {
      id
      segmentId
      sliceId
      cabins {
        cabinClass
        deck
        aisles
        rows {
          sections {
            elements {
              type
              designator
              name
              disclosures
              availableServices {
                id
                passengerId
                totalAmount
                totalCurrency
              }
            }
          }
        }
      }
    }
  }
`);

export const CreateOrderMutation = graphql(`
  mutation ConsoleCreateOrder($input: CreateOrderInput!, $idempotencyKey: String!) {
    createOrder(input: $input, idempotencyKey: $idempotencyKey) {
      id
      status
      totalAmount
      totalCurrency
    }
  }
`);

export const FareCalendarQuery = graphql(`
  query ConsoleFareCalendar($origin: IataCode!, $destination: IataCode!, $from: LocalDate!, $to: LocalDate!, $cabinClass: CabinClass, $adults: Int, $stayDays: Int) {
    fareCalendar(origin: $origin, destination: $destination, from: $from, to: $to, cabinClass: $cabinClass, adults: $adults, stayDays: $stayDays) {
      departureDate
      returnDate
      lowestTotalAmount
      totalCurrency
      supplier
    }
  }
`);
