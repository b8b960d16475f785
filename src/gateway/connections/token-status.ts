import { clock } from "../../clock";
import type { Database } from "../../db/database";
import { sqlTimestamp } from "../../db/sql-values";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { SupplierAccountKind } from "../contract/offers";

/** The table keeping each kind of account's token: a tenant's connections, the owner's platform accounts. */
const TABLES: Record<SupplierAccountKind, Sql.Sql> = { tenant: Sql.raw(`"SupplierConnection"`), platform: Sql.raw(`"PlatformAccount"`) };

/**
 * What the supplier said of a stored token, written on its account's row: answered, the account
 * was used now and is `active` again; refused (401), it shows `invalid` until a call succeeds or it
 * is replaced.
 */
export async function recordTokenAnswer(db: Database, account: { kind: SupplierAccountKind; connectionId: string }, answered: boolean): Promise<void> {
  const change = answered ? Sql.sql`"lastUsedAt" = ${sqlTimestamp(db.provider, clock.now())}, "status" = 'active'` : Sql.sql`"status" = 'invalid'`;
  await db.prisma.$executeRaw(Sql.sql`UPDATE ${TABLES[account.kind]} SET ${change} WHERE "id" = ${account.connectionId}`);
}
