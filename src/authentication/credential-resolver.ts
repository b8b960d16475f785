import type { Database } from "../db/database";
import type { PubSub } from "../events/pubsub";
import { hashSecret, sameHash } from "../tenancy/api-key-secret";
import { isAuthInvalidation } from "../tenancy/invalidation";
import { storedKeyPermissions } from "../tenancy/key-permissions";
import type { Principal } from "./principal";
import { VersionedCache } from "../versioned-cache";

const MAX_AGE_MS = 60_000;
/** The keyId reported for the owner key given by OWNER_API_KEY, which has no database row. */
export const ENV_OWNER_KEY_ID = "key_owner_env";

interface CachedPrincipal {
  principal: Principal;
}

/**
 * Turns a presented secret into a principal. Warm lookups are a hash and a map read; a revoked
 * key is evicted in every process by the invalidation its revocation publishes.
 */
export class CredentialResolver {
  private readonly cache = new VersionedCache<string, CachedPrincipal>(MAX_AGE_MS);

  constructor(
    private readonly db: Database,
    pubsub: PubSub,
    private readonly envOwnerKeyHash: string | null,
  ) {
    pubsub.subscribe("auth", (message) => {
      if (!isAuthInvalidation(message)) return;
      if (message.kind === "key") this.cache.delete(message.secretHash);
      else this.cache.deleteWhere(({ principal }) => principal.kind === "tenant" && principal.tenantId === message.tenantId);
    });
    pubsub.onResync(() => this.cache.clear());
  }

  /** The principal for this secret, or null for an unknown or revoked key. */
  async resolve(secret: string): Promise<Principal | null> {
    const secretHash = hashSecret(secret);
    if (this.envOwnerKeyHash !== null && sameHash(secretHash, this.envOwnerKeyHash)) {
      return { kind: "owner", keyId: ENV_OWNER_KEY_ID, label: "OWNER_API_KEY" };
    }
    const cached = await this.cache.get(secretHash, () => this.load(secretHash));
    return cached?.principal ?? null;
  }

  private async load(secretHash: string): Promise<CachedPrincipal | null> {
    const key = await this.db.prisma.apiKey.findUnique({ where: { secretHash }, include: { tenant: { select: { environment: true } } } });
    if (!key || key.revokedAt !== null || !sameHash(key.secretHash, secretHash)) return null;
    if (key.kind === "owner") return { principal: { kind: "owner", keyId: key.id, label: key.label } };
    if (key.tenantId === null || key.tenant === null) return null;
    return {
      principal: { kind: "tenant", keyId: key.id, label: key.label, tenantId: key.tenantId, environment: key.tenant.environment, permissions: storedKeyPermissions(key.permissions) },
    };
  }
}
