import type { TenantTable } from "../gateway/contract/connector";

/**
 * Every table of Aerogate's own that holds rows belonging to a tenant, children before parents.
 * Deleting a tenant empties each of them, and the connectors' own tables (their registrations'
 * `tenantTables`), in one transaction; a module adding a tenant-owned table adds it here (the
 * tenant-deletion test counts rows in every table with a tenantId column).
 */
export const tenantOwnedTables: readonly TenantTable[] = [
  { table: "ApiKey", deleteFor: (tx, tenantId) => tx.apiKey.deleteMany({ where: { tenantId } }) },
  { table: "UsageCounter", deleteFor: (tx, tenantId) => tx.usageCounter.deleteMany({ where: { tenantId } }) },
  { table: "DailyUsageCounter", deleteFor: (tx, tenantId) => tx.dailyUsageCounter.deleteMany({ where: { tenantId } }) },
  { table: "IdempotencyRecord", deleteFor: (tx, tenantId) => tx.idempotencyRecord.deleteMany({ where: { tenantId } }) },
  { table: "WebhookAttempt", deleteFor: (tx, tenantId) => tx.webhookAttempt.deleteMany({ where: { tenantId } }) },
  { table: "WebhookDelivery", deleteFor: (tx, tenantId) => tx.webhookDelivery.deleteMany({ where: { tenantId } }) },
  { table: "OrderEvent", deleteFor: (tx, tenantId) => tx.orderEvent.deleteMany({ where: { tenantId } }) },
  { table: "SupplierConnection", deleteFor: (tx, tenantId) => tx.supplierConnection.deleteMany({ where: { tenantId } }) },
  { table: "WebhookEndpoint", deleteFor: (tx, tenantId) => tx.webhookEndpoint.deleteMany({ where: { tenantId } }) },
  { table: "SeatIntent", deleteFor: (tx, tenantId) => tx.seatIntent.deleteMany({ where: { tenantId } }) },
  { table: "AirlineInitiatedChange", deleteFor: (tx, tenantId) => tx.airlineInitiatedChange.deleteMany({ where: { tenantId } }) },
  { table: "AirlineCredit", deleteFor: (tx, tenantId) => tx.airlineCredit.deleteMany({ where: { tenantId } }) },
  { table: "OrderChange", deleteFor: (tx, tenantId) => tx.orderChange.deleteMany({ where: { tenantId } }) },
  { table: "OrderChangeOffer", deleteFor: (tx, tenantId) => tx.orderChangeOffer.deleteMany({ where: { tenantId } }) },
  { table: "OrderChangeRequest", deleteFor: (tx, tenantId) => tx.orderChangeRequest.deleteMany({ where: { tenantId } }) },
  { table: "OrderJob", deleteFor: (tx, tenantId) => tx.orderJob.deleteMany({ where: { tenantId } }) },
  { table: "OrderDocument", deleteFor: (tx, tenantId) => tx.orderDocument.deleteMany({ where: { tenantId } }) },
  { table: "OrderFlight", deleteFor: (tx, tenantId) => tx.orderFlight.deleteMany({ where: { tenantId } }) },
  { table: "OrderPassenger", deleteFor: (tx, tenantId) => tx.orderPassenger.deleteMany({ where: { tenantId } }) },
  { table: "Order", deleteFor: (tx, tenantId) => tx.order.deleteMany({ where: { tenantId } }) },
  { table: "LedgerEntry", deleteFor: (tx, tenantId) => tx.ledgerEntry.deleteMany({ where: { tenantId } }) },
  { table: "Wallet", deleteFor: (tx, tenantId) => tx.wallet.deleteMany({ where: { tenantId } }) },
  { table: "OfferBatch", deleteFor: (tx, tenantId) => tx.offerBatch.deleteMany({ where: { tenantId } }) },
  { table: "BatchOfferRequest", deleteFor: (tx, tenantId) => tx.batchOfferRequest.deleteMany({ where: { tenantId } }) },
  { table: "OfferRequest", deleteFor: (tx, tenantId) => tx.offerRequest.deleteMany({ where: { tenantId } }) },
  { table: "PricingRule", deleteFor: (tx, tenantId) => tx.pricingRule.deleteMany({ where: { tenantId } }) },
  // Its audit trail may hold its personal data (names, addresses): it goes too, and the deletion's own event is written after it.
  { table: "AuditEvent", deleteFor: (tx, tenantId) => tx.auditEvent.deleteMany({ where: { tenantId } }) },
];
