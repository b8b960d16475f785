import { z } from "zod";
import { AUDIT_ACTIONS } from "../audit/audit-actions";
import { timestamp } from "./envelope";

/** A configuration change, as the audit log records it. */
export const auditEventSchema = z
  .object({
    id: z.string().meta({ description: "aud_…" }),
    action: z.enum(AUDIT_ACTIONS),
    actor: z.object({ type: z.enum(["owner", "api_key"]), key_id: z.string(), label: z.string() }).meta({ description: "The key that made the change (the owner acting for a tenant is the owner)" }),
    tenant_id: z.string().nullable().meta({ description: "The tenant concerned; null for a platform-wide pricing rule" }),
    target: z.object({ type: z.string(), id: z.string() }),
    changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).meta({ description: "{ field: { from, to } }; never a secret, key or token value" }),
    request_id: z.string().nullable(),
    ip: z.string().nullable().meta({ description: "Null in a tenant's view of the owner's changes" }),
    user_agent: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: "AuditEvent" });
