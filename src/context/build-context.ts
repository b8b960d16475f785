import type { Services } from "../services";
import { authenticate, type PresentedCredentials } from "../authentication/authenticate";
import type { RequestContext } from "./request-context";

export interface ContextSource extends PresentedCredentials {
  requestId: string;
  serviceTenant?: unknown;
}

/**
 * The request context for one HTTP request or WebSocket connection: authenticates the caller
 * (throwing `unauthorized` / `tenant_suspended`) and records the Service-Tenant it named.
 */
export async function buildRequestContext(services: Services, source: ContextSource): Promise<RequestContext> {
  const principal = await authenticate(source, services.credentials, services.tenantDirectory);
  const serviceTenantId = typeof source.serviceTenant === "string" && source.serviceTenant.length > 0 ? source.serviceTenant : null;
  return {
    requestId: source.requestId,
    principal,
    serviceTenantId,
    services,
    scope: null,
  };
}
