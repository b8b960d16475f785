import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * Typed resolvers from schema.graphql. Parents are our own types (Prisma models, domain
 * results), so a resolver cannot return a shape the schema does not expect. And the console's
 * operations (`graphql(...)` in console/src), typed from the same schema, so a schema change
 * breaks the console's build rather than its users. Run by postinstall and `npm run codegen`;
 * the output is generated, never committed.
 */
/** Input scalars checked by their shape (src/graphql/input-scalars.ts): text on both sides. */
const TEXT_SCALARS = { LocalDate: "string", IataCode: "string", CurrencyCode: "string", CountryCode: "string", DecimalAmount: "string", YearMonth: "string" };

const config: CodegenConfig = {
  schema: "schema.graphql",
  emitLegacyCommonJSImports: false,
  generates: {
    "src/generated/graphql.ts": {
      plugins: ["typescript", "typescript-resolvers"],
      config: {
        useTypeImports: true,
        contextType: "../context/request-context#RequestContext",
        mappers: {
          Tenant: "../db/models#Tenant as TenantModel",
          TenantConfig: "../tenants/tenant-config.service#TenantConfig as TenantConfigModel",
          WebhookSecretRotation: "../tenants/tenant-config.service#WebhookSecretRotation as WebhookSecretRotationModel",
          ApiKey: "../db/models#ApiKey as ApiKeyModel",
          TenantUsage: "../usage/usage.service#TenantUsage as TenantUsageModel",
          UsageDay: "../usage/usage.service#UsageDay as UsageDayModel",
          CreatedApiKey: "../tenants/api-key.service#CreatedApiKey as CreatedApiKeyModel",
          Viewer: "../graphql/resolver-parents#ViewerParent",
          Location: "../locations/airport#Airport",
          Offer: "../search/offer-payload#StoredOffer",
          Slice: "../graphql/resolver-parents#SliceParent",
          Segment: "../graphql/resolver-parents#SegmentParent",
          SearchResult: "../search/search.service#SearchResult as SearchResultModel",
          SeatMap: "../gateway/contract/seat-maps#SeatMap as SeatMapModel",
          SeatMapCabin: "../gateway/contract/seat-maps#SeatMapCabin as SeatMapCabinModel",
          SeatMapElement: "../gateway/contract/seat-maps#SeatMapElement as SeatMapElementModel",
          SeatService: "../gateway/contract/seat-maps#SeatService as SeatServiceModel",
          Order: "../orders/core/order#Order as OrderModel",
          OrderPassenger: "../orders/core/order#OrderPassenger as OrderPassengerModel",
          OrderDocument: "../orders/core/order#OrderDocument as OrderDocumentModel",
          OrderService: "../graphql/resolver-parents#OrderServiceParent",
          Payment: "../orders/payment/payment#Payment as PaymentModel",
          OrderEventNotification: "../orders/history/order-feed#OrderEventUpdate",
          OrderHistoryEvent: "../orders/history/order-history#OrderHistoryEvent as OrderHistoryEventModel",
          OrderCancellation: "../orders/cancellation/cancellation#OrderCancellation as OrderCancellationModel",
          OrderChangeRequest: "../order-changes/order-change#OrderChangeRequest as OrderChangeRequestModel",
          OrderChangeOffer: "../order-changes/order-change#OrderChangeOffer as OrderChangeOfferModel",
          OrderChange: "../order-changes/order-change#OrderChange as OrderChangeModel",
          AirlineInitiatedChange: "../orders/core/airline-change#AirlineInitiatedChange as AirlineInitiatedChangeModel",
          IdentityDocument: "../orders/core/order#IdentityDocument as IdentityDocumentModel",
          Wallet: "../wallet/wallet#WalletStanding as WalletModel",
          WalletEventNotification: "../wallet/wallet-feed#WalletEventUpdate",
          WalletTransaction: "../wallet/wallet#LedgerEntry",
          AirlineCredit: "../orders/credits/airline-credits#AirlineCredit as AirlineCreditModel",
          WalletCredit: "../wallet/wallet.service#WalletCreditResult",
          WebhookDelivery: "../events/webhook-deliveries.service#WebhookDeliveryRecord",
          WebhookEndpoint: "../events/webhook-endpoint#WebhookEndpoint as WebhookEndpointModel",
          WebhookEndpointSecretRotation: "../events/webhook-endpoints.service#EndpointSecretRotation",
          Event: "../events/events.service#StoredEvent",
          SupplierConnection: "../gateway/connections/supplier-connections.service#SupplierConnection as SupplierConnectionModel",
          PlatformAccount: "../gateway/connections/platform-accounts.service#PlatformAccount as PlatformAccountModel",
          WebhookAttempt: "../db/models#WebhookAttempt as WebhookAttemptModel",
          PricingRule: "../pricing/pricing-rule#PricingRule as PricingRuleModel",
          AuditEvent: "../audit/audit-events.service#AuditEvent as AuditEventModel",
          Statement: "../statements/statement#Statement as StatementModel",
          Overview: "../overview/overview#Overview as OverviewModel",
          OverviewFigures: "../overview/overview#OverviewFigures as OverviewFiguresModel",
        },
        scalars: { DateTime: "Date", JSONObject: "Record<string, unknown>", ...TEXT_SCALARS },
        strictScalars: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false, object: true, defaultValue: false },
        maybeValue: "T | null",
        inputMaybeValue: "T | null | undefined",
      },
    },
    "console/src/generated/": {
      preset: "client",
      documents: ["console/src/**/*.{ts,tsx}", "!console/src/generated/**"],
      presetConfig: { fragmentMasking: false },
      config: {
        useTypeImports: true,
        // DateTime arrives as ISO text over the wire.
        scalars: { DateTime: "string", JSONObject: "Record<string, unknown>", ...TEXT_SCALARS },
        strictScalars: true,
        enumsAsTypes: true,
      },
    },
  },
};

export default config;
