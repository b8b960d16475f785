import { z } from "zod";
import { AUDIT_ACTIONS } from "./audit-actions";
import type { AuditFilter } from "./audit-events.service";

const instant = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time, e.g. 2027-01-31T00:00:00Z" });

/** The audit log's filters (GET /v1/audit_events, Query.auditEvents); a bad one is 400 `validation_failed` naming it. */
export const auditFilterFields = z.object({
  tenant_id: z.string().min(1).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  actor_key_id: z.string().min(1).optional(),
  created_after: instant.optional(),
  created_before: instant.optional(),
});

/** The filters as the domain takes them. */
export function auditFilter(input: z.output<typeof auditFilterFields>): AuditFilter {
  return {
    ...(input.tenant_id !== undefined && { tenantId: input.tenant_id }),
    ...(input.action !== undefined && { action: input.action }),
    ...(input.actor_key_id !== undefined && { actorKeyId: input.actor_key_id }),
    ...(input.created_after !== undefined && { createdAfter: new Date(input.created_after) }),
    ...(input.created_before !== undefined && { createdBefore: new Date(input.created_before) }),
  };
}
