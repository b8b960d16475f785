import { graphql } from "../generated";

export const OverviewQuery = graphql(`
  query ConsoleOverview($from: String, $to: String) {
    overview(from: $from, to: $to) {
      from
      to
      currency
      totals {
        searches
        ordersBooked
        ordersTicketed
        grossBookingValue
        feesEarned
        refunds
        lookToBook
        webhookFailureRate
      }
      tenants {
        tenantId
        name
        status
        figures {
          searches
          ordersBooked
          ordersTicketed
          grossBookingValue
          feesEarned
          refunds
          lookToBook
          webhookFailureRate
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
