import { createContext, useContext } from "react";
import type { Credentials } from "../api/client";
import type { ConsoleViewerQuery } from "../generated/graphql";

export type Viewer = ConsoleViewerQuery["viewer"];
export type Resource = "search" | "orders" | "wallet" | "webhooks" | "tenant";
export type Level = "read" | "write";

/** The person signed in: the key's credentials, who the API says the key is, and how to change them. */
export interface Session {
  credentials: Credentials;
  viewer: Viewer;
  /** Whether the key may do `level` on `resource` for the tenant in scope (the API decides; this only hides what it would refuse). */
  can(resource: Resource, level: Level): boolean;
  /** The owner starts (a tenant id) or stops (null) acting for a tenant. */
  actFor(tenantId: string | null): void;
  signOut(): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside a signed-in console");
  return session;
}

/** Whether the tenant pages have a tenant to show: a tenant key's own, or the one the owner acts for. */
export function hasTenantScope(session: Session): boolean {
  return session.viewer.kind === "TENANT" || session.credentials.actingFor !== null;
}

const RANK = { NONE: 0, READ: 1, WRITE: 2 } as const;

/** The key's permissions as the API stated them (`write` includes `read`); the owner key's are all WRITE. */
export function permits(viewer: Viewer, resource: Resource, level: Level): boolean {
  return RANK[viewer.permissions[resource]] >= RANK[level === "read" ? "READ" : "WRITE"];
}
