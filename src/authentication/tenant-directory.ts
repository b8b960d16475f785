import type { Database } from "../db/database";
import type { Tenant } from "../db/models";
import type { PubSub } from "../events/pubsub";
import { isAuthInvalidation } from "../tenancy/invalidation";
import { VersionedCache } from "../versioned-cache";

const MAX_AGE_MS = 60_000;

/**
 * Tenants by id, cached in memory so authorising a request costs no database round trip.
 * Every change to a tenant publishes an invalidation (tenant.service.ts), heard by every process.
 */
export class TenantDirectory {
  private readonly cache = new VersionedCache<string, Tenant>(MAX_AGE_MS);

  constructor(
    private readonly db: Database,
    pubsub: PubSub,
  ) {
    pubsub.subscribe("auth", (message) => {
      if (isAuthInvalidation(message) && message.kind === "tenant") this.cache.delete(message.tenantId);
    });
    pubsub.onResync(() => this.cache.clear());
  }

  /** The tenant, tombstones included; null if the id never existed. */
  find(tenantId: string): Promise<Tenant | null> {
    return this.cache.get(tenantId, () => this.db.prisma.tenant.findUnique({ where: { id: tenantId } }));
  }
}
