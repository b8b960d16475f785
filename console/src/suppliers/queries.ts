import { graphql } from "../generated";

/** Every supplier's health over the last 5 minutes, every process's calls together (owner only). */
export const SuppliersQuery = graphql(`
  query ConsoleSuppliers {
    suppliers {
      id
      name
      status
      circuit
      latencyMs {
        p50
        p99
      }
      errorRate
      calls
    }
  }
`);

/** A platform account as the owner's list shows it: never its token. */
export const PlatformAccountRowFragment = graphql(`
  fragment PlatformAccountRow on PlatformAccount {
    id
    supplier
    mode
    status
    createdAt
    lastUsedAt
  }
`);

export const PlatformAccountsQuery = graphql(`
  query ConsolePlatformAccounts {
    platformAccounts {
      ...PlatformAccountRow
    }
  }
`);

export const CreatePlatformAccountMutation = graphql(`
  mutation ConsoleCreatePlatformAccount($input: CreateSupplierConnectionInput!) {
    createPlatformAccount(input: $input) {
      ...PlatformAccountRow
    }
  }
`);

export const DeletePlatformAccountMutation = graphql(`
  mutation ConsoleDeletePlatformAccount($id: ID!) {
    deletePlatformAccount(id: $id) {
      id
    }
  }
`);
