import type { z } from "zod";
import type { AuditEvent } from "../audit/audit-events.service";
import type { auditEventSchema } from "./audit-event.schemas";

export function auditEventView(event: AuditEvent): z.output<typeof auditEventSchema> {
  return {
    id: event.id,
    action: event.action,
    actor: { type: event.actor.type, key_id: event.actor.keyId, label: event.actor.label },
    tenant_id: event.tenantId,
    target: event.target,
    changes: event.changes,
    request_id: event.requestId,
    ip: event.ip,
    user_agent: event.userAgent,
    created_at: event.createdAt.toISOString(),
  };
}
