import type { Database } from "../db/database";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import type { StoredOffer } from "./offer-payload";
import { fromLiveTenant } from "../tenants/live-tenant";
import { GuardFailed, guarded, writeBatch } from "../db/write-batch";
import { sqlTimestamp as timestamp, sqlJson } from "../db/sql-values";

/** An offer request as written (Prisma reads it back as an `OfferRequest`). */
export interface OfferRequestRow {
  id: string;
  tenantId: string;
  request: object;
  offerCount: number;
  createdAt: Date;
}

/**
 * Stores a search — its offer request and offers — in one atomic batch, and only while the
 * tenant is not deleted: the offer request is inserted from the tenant's row (held `FOR SHARE`
 * on PostgreSQL, so a deletion in progress is waited for and then seen), and that insert guards
 * the batch, so nothing is written when it writes nothing. Returns false when the tenant is gone.
 *
 * Raw SQL because it is the hot path (Prisma's `createMany` costs ~1 ms a row here), and all
 * offers in one statement: on PostgreSQL expanded from one JSON parameter by
 * `jsonb_to_recordset` (one round trip); on SQLite one multi-row `VALUES` (one prepared
 * statement per offer count instead of a statement and an existence check per offer).
 * Values are stored exactly as Prisma stores them, so Prisma reads the rows back unchanged.
 */
export async function insertSearch(db: Database, request: OfferRequestRow, offers: StoredOffer[]): Promise<boolean> {
  const created = timestamp(db.provider, request.createdAt);
  const insertRequest = Sql.sql`INSERT INTO "OfferRequest" ("id", "tenantId", "request", "offerCount", "createdAt")
    SELECT ${request.id}, "id", ${sqlJson(db.provider, request.request)}, ${request.offerCount}, ${created}
    ${fromLiveTenant(db.provider, request.tenantId)}`;
  const insertOffers = db.provider === "postgresql" ? offersFromRecordset(request, offers, created) : offerValues(request, offers, created);
  try {
    await writeBatch(db, [guarded(insertRequest, "tenant_live"), ...insertOffers]);
    return true;
  } catch (error) {
    if (error instanceof GuardFailed) return false;
    throw error;
  }
}

function offersFromRecordset(request: OfferRequestRow, offers: StoredOffer[], created: Sql.Sql): Sql.Sql[] {
  const [first] = offers;
  if (!first) return [];
  const rows = JSON.stringify(offers.map((offer) => ({ id: offer.id, totalAmount: offer.totalAmount, payload: offer.payload })));
  return [
    Sql.sql`INSERT INTO "Offer" ("id", "tenantId", "offerRequestId", "totalAmount", "currency", "expiresAt", "payload", "createdAt")
      SELECT r."id", ${request.tenantId}, ${request.id}, r."totalAmount", ${first.currency}, ${timestamp("postgresql", first.expiresAt)}, r."payload", ${created}
      FROM jsonb_to_recordset(${rows}::jsonb) AS r("id" text, "totalAmount" bigint, "payload" jsonb)`,
  ];
}

/** Every offer as one row of one insert; a search's offers share their request, currency and timestamps. */
function offerValues(request: OfferRequestRow, offers: StoredOffer[], created: Sql.Sql): Sql.Sql[] {
  const [first] = offers;
  if (!first) return [];
  const expires = timestamp("sqlite", first.expiresAt);
  const rows = offers.map(
    (offer) => Sql.sql`(${offer.id}, ${request.tenantId}, ${request.id}, ${offer.totalAmount}, ${first.currency}, ${expires}, ${JSON.stringify(offer.payload)}, ${created})`,
  );
  return [Sql.sql`INSERT INTO "Offer" ("id", "tenantId", "offerRequestId", "totalAmount", "currency", "expiresAt", "payload", "createdAt") VALUES ${Sql.join(rows)}`];
}
