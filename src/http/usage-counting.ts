import type { FastifyInstance } from "fastify";
import type { UsageMeter } from "../tenants/usage-meter";

/** Counts each answered request against the tenant it was for (its key's, or the one the owner named). */
export function registerUsageCounting(app: FastifyInstance, meter: UsageMeter): void {
  app.addHook("onResponse", (request, _reply, done) => {
    const ctx = request.ctx;
    const tenantId = ctx ? (ctx.scope?.tenantId ?? (ctx.principal.kind === "tenant" ? ctx.principal.tenantId : null)) : null;
    if (tenantId) meter.record(tenantId, "api_requests");
    done();
  });
}
