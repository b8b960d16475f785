import { graphql } from "../generated";

export const ViewerQuery = graphql(`
  query ConsoleViewer {
    viewer {
      kind
      keyId
      permissions {
        ...KeyPermissions
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
