import type { Database } from "../db/database";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import type { StoredOffer } from "./offer-payload";
import { fromLiveTenant } from "../tenants/live-tenant";

/** An offer request as written (Prisma reads it back as an `OfferRequest`). */
export interface OfferRequestRow {
  id: string;
  tenantId: string;
  request: object;
  offerCount: number;
  createdAt: Date;
}

/** DateTime as Prisma writes it: ISO text with `+00:00` on SQLite, `timestamp(3)` on PostgreSQL. */
function timestamp(provider: Database["provider"], date: Date) {
  const text = date.toISOString().replace("Z", "+00:00");
  return provider === "postgresql" ? Sql.sql`${text}::timestamp(3)` : Sql.sql`${text}`;
}

/**
 * Stores a search — its offer request and offers — in one batch of two statements, atomically,
 * and only while the tenant is not deleted: the offer request is inserted from the tenant's row
 * (held `FOR SHARE` on PostgreSQL, so a deletion in progress is waited for and then seen), and
 * the offers only if that request row exists. Returns false when the tenant is gone.
 *
 * Raw SQL because it is the hot path: Prisma's `createMany` costs ~1 ms a row here, an
 * interactive transaction a few ms more; one JSON parameter expanded by the database
 * (`json_each` / `jsonb_to_recordset`) carries all offers. Values are stored exactly as Prisma
 * stores them, so Prisma reads the rows back unchanged.
 */
export async function insertSearch(db: Database, request: OfferRequestRow, offers: StoredOffer[]): Promise<boolean> {
  const postgres = db.provider === "postgresql";
  const json = (text: string) => (postgres ? Sql.sql`${text}::jsonb` : Sql.sql`${text}`);
  const created = timestamp(db.provider, request.createdAt);
  const insertRequest = db.prisma.$executeRaw`INSERT INTO "OfferRequest" ("id", "tenantId", "request", "offerCount", "createdAt")
    SELECT ${request.id}, "id", ${json(JSON.stringify(request.request))}, ${request.offerCount}, ${created}
    ${fromLiveTenant(db.provider, request.tenantId)}`;
  const [first] = offers;
  if (!first) {
    const [inserted] = await db.prisma.$transaction([insertRequest]);
    return inserted === 1;
  }
  const rows = JSON.stringify(offers.map((offer) => ({ id: offer.id, totalAmount: offer.totalAmount, payload: offer.payload })));
  const expires = timestamp(db.provider, first.expiresAt);
  const insertOffers = postgres
    ? db.prisma.$executeRaw`INSERT INTO "Offer" ("id", "tenantId", "offerRequestId", "totalAmount", "currency", "expiresAt", "payload", "createdAt")
        SELECT r."id", ${request.tenantId}, ${request.id}, r."totalAmount", ${first.currency}, ${expires}, r."payload", ${created}
        FROM jsonb_to_recordset(${rows}::jsonb) AS r("id" text, "totalAmount" integer, "payload" jsonb)
        WHERE EXISTS (SELECT 1 FROM "OfferRequest" WHERE "id" = ${request.id})`
    : db.prisma.$executeRaw`INSERT INTO "Offer" ("id", "tenantId", "offerRequestId", "totalAmount", "currency", "expiresAt", "payload", "createdAt")
        SELECT value ->> 'id', ${request.tenantId}, ${request.id}, value ->> 'totalAmount', ${first.currency}, ${expires}, value ->> 'payload', ${created}
        FROM json_each(${rows})
        WHERE EXISTS (SELECT 1 FROM "OfferRequest" WHERE "id" = ${request.id})`;
  const [inserted] = await db.prisma.$transaction([insertRequest, insertOffers]);
  return inserted === 1;
}
