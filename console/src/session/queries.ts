import { graphql } from "../generated";

export const ViewerQuery = graphql(`
  query ConsoleViewer {
    viewer {
      kind
      keyId
      permissions {
        search
        orders
        wallet
        webhooks
        tenant
      }
      tenant {
        id
        name
        status
        environment
        defaultCurrency
      }
    }
  }
`);
