import { graphql } from "../generated";

/** A tenant's, or the platform's, figures as the overview shows them. */
export const OverviewFiguresFragment = graphql(`
  fragment OverviewFiguresFields on OverviewFigures {
        searches
        ordersBooked
        ordersTicketed
        grossBookingValue
        feesEarned
        refunds
        lookToBook
        webhookFailureRate
  }
`);

export const OverviewQuery = graphql(`
  query ConsoleOverview($from: String, $to: String) {
    overview(from: $from, to: $to) {
      from
      to
      currency
      totals {
        ...OverviewFiguresFields
      }
      tenants {
        tenantId
        name
        status
        figures {
          ...OverviewFiguresFields
        }
      }
      days {
        date
        searches
        ordersTicketed
        grossBookingValue
        feesEarned
      }
    }
  }
`);
