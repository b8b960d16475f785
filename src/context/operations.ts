/**
 * Who may call each operation: the one permission table, read by `authorize` for GraphQL root
 * fields and REST routes alike. Names are the GraphQL root field names; REST routes name the
 * operation they perform.
 *
 * - `owner`: the owner key only; `Service-Tenant` is ignored.
 * - `tenant`: one tenant's data: a tenant key, or the owner naming the tenant in `Service-Tenant`.
 * - `anyone`: any valid key; the tenant scope is resolved when there is one.
 *
 * `write` operations are refused for a suspended tenant even when the owner acts on its behalf.
 */
export const operations = {
  viewer: { audience: "anyone", effect: "read" },
  tenants: { audience: "owner", effect: "read" },
  tenant: { audience: "owner", effect: "read" },
  tenantApiKeys: { audience: "owner", effect: "read" },
  tenantUsage: { audience: "owner", effect: "read" },
  createTenant: { audience: "owner", effect: "write" },
  updateTenant: { audience: "owner", effect: "write" },
  updateTenantStatus: { audience: "owner", effect: "write" },
  deleteTenant: { audience: "owner", effect: "write" },
  createTenantApiKey: { audience: "owner", effect: "write" },
  revokeTenantApiKey: { audience: "owner", effect: "write" },
  tenantConfig: { audience: "tenant", effect: "read" },
  updateTenantConfig: { audience: "tenant", effect: "write" },
  rotateWebhookSecret: { audience: "tenant", effect: "write" },
  webhookDeliveries: { audience: "tenant", effect: "read" },
  redeliverWebhook: { audience: "tenant", effect: "write" },
  locations: { audience: "anyone", effect: "read" },
  searchFlights: { audience: "tenant", effect: "write" },
  offer: { audience: "tenant", effect: "read" },
  offers: { audience: "tenant", effect: "read" },
  offerRequests: { audience: "tenant", effect: "read" },
  seatMaps: { audience: "tenant", effect: "read" },
  orders: { audience: "tenant", effect: "read" },
  order: { audience: "tenant", effect: "read" },
  bookings: { audience: "tenant", effect: "read" },
  createOrder: { audience: "tenant", effect: "write" },
  updateOrderPassengers: { audience: "tenant", effect: "write" },
  ticketOrder: { audience: "tenant", effect: "write" },
  payOrder: { audience: "tenant", effect: "write" },
  cancelOrder: { audience: "tenant", effect: "write" },
  refundOrder: { audience: "tenant", effect: "write" },
  orderStatusChanged: { audience: "tenant", effect: "read" },
  orderEvents: { audience: "tenant", effect: "read" },
  wallet: { audience: "tenant", effect: "read" },
  walletTransactions: { audience: "tenant", effect: "read" },
  creditWallet: { audience: "owner", effect: "write" },
} as const satisfies Record<string, { audience: "owner" | "tenant" | "anyone"; effect: "read" | "write" }>;

export type Operation = keyof typeof operations;

export function isOperation(name: string): name is Operation {
  return Object.hasOwn(operations, name);
}
