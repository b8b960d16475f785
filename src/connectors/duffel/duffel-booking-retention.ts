import type { Database } from "../../db/database";
import { sqlTimestamp } from "../../db/sql-values";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { deleteRule, type RetentionRule } from "../../retention/retention-rule";

/**
 * A Duffel booking Duffel refused or that was given back (`failed`) is removed `retentionMs`
 * after it was asked: its offer is long gone. A booked one stays for good, the order's record at
 * Duffel; a requested one stays until it is settled (a repeat, or its cancellation).
 */
export function duffelBookingRetention(db: Database, retentionMs: number): RetentionRule {
  return deleteRule(db, "DuffelBooking", ["id"], "createdAt", (now) => Sql.sql`"createdAt" < ${sqlTimestamp(db.provider, new Date(now.getTime() - retentionMs))} AND "status" = 'failed'`);
}
