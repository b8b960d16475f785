import type { Database } from "../db/database";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import type { StoredOffer } from "./offer-payload";
import { fromLiveTenant } from "../tenants/live-tenant";
import { writeBatch } from "../db/write-batch";
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
 * on PostgreSQL, so a deletion in progress is waited for and then seen), and the offers only if
 * that request row exists. Returns false when the tenant is gone.
 *
 * Raw SQL because it is the hot path (Prisma's `createMany` costs ~1 ms a row here). PostgreSQL
 * gets all offers in one statement, expanded from one JSON parameter by `jsonb_to_recordset`,
 * to save round trips; SQLite, in-process, gets one prepared insert per offer, which `writeBatch`
 * runs in ~1 ms for 50 offers (a `json_each` expansion costs SQLite more than it saves).
 * Values are stored exactly as Prisma stores them, so Prisma reads the rows back unchanged.
 */
export async function insertSearch(db: Database, request: OfferRequestRow, offers: StoredOffer[]): Promise<boolean> {
  const created = timestamp(db.provider, request.createdAt);
  const insertRequest = Sql.sql`INSERT INTO "OfferRequest" ("id", "tenantId", "request", "offerCount", "createdAt")
    SELECT ${request.id}, "id", ${sqlJson(db.provider, request.request)}, ${request.offerCount}, ${created}
    ${fromLiveTenant(db.provider, request.tenantId)}`;
  const insertOffers = db.provider === "postgresql" ? offersFromRecordset(request, offers, created) : offerRows(offers, created);
  const [inserted] = await writeBatch(db, [insertRequest, ...insertOffers]);
  return inserted === 1;
}

function offersFromRecordset(request: OfferRequestRow, offers: StoredOffer[], created: Sql.Sql): Sql.Sql[] {
  const [first] = offers;
  if (!first) return [];
  const rows = JSON.stringify(offers.map((offer) => ({ id: offer.id, totalAmount: offer.totalAmount, payload: offer.payload })));
  return [
    Sql.sql`INSERT INTO "Offer" ("id", "tenantId", "offerRequestId", "totalAmount", "currency", "expiresAt", "payload", "createdAt")
      SELECT r."id", ${request.tenantId}, ${request.id}, r."totalAmount", ${first.currency}, ${timestamp("postgresql", first.expiresAt)}, r."payload", ${created}
      FROM jsonb_to_recordset(${rows}::jsonb) AS r("id" text, "totalAmount" bigint, "payload" jsonb)
      WHERE EXISTS (SELECT 1 FROM "OfferRequest" WHERE "id" = ${request.id})`,
  ];
}

/** One insert per offer; a search's offers all expire together, so that timestamp is formatted once. */
function offerRows(offers: StoredOffer[], created: Sql.Sql): Sql.Sql[] {
  const [first] = offers;
  if (!first) return [];
  const expires = timestamp("sqlite", first.expiresAt);
  return offers.map(
    (offer) => Sql.sql`INSERT INTO "Offer" ("id", "tenantId", "offerRequestId", "totalAmount", "currency", "expiresAt", "payload", "createdAt")
      SELECT ${offer.id}, ${offer.tenantId}, ${offer.offerRequestId}, ${offer.totalAmount}, ${offer.currency}, ${expires}, ${JSON.stringify(offer.payload)}, ${created}
      WHERE EXISTS (SELECT 1 FROM "OfferRequest" WHERE "id" = ${offer.offerRequestId})`,
  );
}
