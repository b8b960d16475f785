import { clock } from "../clock";
import type { Database } from "../db/database";
import type { Prisma as PrismaTypes } from "../db/models";
import { sqlJson, sqlTimestamp } from "../db/sql-values";
import { Prisma } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import type { AuditAction } from "./audit-actions";
import type { ChangeOrigin } from "./change-origin";

/**
 * THE way a configuration change is audited (docs/running-the-platform.md#audit-log): the service
 * making the change adds its event to the same transaction, as one more statement of its write
 * batch (`auditStatement`) or inside its interactive transaction (`recordAudit`). So there is no
 * change without its event and no event without its change; a change that is refused or rolled
 * back leaves none.
 */

/** `{ field: { from, to } }`: what a change changed. */
export type FieldChanges = Record<string, { from: unknown; to: unknown }>;

/** One audited change: what was done, to what, of which tenant, and what it changed. */
export interface AuditedChange {
  action: AuditAction;
  /** The tenant concerned; null for what concerns none (a platform-wide pricing rule). */
  tenantId: string | null;
  target: { type: string; id: string };
  changes?: FieldChanges;
}

/** The audit event of `change`, made `by` the request, as one INSERT to run in the change's own transaction. */
export function auditStatement(db: Pick<Database, "provider">, by: ChangeOrigin, change: AuditedChange, at: Date = clock.now()): Prisma.Sql {
  const { provider } = db;
  return Prisma.sql`INSERT INTO "AuditEvent" ("id", "action", "actorType", "actorKeyId", "actorLabel", "tenantId", "targetType", "targetId", "changes", "requestId", "ip", "userAgent", "createdAt")
    VALUES (${newId("aud", at.getTime())}, ${change.action}, ${by.actor.type}, ${by.actor.keyId}, ${by.actor.label}, ${change.tenantId}, ${change.target.type}, ${change.target.id},
      ${sqlJson(provider, withoutSecrets(change.changes ?? {}))}, ${by.requestId}, ${by.ip}, ${by.userAgent}, ${sqlTimestamp(provider, at)})`;
}

/** `auditStatement` run inside an interactive transaction. */
export async function recordAudit(tx: PrismaTypes.TransactionClient, db: Pick<Database, "provider">, by: ChangeOrigin, change: AuditedChange): Promise<void> {
  await tx.$executeRaw(auditStatement(db, by, change));
}

/** The fields of `after` whose values differ from `before`'s (compared as JSON), each with both values. */
export function fieldChanges(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): FieldChanges {
  const changes: FieldChanges = {};
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined) continue;
    const from = before[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}

/** What a creation set: every field given, from null. */
export function createdFields(values: Readonly<Record<string, unknown>>): FieldChanges {
  return fieldChanges({}, values);
}

/** What a deletion removed: every field, to null. */
export function deletedFields(values: Readonly<Record<string, unknown>>): FieldChanges {
  return Object.fromEntries(Object.entries(values).map(([field, from]) => [field, { from: from ?? null, to: null }]));
}

/** Field names that are, or hold, a credential. */
const SECRET_FIELD = /secret|token|password|api_?key|credential/i;
/** Values shaped as this platform's credentials, or as a supplier's (`<supplier>_test_…`, `<supplier>_live_…`). */
const SECRET_VALUE = /^(whsec_|sk_(owner|test|live)_|[a-z]+_(test|live)_)/;

/**
 * The changes without any credential, whatever a service passed: fields named as secrets are
 * dropped, and a value shaped like one is written as "[redacted]". The audit log never holds a
 * secret, key or token value.
 */
export function withoutSecrets(changes: FieldChanges): FieldChanges {
  const kept: FieldChanges = {};
  for (const [field, change] of Object.entries(changes)) {
    if (SECRET_FIELD.test(field)) continue;
    kept[field] = { from: redacted(change.from), to: redacted(change.to) };
  }
  return kept;
}

function redacted(value: unknown): unknown {
  if (typeof value === "string") return SECRET_VALUE.test(value) ? "[redacted]" : value;
  if (Array.isArray(value)) return value.map(redacted);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).filter(([key]) => !SECRET_FIELD.test(key)).map(([key, inner]) => [key, redacted(inner)]));
  return value;
}
