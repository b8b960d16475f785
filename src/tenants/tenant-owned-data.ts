import type { Prisma } from "../db/models";

type Tx = Prisma.TransactionClient;

/**
 * Every table that holds rows belonging to a tenant, children before parents. Deleting a
 * tenant empties each of them in one transaction; a module adding a tenant-owned table adds
 * it here (the tenant-deletion test counts rows in every table with a tenantId column).
 */
export const tenantOwnedTables: ReadonlyArray<{ table: string; deleteFor: (tx: Tx, tenantId: string) => Promise<unknown> }> = [
  { table: "ApiKey", deleteFor: (tx, tenantId) => tx.apiKey.deleteMany({ where: { tenantId } }) },
  { table: "UsageCounter", deleteFor: (tx, tenantId) => tx.usageCounter.deleteMany({ where: { tenantId } }) },
  { table: "DailyUsageCounter", deleteFor: (tx, tenantId) => tx.dailyUsageCounter.deleteMany({ where: { tenantId } }) },
  { table: "IdempotencyRecord", deleteFor: (tx, tenantId) => tx.idempotencyRecord.deleteMany({ where: { tenantId } }) },
  { table: "WebhookAttempt", deleteFor: (tx, tenantId) => tx.webhookAttempt.deleteMany({ where: { tenantId } }) },
  { table: "WebhookDelivery", deleteFor: (tx, tenantId) => tx.webhookDelivery.deleteMany({ where: { tenantId } }) },
  { table: "OrderEvent", deleteFor: (tx, tenantId) => tx.orderEvent.deleteMany({ where: { tenantId } }) },
  { table: "SupplierConnection", deleteFor: (tx, tenantId) => tx.supplierConnection.deleteMany({ where: { tenantId } }) },
  { table: "DuffelBooking", deleteFor: (tx, tenantId) => tx.duffelBooking.deleteMany({ where: { tenantId } }) },
  { table: "WebhookEndpoint", deleteFor: (tx, tenantId) => tx.webhookEndpoint.deleteMany({ where: { tenantId } }) },
  { table: "SeatHold", deleteFor: (tx, tenantId) => tx.seatHold.deleteMany({ where: { tenantId } }) },
  { table: "SeatAssignment", deleteFor: (tx, tenantId) => tx.seatAssignment.deleteMany({ where: { tenantId } }) },
  { table: "SeatIntent", deleteFor: (tx, tenantId) => tx.seatIntent.deleteMany({ where: { tenantId } }) },
  { table: "AirlineInitiatedChange", deleteFor: (tx, tenantId) => tx.airlineInitiatedChange.deleteMany({ where: { tenantId } }) },
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
];
