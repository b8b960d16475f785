import type { Database } from "../db/database";
import { queryRows } from "../db/query-rows";
import { sqlTimestamp } from "../db/sql-values";
import { GuardFailed, guarded, writeBatch } from "../db/write-batch";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { fromLiveTenant } from "../tenants/live-tenant";
import type { SupplierResult, SupplierStatus } from "../gateway/contract/gateway";
import type { SupplierRef } from "../gateway/contract/offers";

/** A batch offer request as stored (docs/gateway.md#batch-offer-requests). */
export interface BatchOfferRequestRow {
  id: string;
  tenantId: string;
  totalBatches: number;
  /** The search's deadline, on the process clock: by then every supplier has answered or is `timeout`. */
  deadlineAt: Date;
  /** When its batches' offers expire, on the tenant's clock (as `createdAt`). */
  expiresAt: Date;
  createdAt: Date;
}

/** One supplier's batch: pending (`status` null) until the supplier answers or misses the deadline. */
export interface OfferBatchRow {
  supplier: string;
  position: number;
  status: string | null;
  offerCount: number;
  durationMs: number;
  offerRequestId: string | null;
  arrivedAt: Date | null;
  answeredAt: Date | null;
}

/**
 * Stores the request with a pending batch per supplier, in one transaction, and only while the
 * tenant is not deleted (the request is inserted from the tenant's row, as a search is:
 * search-rows.ts). Returns false when the tenant is gone.
 */
export async function insertBatchRequest(db: Database, request: BatchOfferRequestRow, suppliers: readonly SupplierRef[]): Promise<boolean> {
  const at = (date: Date) => sqlTimestamp(db.provider, date);
  const header = Sql.sql`INSERT INTO "BatchOfferRequest" ("id", "tenantId", "totalBatches", "deadlineAt", "expiresAt", "createdAt")
    SELECT ${request.id}, "id", ${request.totalBatches}, ${at(request.deadlineAt)}, ${at(request.expiresAt)}, ${at(request.createdAt)}
    ${fromLiveTenant(db.provider, request.tenantId)}`;
  const batches = suppliers.map(
    (supplier, position) =>
      Sql.sql`INSERT INTO "OfferBatch" ("batchOfferRequestId", "supplier", "tenantId", "position", "expiresAt") VALUES (${request.id}, ${supplier.id}, ${request.tenantId}, ${position}, ${at(request.expiresAt)})`,
  );
  try {
    await writeBatch(db, [guarded(header, "tenant_live"), ...batches]);
    return true;
  } catch (error) {
    if (error instanceof GuardFailed) return false;
    throw error;
  }
}

/** The tenant's batch offer request, or null (unknown, or another tenant's). */
export async function findBatchRequest(db: Database, tenantId: string, id: string): Promise<BatchOfferRequestRow | null> {
  return db.prisma.batchOfferRequest.findFirst({ where: { id, tenantId } });
}

/** A supplier's batch arrived: its outcome and the search its offers are stored as. Only a pending batch is filled (the first outcome stands). */
export async function recordArrival(db: Database, requestId: string, result: SupplierResult, offerRequestId: string | null, arrivedAt: Date): Promise<void> {
  await db.prisma.offerBatch.updateMany({
    where: { batchOfferRequestId: requestId, supplier: result.supplier, status: null },
    data: { status: result.status, offerCount: result.offerCount, durationMs: result.durationMs, offerRequestId, arrivedAt },
  });
}

/**
 * Gives up on the batches still pending past the deadline (the process running the search died,
 * or lost its database): each is `timeout`, with no offers, having taken from `startedAt` (the
 * process clock's time of the request) until `now`.
 */
export async function settleOverdue(db: Database, requestId: string, now: Date, startedAt: Date): Promise<void> {
  const status: SupplierStatus = "timeout";
  await db.prisma.offerBatch.updateMany({
    where: { batchOfferRequestId: requestId, status: null },
    data: { status, durationMs: now.getTime() - startedAt.getTime(), arrivedAt: now },
  });
}

/**
 * Takes every batch that has arrived and no read has answered yet, for this read: one
 * statement, so of reads racing in several processes each batch goes to one.
 */
export async function takeArrived(db: Database, requestId: string, now: Date): Promise<Set<string>> {
  const rows = await queryRows<{ supplier: string }>(
    db,
    Sql.sql`UPDATE "OfferBatch" SET "answeredAt" = ${sqlTimestamp(db.provider, now)}
      WHERE "batchOfferRequestId" = ${requestId} AND "status" IS NOT NULL AND "answeredAt" IS NULL
      RETURNING "supplier"`,
  );
  return new Set(rows.map((row) => row.supplier));
}

/** The request's batches, in the order they arrived (pending ones last, each in the tenant's order). */
export async function readBatches(db: Database, requestId: string): Promise<OfferBatchRow[]> {
  const rows = await db.prisma.offerBatch.findMany({
    where: { batchOfferRequestId: requestId },
    select: { supplier: true, position: true, status: true, offerCount: true, durationMs: true, offerRequestId: true, arrivedAt: true, answeredAt: true },
  });
  const arrival = (row: OfferBatchRow) => row.arrivedAt?.getTime() ?? Number.POSITIVE_INFINITY;
  return rows.sort((a, b) => arrival(a) - arrival(b) || a.position - b.position);
}
