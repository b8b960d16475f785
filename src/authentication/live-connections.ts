import { AppError } from "../errors/app-error";
import type { PubSub } from "../events/pubsub";
import type { Logger } from "../logger";
import { hashSecret } from "../tenancy/api-key-secret";
import { authenticate, presentedSecret, type PresentedCredentials } from "./authenticate";
import type { CredentialResolver } from "./credential-resolver";
import { isAuthInvalidation, type AuthInvalidation } from "../tenancy/invalidation";
import type { Principal } from "./principal";
import type { TenantDirectory } from "./tenant-directory";

/** A long-lived authenticated connection (a graphql-ws socket) and how to end it. */
export interface LiveConnection {
  credentials: PresentedCredentials;
  principal: Principal;
  /** The Service-Tenant it named, if any. */
  serviceTenantId: string | null;
  end(): void;
}

interface Tracked extends LiveConnection {
  secretHash: string | null;
}

/**
 * Connections outlive the check made when they opened, so they hear the same invalidations as
 * the caches (the `auth` channel, every process): when a key is revoked or a tenant changes, the
 * connections it touches are checked again as if they were opening now, and ended if refused.
 * Ended: a revoked key; a suspended or deleted tenant's keys; the owner's connection naming a
 * deleted tenant in Service-Tenant (the owner may still read a suspended tenant's data).
 */
export class LiveConnections {
  private readonly connections = new Set<Tracked>();

  constructor(
    pubsub: PubSub,
    private readonly resolver: CredentialResolver,
    private readonly directory: TenantDirectory,
    private readonly log: Logger,
  ) {
    // Deferred a tick: the caches' own (synchronous) handlers of the same message evict first.
    pubsub.subscribe("auth", (message) => {
      if (isAuthInvalidation(message)) queueMicrotask(() => this.recheck((connection) => touches(message, connection)));
    });
    pubsub.onResync(() => queueMicrotask(() => this.recheck(() => true)));
  }

  /** Tracks `connection` until the returned function is called (when it closes). */
  track(connection: LiveConnection): () => void {
    const secret = presentedSecret(connection.credentials);
    const tracked: Tracked = { ...connection, secretHash: secret === null ? null : hashSecret(secret) };
    this.connections.add(tracked);
    return () => this.connections.delete(tracked);
  }

  private recheck(affected: (connection: Tracked) => boolean): void {
    // Connections opened with the same key for the same tenant share one answer: one check each.
    const alike = new Map<string, Tracked[]>();
    for (const connection of this.connections) {
      if (!affected(connection)) continue;
      const credentials = `${connection.secretHash} ${connection.serviceTenantId}`;
      const group = alike.get(credentials);
      if (group) group.push(connection);
      else alike.set(credentials, [connection]);
    }
    for (const connections of alike.values()) {
      this.stillAllowed(connections[0]!).then(
        (allowed) => {
          if (allowed) return;
          for (const connection of connections) if (this.connections.delete(connection)) connection.end();
        },
        // The database did not answer: keep the connection; the next invalidation checks again.
        (error: unknown) => this.log.warn({ err: error }, "live connection could not be checked again"),
      );
    }
  }

  private async stillAllowed(connection: Tracked): Promise<boolean> {
    try {
      await authenticate(connection.credentials, this.resolver, this.directory);
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
    if (connection.serviceTenantId === null || connection.principal.kind !== "owner") return true;
    const tenant = await this.directory.find(connection.serviceTenantId);
    return tenant !== null && tenant.status !== "deleted";
  }
}

function touches(message: AuthInvalidation, connection: Tracked): boolean {
  if (message.kind === "key") return connection.secretHash === message.secretHash;
  return (connection.principal.kind === "tenant" && connection.principal.tenantId === message.tenantId) || connection.serviceTenantId === message.tenantId;
}
