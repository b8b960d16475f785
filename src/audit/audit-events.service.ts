import type { Database } from "../db/database";
import { jsonFrom } from "../db/sql-values";
import { appError } from "../errors/app-error";
import type { AuditEvent as AuditEventRow } from "../generated/prisma-sqlite/client";
import type { CursorCodec } from "../pagination/cursor";
import { filteredListName } from "../pagination/list-name";
import { paginate, type Page, type PageRequest } from "../pagination/paginate";
import type { AuditAction } from "./audit-actions";
import type { FieldChanges } from "./audit-log";
import type { AuditActor } from "./change-origin";

/** An event of the audit log, as read. */
export interface AuditEvent {
  id: string;
  action: AuditAction;
  actor: AuditActor;
  tenantId: string | null;
  target: { type: string; id: string };
  changes: FieldChanges;
  requestId: string | null;
  /** Null where the reader may not see it (a tenant reading the owner's change). */
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
}

/** Who reads the log: the owner (every event, or one tenant's), or a tenant's key (its own tenant's, as a tenant may see them). */
export type AuditReader = { kind: "owner"; tenantId: string | null } | { kind: "tenant"; tenantId: string };

export interface AuditFilter {
  /** The owner's filter; a tenant reads its own. */
  tenantId?: string;
  action?: AuditAction;
  actorKeyId?: string;
  /** Exclusive bounds. */
  createdAfter?: Date;
  createdBefore?: Date;
}

/**
 * What a tenant sees of the owner's own business, left out of its view: the owner's pricing
 * rules (owner-only resources, their history too), the owner's private metadata on the tenant,
 * and the owner's address and browser.
 */
const OWNER_ONLY_ACTIONS = ["pricing_rule.created", "pricing_rule.updated", "pricing_rule.deleted"] as const;
const OWNER_ONLY_TENANT_FIELDS = ["metadata"];

/**
 * Reading the audit log (docs/running-the-platform.md#audit-log), newest first. Events are
 * written by the services that make each change, in the change's own transaction (audit-log.ts).
 */
export class AuditEventService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
  ) {}

  /** The events the reader may see, narrowed by every filter given. */
  list(reader: AuditReader, filter: AuditFilter, request: PageRequest): Promise<Page<AuditEvent>> {
    const where = this.visible(reader, filter);
    return paginate({
      list: filteredListName("audit-events", [reader.tenantId ?? undefined, filter.tenantId, filter.action, filter.actorKeyId, filter.createdAfter?.toISOString(), filter.createdBefore?.toISOString()]),
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.auditEvent.count({ where }),
      fetch: async (query) => (await this.db.prisma.auditEvent.findMany({ ...query, where: { AND: [where, query.where] } })).map((row) => shownTo(reader, eventFrom(row))),
    });
  }

  /** One event the reader may see; 404 `not_found` otherwise (another tenant's reads as none). */
  async get(reader: AuditReader, eventId: string): Promise<AuditEvent> {
    const row = await this.db.prisma.auditEvent.findFirst({ where: { AND: [{ id: eventId }, this.visible(reader, {})] } });
    if (!row) throw appError("not_found");
    return shownTo(reader, eventFrom(row));
  }

  /** The reader's events matching the filter: `tenant_id` narrows what the reader may see (naming another tenant, a tenant key sees none). */
  private visible(reader: AuditReader, filter: AuditFilter) {
    const tenantIds = [reader.tenantId, filter.tenantId].filter((id): id is string => id !== undefined && id !== null);
    return {
      ...(tenantIds.length > 0 ? { tenantId: { in: [...new Set(tenantIds)] }, ...(new Set(tenantIds).size > 1 ? { id: { in: [] } } : {}) } : {}),
      ...(reader.kind === "tenant" ? { action: { notIn: [...OWNER_ONLY_ACTIONS] } } : {}),
      ...(filter.action !== undefined ? { AND: [{ action: filter.action }] } : {}),
      ...(filter.actorKeyId !== undefined ? { actorKeyId: filter.actorKeyId } : {}),
      ...(filter.createdAfter || filter.createdBefore ? { createdAt: { ...(filter.createdAfter && { gt: filter.createdAfter }), ...(filter.createdBefore && { lt: filter.createdBefore }) } } : {}),
    };
  }
}

function eventFrom(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    action: row.action as AuditAction,
    actor: { type: row.actorType === "owner" ? "owner" : "api_key", keyId: row.actorKeyId, label: row.actorLabel },
    tenantId: row.tenantId,
    target: { type: row.targetType, id: row.targetId },
    changes: jsonFrom<FieldChanges>(row.changes),
    requestId: row.requestId,
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt,
  };
}

/** The event as the reader may see it: a tenant sees neither the owner's private metadata nor the owner's address and browser. */
function shownTo(reader: AuditReader, event: AuditEvent): AuditEvent {
  if (reader.kind === "owner") return event;
  const ownerMade = event.actor.type === "owner";
  const changes = event.action.startsWith("tenant.") ? Object.fromEntries(Object.entries(event.changes).filter(([field]) => !OWNER_ONLY_TENANT_FIELDS.includes(field))) : event.changes;
  return { ...event, changes, ip: ownerMade ? null : event.ip, userAgent: ownerMade ? null : event.userAgent };
}
