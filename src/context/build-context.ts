import type { Services } from "../services";
import { authenticate, type PresentedCredentials } from "../authentication/authenticate";
import type { RequestContext } from "./request-context";

export interface ContextSource extends PresentedCredentials {
  requestId: string;
  serviceTenant?: unknown;
  /** The client's address and User-Agent, as the audit log records them. */
  ip?: string | null;
  userAgent?: unknown;
}

/** A User-Agent is kept to this many characters in the audit log. */
const MAX_USER_AGENT = 512;

/**
 * The request context for one HTTP request or WebSocket connection: authenticates the caller
 * (throwing `unauthorized` / `tenant_suspended`) and records the Service-Tenant it named.
 */
export async function buildRequestContext(services: Services, source: ContextSource): Promise<RequestContext> {
  const principal = await authenticate(source, services.credentials, services.tenantDirectory);
  const serviceTenantId = typeof source.serviceTenant === "string" && source.serviceTenant.length > 0 ? source.serviceTenant : null;
  const userAgent = typeof source.userAgent === "string" ? source.userAgent.slice(0, MAX_USER_AGENT) : null;
  return {
    requestId: source.requestId,
    principal,
    serviceTenantId,
    services,
    scope: null,
    origin: {
      actor: { type: principal.kind === "owner" ? "owner" : "api_key", keyId: principal.keyId, label: principal.label },
      requestId: source.requestId,
      ip: source.ip ?? null,
      userAgent,
    },
  };
}
