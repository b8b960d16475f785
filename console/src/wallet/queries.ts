import { graphql } from "../generated";

export const WalletQuery = graphql(`
  query ConsoleWallet($first: Int, $after: String, $last: Int, $before: String) {
    wallet {
      ...WalletFigures
      transactions(first: $first, after: $after, last: $last, before: $before) {
        totalCount
        nodes {
          id
          type
          amount
          currency
          balanceAfter
          feeAmount
          orderId
          reference
          createdAt
        }
        pageInfo {
          ...PageCursors
        }
      }
    }
  }
`);

export const UpdateWalletMutation = graphql(`
  mutation ConsoleUpdateWallet($input: UpdateWalletInput!) {
    updateWallet(input: $input) {
      ...WalletFigures
    }
  }
`);
