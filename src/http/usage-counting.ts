import type { FastifyInstance } from "fastify";
import { requestTenantId } from "../context/request-context";
import type { UsageMeter } from "../tenants/usage-meter";

/** Counts each answered request against the tenant it was for (its key's, or the one the owner named). */
export function registerUsageCounting(app: FastifyInstance, meter: UsageMeter): void {
  app.addHook("onResponse", (request, _reply, done) => {
    const tenantId = request.ctx ? requestTenantId(request.ctx) : null;
    if (tenantId) meter.record(tenantId, "api_requests");
    done();
  });
}
