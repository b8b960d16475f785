import type { Database } from "../db/database";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { queryRows } from "../db/query-rows";
import { dateFrom, jsonFrom, sqlJson, sqlTimestamp as timestamp } from "../db/sql-values";
import { fromLiveTenant } from "../tenants/live-tenant";
import { GuardFailed, guarded, writeBatch } from "../db/write-batch";
import type { SearchAnswer } from "./search-answer";
import { decodeSearch, encodeSearch } from "./search-encoding";

/** What an offer request keeps of its search, echoed by listings. */
export interface StoredSearch {
  slices: Array<{ origin: string; destination: string; departure_date: string }>;
  passengers: Array<{ id: string; type: string }>;
  cabin_class: string;
  max_connections: number;
}

/** An offer request as listings show it (its offers are not read). */
export interface OfferRequestRow {
  id: string;
  tenantId: string;
  request: StoredSearch;
  offerCount: number;
  expiresAt: Date;
  createdAt: Date;
}

/**
 * Stores a search — its offer request with its offers (search-encoding.ts) — as one row, and only
 * while the tenant is not deleted: the row is inserted from the tenant's row (held `FOR SHARE` on
 * PostgreSQL, so a deletion in progress is waited for and then seen). Returns false when the
 * tenant is gone. On SQLite a prepared statement on the shared connection (write-batch.ts): it is
 * the hot path.
 */
export async function insertSearch(db: Database, request: OfferRequestRow, answer: SearchAnswer): Promise<boolean> {
  const insert = Sql.sql`INSERT INTO "OfferRequest" ("id", "tenantId", "request", "offerCount", "offers", "expiresAt", "createdAt")
    SELECT ${request.id}, "id", ${sqlJson(db.provider, request.request)}, ${request.offerCount}, ${encodeSearch(answer)},
      ${timestamp(db.provider, request.expiresAt)}, ${timestamp(db.provider, request.createdAt)}
    ${fromLiveTenant(db.provider, request.tenantId)}`;
  try {
    await writeBatch(db, [guarded(insert, "tenant_live")]);
    return true;
  } catch (error) {
    if (error instanceof GuardFailed) return false;
    throw error;
  }
}

interface SearchRecord extends Record<string, unknown> {
  id: string;
  tenantId: string;
  request: unknown;
  offers: Uint8Array;
  expiresAt: unknown;
  createdAt: unknown;
}

/** The tenant's searches of these ids that are stored, each with its offers (one query). */
export async function readSearches(db: Database, tenantId: string, requestIds: readonly string[]): Promise<SearchAnswer[]> {
  if (requestIds.length === 0) return [];
  const rows = await queryRows<SearchRecord>(
    db,
    Sql.sql`SELECT "id", "tenantId", "request", "offers", "expiresAt", "createdAt" FROM "OfferRequest"
      WHERE "id" IN (${Sql.join(requestIds)}) AND "tenantId" = ${tenantId}`,
  );
  return rows.map((row) =>
    decodeSearch(row.offers, {
      requestId: row.id,
      tenantId: row.tenantId,
      createdAt: dateFrom(row.createdAt),
      expiresAt: dateFrom(row.expiresAt),
      passengers: jsonFrom<StoredSearch>(row.request).passengers as SearchAnswer["passengers"],
    }),
  );
}
