import { appError } from "../errors/app-error";
import type { CredentialResolver } from "./credential-resolver";
import type { Principal } from "./principal";
import type { TenantDirectory } from "./tenant-directory";

/** The credential forms a client may send: HTTP headers or a graphql-ws `connection_init` payload. */
export interface PresentedCredentials {
  authorization?: unknown;
  apiKey?: unknown;
}

/** The secret from `Authorization: Bearer <key>` or `x-api-key: <key>`, whichever is present. */
export function presentedSecret({ authorization, apiKey }: PresentedCredentials): string | null {
  if (typeof authorization === "string") {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ?? null;
  }
  return typeof apiKey === "string" && apiKey.length > 0 ? apiKey : null;
}

/**
 * Who is calling. 401 `unauthorized` for a missing, unknown or revoked key; 403
 * `tenant_suspended` for a key of a suspended tenant, on every path.
 */
export async function authenticate(
  credentials: PresentedCredentials,
  resolver: CredentialResolver,
  directory: TenantDirectory,
): Promise<Principal> {
  const secret = presentedSecret(credentials);
  const principal = secret === null ? null : await resolver.resolve(secret);
  if (!principal) throw appError("unauthorized");
  if (principal.kind === "tenant") {
    const tenant = await directory.find(principal.tenantId);
    if (!tenant || tenant.status === "deleted") throw appError("unauthorized");
    if (tenant.status === "suspended") throw appError("tenant_suspended");
  }
  return principal;
}
