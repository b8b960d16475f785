import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { deleteRule, type RetentionRule } from "../retention/retention-rule";

const DAY_MS = 86_400_000;

/** The audit log: an event is removed AUDIT_RETENTION_DAYS after it was written (docs/retention.md). */
export function auditRetention(db: Database, retentionDays: number): RetentionRule {
  return deleteRule(db, "AuditEvent", ["id"], "createdAt", (now) => Sql.sql`"createdAt" < ${sqlTimestamp(db.provider, new Date(now.getTime() - retentionDays * DAY_MS))}`);
}
