/**
 * Who made a configuration change and from where: what every audited domain call takes (as its
 * last argument, `by`), built once per request from the request context (context/build-context.ts).
 */
export interface ChangeOrigin {
  actor: AuditActor;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** The key that made a change: the owner's, or a tenant's API key (the owner acting for a tenant with Service-Tenant is the owner). */
export interface AuditActor {
  type: "owner" | "api_key";
  keyId: string;
  label: string;
}
