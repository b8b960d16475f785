import { graphql } from "../generated";

/** A key as the tenant's key list shows it. */
export const ApiKeyRowFragment = graphql(`
  fragment ApiKeyRow on ApiKey {
    id
    label
    prefix
    createdAt
    revokedAt
    permissions {
      ...KeyPermissions
    }
  }
`);

export const TenantsQuery = graphql(`
  query ConsoleTenants($first: Int, $after: String, $last: Int, $before: String, $search: String) {
    tenants(first: $first, after: $after, last: $last, before: $before, search: $search) {
      totalCount
      nodes {
        id
        name
        email
        slug
        environment
        status
        createdAt
      }
      pageInfo {
        ...PageCursors
      }
    }
  }
`);

export const CreateTenantMutation = graphql(`
  mutation ConsoleCreateTenant($input: CreateTenantInput!) {
    createTenant(input: $input) {
      id
    }
  }
`);

export const TenantQuery = graphql(`
  query ConsoleTenant($id: ID!) {
    tenant(id: $id) {
      id
      name
      email
      slug
      environment
      status
      createdAt
      deletedAt
      platformAccounts
      apiKeys(first: 100) {
        totalCount
        nodes {
          ...ApiKeyRow
        }
      }
    }
  }
`);

export const UpdateTenantStatusMutation = graphql(`
  mutation ConsoleUpdateTenantStatus($id: ID!, $status: TenantStatusInput!) {
    updateTenantStatus(id: $id, status: $status) {
      id
      status
    }
  }
`);

export const DeleteTenantMutation = graphql(`
  mutation ConsoleDeleteTenant($id: ID!) {
    deleteTenant(id: $id) {
      id
      status
      name
      email
      deletedAt
    }
  }
`);

export const CreateTenantApiKeyMutation = graphql(`
  mutation ConsoleCreateTenantApiKey($tenantId: ID!, $label: String!, $permissions: ApiKeyPermissionsInput) {
    createTenantApiKey(tenantId: $tenantId, label: $label, permissions: $permissions) {
      apiKey
      key {
        ...ApiKeyRow
      }
    }
  }
`);

export const RevokeTenantApiKeyMutation = graphql(`
  mutation ConsoleRevokeTenantApiKey($tenantId: ID!, $keyId: ID!) {
    revokeTenantApiKey(tenantId: $tenantId, keyId: $keyId) {
      id
      revokedAt
    }
  }
`);

export const TenantWalletQuery = graphql(`
  query ConsoleTenantWallet {
    wallet {
      ...WalletFigures
    }
  }
`);

export const CreditWalletMutation = graphql(`
  mutation ConsoleCreditWallet($tenantId: ID!, $amount: DecimalAmount!, $currency: CurrencyCode!, $reference: String, $idempotencyKey: String) {
    creditWallet(tenantId: $tenantId, amount: $amount, currency: $currency, reference: $reference, idempotencyKey: $idempotencyKey) {
      transaction {
        id
        amount
        currency
      }
      wallet {
        ...WalletFigures
      }
    }
  }
`);

export const UpdateTenantWalletMutation = graphql(`
  mutation ConsoleUpdateTenantWallet($tenantId: ID!, $input: UpdateTenantWalletInput!) {
    updateTenantWallet(tenantId: $tenantId, input: $input) {
      ...WalletFigures
    }
  }
`);

export const TenantUsageQuery = graphql(`
  query ConsoleTenantUsage($id: ID!, $from: LocalDate!, $to: LocalDate!) {
    tenant(id: $id) {
      id
      usage {
        apiRequests
        searches
        ordersTotal
        tickets
        walletSpend {
          amount
          currency
        }
        webhookDeliveries {
          succeeded
          failed
          pending
        }
        daily(from: $from, to: $to) {
          date
          apiRequests
          searches
          orders
          tickets
          walletSpend {
            amount
            currency
          }
        }
      }
    }
  }
`);

export const UpdateTenantPlatformAccountsMutation = graphql(`
  mutation ConsoleUpdateTenantPlatformAccounts($id: ID!, $platformAccounts: [String!]!) {
    updateTenant(id: $id, input: { platformAccounts: $platformAccounts }) {
      id
      platformAccounts
    }
  }
`);
