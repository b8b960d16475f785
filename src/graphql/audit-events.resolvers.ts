import { auditFilter, auditFilterFields } from "../audit/audit-filter.inputs";
import { auditReader } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { parseInput } from "../validation/parse-input";
import { pageRequestFromArgs, toConnection } from "./connection";
import { toGraphQLEnum } from "./enum-case";
import { nullIfNotFound } from "./null-if-not-found";

/** The audit log (docs/running-the-platform.md#audit-log), the twins of /v1/audit_events. */
export const auditEventResolvers: Resolvers = {
  Query: {
    auditEvents: async (_parent, { tenantId, action, actorKeyId, createdAfter, createdBefore, ...args }, ctx) => {
      const filter = parseInput(auditFilterFields, {
        tenant_id: tenantId ?? undefined,
        action: action ?? undefined,
        actor_key_id: actorKeyId ?? undefined,
        created_after: createdAfter?.toISOString(),
        created_before: createdBefore?.toISOString(),
      });
      return toConnection(await ctx.services.auditEvents.list(auditReader(ctx), auditFilter(filter), pageRequestFromArgs(args)));
    },
    auditEvent: (_parent, { id }, ctx) => nullIfNotFound(ctx.services.auditEvents.get(auditReader(ctx), id)),
  },
  AuditEvent: {
    actor: (event) => ({ ...event.actor, type: toGraphQLEnum(event.actor.type) }),
  },
};
