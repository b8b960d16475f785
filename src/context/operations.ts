import type { Permission } from "../tenancy/key-permissions";

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
 *
 * `permission` is the resource and level a restricted tenant key needs (docs/authentication.md#key-permissions): `write`
 * includes `read`; searching needs only `search:read`. Null: no tenant resource (owner-only
 * operations, which no tenant key may call, and `viewer`, which any key may). `authorize`
 * enforces it; the owner key is unrestricted.
 *
 * `whenGiven`: an input (a GraphQL argument, or the REST query parameter of the same name in
 * snake_case) that makes the call another operation too, whose rule is checked as well when the
 * input is given at all: a seat map of an order shows that order, so it needs `orders:read`.
 *
 * `alsoPerforms`: operations whose rules the call always meets as well, because its answer shows
 * their data: the events API shows each order event's order, so it needs `orders:read` besides
 * the webhooks' permission.
 */
export interface OperationRule {
  audience: "owner" | "tenant" | "anyone";
  effect: "read" | "write";
  permission: Permission | null;
  whenGiven?: Readonly<Record<string, string>>;
  alsoPerforms?: readonly string[];
}

export const operations = {
  viewer: { audience: "anyone", effect: "read", permission: null },
  tenants: { audience: "owner", effect: "read", permission: null },
  tenant: { audience: "owner", effect: "read", permission: null },
  tenantApiKeys: { audience: "owner", effect: "read", permission: null },
  tenantUsage: { audience: "owner", effect: "read", permission: null },
  suppliers: { audience: "owner", effect: "read", permission: null },
  createTenant: { audience: "owner", effect: "write", permission: null },
  updateTenant: { audience: "owner", effect: "write", permission: null },
  updateTenantStatus: { audience: "owner", effect: "write", permission: null },
  deleteTenant: { audience: "owner", effect: "write", permission: null },
  createTenantApiKey: { audience: "owner", effect: "write", permission: null },
  revokeTenantApiKey: { audience: "owner", effect: "write", permission: null },
  tenantConfig: { audience: "tenant", effect: "read", permission: "tenant:read" },
  updateTenantConfig: { audience: "tenant", effect: "write", permission: "tenant:write" },
  /** Performed by updateTenantConfig (PATCH /v1/tenant) besides it when the patch names webhook_url or webhook_enabled. */
  updateWebhookSettings: { audience: "tenant", effect: "write", permission: "webhooks:write" },
  rotateWebhookSecret: { audience: "tenant", effect: "write", permission: "webhooks:write" },
  webhookDeliveries: { audience: "tenant", effect: "read", permission: "webhooks:read" },
  redeliverWebhook: { audience: "tenant", effect: "write", permission: "webhooks:write" },
  webhookEndpoints: { audience: "tenant", effect: "read", permission: "webhooks:read" },
  webhookEndpoint: { audience: "tenant", effect: "read", permission: "webhooks:read" },
  createWebhookEndpoint: { audience: "tenant", effect: "write", permission: "webhooks:write" },
  updateWebhookEndpoint: { audience: "tenant", effect: "write", permission: "webhooks:write" },
  deleteWebhookEndpoint: { audience: "tenant", effect: "write", permission: "webhooks:write" },
  rotateWebhookEndpointSecret: { audience: "tenant", effect: "write", permission: "webhooks:write" },
  pingWebhookEndpoint: { audience: "tenant", effect: "write", permission: "webhooks:write" },
  /** The events API: each event as its webhooks carried it, read with the webhooks' permission and, for the orders the events show, the orders'. */
  events: { audience: "tenant", effect: "read", permission: "webhooks:read", alsoPerforms: ["orderEvents"] },
  event: { audience: "tenant", effect: "read", permission: "webhooks:read", alsoPerforms: ["orderEvents"] },
  /** A tenant's own accounts with suppliers that take one: tenant configuration, so `tenant` permissions. */
  supplierConnections: { audience: "tenant", effect: "read", permission: "tenant:read" },
  createSupplierConnection: { audience: "tenant", effect: "write", permission: "tenant:write" },
  deleteSupplierConnection: { audience: "tenant", effect: "write", permission: "tenant:write" },
  /** The owner's platform accounts with those suppliers, which the tenants it chooses book through. */
  platformAccounts: { audience: "owner", effect: "read", permission: null },
  createPlatformAccount: { audience: "owner", effect: "write", permission: null },
  deletePlatformAccount: { audience: "owner", effect: "write", permission: null },
  setSupplierConnectionWebhookSecret: { audience: "tenant", effect: "write", permission: "tenant:write" },
  registerSupplierConnectionWebhook: { audience: "tenant", effect: "write", permission: "tenant:write" },
  locations: { audience: "anyone", effect: "read", permission: "search:read" },
  searchFlights: { audience: "tenant", effect: "write", permission: "search:read" },
  /** Batch offer requests (REST only; GraphQL streams a search with searchOffers): a search, read a batch at a time. */
  createBatchOfferRequest: { audience: "tenant", effect: "write", permission: "search:read" },
  batchOfferRequest: { audience: "tenant", effect: "read", permission: "search:read" },
  /** Indicative prices from the suppliers' schedules: nothing is stored, so searching's permission. */
  fareCalendar: { audience: "tenant", effect: "read", permission: "search:read" },
  destinations: { audience: "tenant", effect: "read", permission: "search:read" },
  offer: { audience: "tenant", effect: "read", permission: "search:read" },
  offers: { audience: "tenant", effect: "read", permission: "search:read" },
  offerRequests: { audience: "tenant", effect: "read", permission: "search:read" },
  seatMaps: { audience: "tenant", effect: "read", permission: "search:read", whenGiven: { orderId: "orderSeatMaps" } },
  /** Performed by seatMaps besides it when it names an order (orderId, order_id): the map shows the order's flights, cabin and passengers. */
  orderSeatMaps: { audience: "tenant", effect: "read", permission: "orders:read" },
  orders: { audience: "tenant", effect: "read", permission: "orders:read" },
  order: { audience: "tenant", effect: "read", permission: "orders:read" },
  bookings: { audience: "tenant", effect: "read", permission: "orders:read" },
  createOrder: { audience: "tenant", effect: "write", permission: "orders:write" },
  updateOrderPassengers: { audience: "tenant", effect: "write", permission: "orders:write" },
  ticketOrder: { audience: "tenant", effect: "write", permission: "orders:write" },
  payOrder: { audience: "tenant", effect: "write", permission: "orders:write" },
  cancelOrder: { audience: "tenant", effect: "write", permission: "orders:write" },
  refundOrder: { audience: "tenant", effect: "write", permission: "orders:write" },
  orderAvailableServices: { audience: "tenant", effect: "read", permission: "orders:read" },
  addOrderServices: { audience: "tenant", effect: "write", permission: "orders:write" },
  quoteOrderCancellation: { audience: "tenant", effect: "write", permission: "orders:write" },
  confirmOrderCancellation: { audience: "tenant", effect: "write", permission: "orders:write" },
  orderCancellation: { audience: "tenant", effect: "read", permission: "orders:read" },
  airlineCredits: { audience: "tenant", effect: "read", permission: "orders:read" },
  orderCancellations: { audience: "tenant", effect: "read", permission: "orders:read" },
  requestOrderChange: { audience: "tenant", effect: "write", permission: "orders:write" },
  orderChangeRequest: { audience: "tenant", effect: "read", permission: "orders:read" },
  orderChangeOffer: { audience: "tenant", effect: "read", permission: "orders:read" },
  createOrderChange: { audience: "tenant", effect: "write", permission: "orders:write" },
  orderChange: { audience: "tenant", effect: "read", permission: "orders:read" },
  confirmOrderChange: { audience: "tenant", effect: "write", permission: "orders:write" },
  acceptAirlineInitiatedChange: { audience: "tenant", effect: "write", permission: "orders:write" },
  /** Sandbox tenants only (docs/rest-api.md#airline-initiated-changes): a live tenant is answered as if the route did not exist. */
  simulateAirlineInitiatedChange: { audience: "tenant", effect: "write", permission: "orders:write" },
  sandboxClock: { audience: "tenant", effect: "read", permission: "tenant:read" },
  advanceSandboxClock: { audience: "tenant", effect: "write", permission: "tenant:write" },
  resetSandboxClock: { audience: "tenant", effect: "write", permission: "tenant:write" },
  orderStatusChanged: { audience: "tenant", effect: "read", permission: "orders:read" },
  orderEvents: { audience: "tenant", effect: "read", permission: "orders:read" },
  walletEvents: { audience: "tenant", effect: "read", permission: "wallet:read" },
  searchOffers: { audience: "tenant", effect: "write", permission: "search:read" },
  wallet: { audience: "tenant", effect: "read", permission: "wallet:read" },
  walletTransactions: { audience: "tenant", effect: "read", permission: "wallet:read" },
  updateWallet: { audience: "tenant", effect: "write", permission: "wallet:write" },
  updateTenantWallet: { audience: "owner", effect: "write", permission: null },
  creditWallet: { audience: "owner", effect: "write", permission: null },
  /** The owner's fees on offers (docs/running-the-platform.md#fees): tenant keys may not read them either. */
  pricingRules: { audience: "owner", effect: "read", permission: null },
  pricingRule: { audience: "owner", effect: "read", permission: null },
  createPricingRule: { audience: "owner", effect: "write", permission: null },
  updatePricingRule: { audience: "owner", effect: "write", permission: null },
  deletePricingRule: { audience: "owner", effect: "write", permission: null },
  /** The owner's figures of the platform, per tenant and per day (docs/running-the-platform.md#overview). */
  overview: { audience: "owner", effect: "read", permission: null },
  /** A month of the wallet as JSON, CSV or PDF (docs/running-the-platform.md#statements). */
  statement: { audience: "tenant", effect: "read", permission: "wallet:read" },
  /** A ticketed order's receipt (PDF). */
  orderInvoice: { audience: "tenant", effect: "read", permission: "orders:read" },
  /** The audit log: the owner's whole (one tenant's with Service-Tenant), a tenant key its own tenant's. */
  auditEvents: { audience: "anyone", effect: "read", permission: "tenant:read" },
  auditEvent: { audience: "anyone", effect: "read", permission: "tenant:read" },
} as const satisfies Record<string, OperationRule>;

export type Operation = keyof typeof operations;

/** The operations `whenGiven` and `alsoPerforms` entries name: one missing from the table fails to compile here. */
type WhenGivenOperation = { [K in Operation]: (typeof operations)[K] extends { whenGiven: infer W } ? W[keyof W] : never }[Operation];
type AlsoPerformedOperation = { [K in Operation]: (typeof operations)[K] extends { alsoPerforms: ReadonlyArray<infer A> } ? A : never }[Operation];
operations satisfies Record<WhenGivenOperation | AlsoPerformedOperation, OperationRule>;

export function isOperation(name: string): name is Operation {
  return Object.hasOwn(operations, name);
}
