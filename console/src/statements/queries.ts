import { graphql } from "../generated";

export const StatementQuery = graphql(`
  query ConsoleStatement($month: String!) {
    statement(month: $month) {
      month
      timeZone
      currency
      openingBalance
      closingBalance
      lines {
        id
      }
    }
  }
`);
