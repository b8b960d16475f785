import { auditFilter, auditFilterFields } from "../audit/audit-filter.inputs";
import { auditReader } from "../context/request-context";
import { auditEventSchema } from "./audit-event.schemas";
import { auditEventView } from "./audit-event.views";
import { ok, okPage, okPageSchema, okSchema } from "./envelope";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { restRoute } from "./route";

const tag = "Audit log";

/** The audit log (docs/running-the-platform.md#audit-log): the owner's whole, a tenant key's own tenant's (tenant: read). */
export const auditEventRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/audit_events",
    operation: "auditEvents",
    summary: "List configuration changes, newest first, narrowed by tenant (owner), action, actor key and time",
    tag,
    query: listQuery.extend(auditFilterFields.shape),
    response: okPageSchema(auditEventSchema),
    handle: async ({ ctx, query }) => okPage(await ctx.services.auditEvents.list(auditReader(ctx), auditFilter(query), pageRequestFromQuery(query)), auditEventView),
  }),
  restRoute({
    method: "GET",
    url: "/v1/audit_events/:id",
    operation: "auditEvent",
    summary: "Read one audit event",
    tag,
    response: okSchema(auditEventSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(auditEventView(await ctx.services.auditEvents.get(auditReader(ctx), params.id!))),
  }),
];
