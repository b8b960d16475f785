import { graphql } from "../generated";

/**
 * Selections several pages share; an operation spreads them by name (`...PageCursors`) and
 * codegen includes them in its document.
 */

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

/** A connection's cursors, as every paged list asks for them (ui/paging.ts). */
export const PageCursorsFragment = graphql(`
  fragment PageCursors on PageInfo {
    hasNextPage
    hasPreviousPage
    startCursor
    endCursor
  }
`);

/** A key's level on each resource (the viewer's own, and each listed key's). */
export const KeyPermissionsFragment = graphql(`
  fragment KeyPermissions on ApiKeyPermissions {
    search
    orders
    wallet
    webhooks
    tenant
  }
`);

/** Whether an offer (or the offer an order booked) may be changed or refunded, and at what penalty. */
export const FareConditionsFragment = graphql(`
  fragment FareConditions on OfferConditions {
    changeBeforeDeparture {
      allowed
      penaltyAmount
      penaltyCurrency
    }
    refundBeforeDeparture {
      allowed
      penaltyAmount
      penaltyCurrency
    }
  }
`);

/** The wallet's figures and settings, as the tenant's Wallet page and the owner's tenant page show them. */
export const WalletFiguresFragment = graphql(`
  fragment WalletFigures on Wallet {
    balance
    currency
    creditLimit
    reserved
    available
    lowBalanceThreshold
    updatedAt
  }
`);
