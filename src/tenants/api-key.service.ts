import type { Database } from "../db/database";
import type { ApiKey } from "../db/models";
import { appError } from "../errors/app-error";
import type { PubSub } from "../events/pubsub";
import { generateSecret, hashSecret, secretPrefix } from "../tenancy/api-key-secret";
import type { AuthInvalidation } from "../tenancy/invalidation";
import { newId } from "../ids";
import type { CursorCodec } from "../pagination/cursor";
import { paginate, type Page, type PageRequest } from "../pagination/paginate";
import { sharedSetting } from "../db/settings";
import type { CreateApiKeyInput } from "./tenant.inputs";
import type { TenantService } from "./tenant.service";
import { clock } from "../clock";
import type { ChangeOrigin } from "../audit/change-origin";
import { createdFields, recordAudit } from "../audit/audit-log";
import { storedKeyPermissions } from "../tenancy/key-permissions";

export interface CreatedApiKey {
  key: ApiKey;
  /** The full secret: returned once, never stored. */
  secret: string;
}

/** Tenant API keys (owner-issued) and the owner key's first-start bootstrap. */
export class ApiKeyService {
  constructor(
    private readonly db: Database,
    private readonly pubsub: PubSub,
    private readonly cursors: CursorCodec,
    private readonly tenants: TenantService,
  ) {}

  /**
   * Issues a key for the tenant's environment (`sk_test_…` sandbox, `sk_live_…` live). Only
   * the hash is stored. Without `permissions` the key has full access (the column stays null);
   * with them, every resource's level is stored. 409 `tenant_deleted` for a tombstone.
   */
  async create(tenantId: string, { label, permissions }: CreateApiKeyInput, by: ChangeOrigin): Promise<CreatedApiKey> {
    const tenant = await this.tenants.get(tenantId);
    if (tenant.status === "deleted") throw appError("tenant_deleted");
    const secret = generateSecret(tenant.environment);
    const key = await this.db.prisma.$transaction(async (tx) => {
      const created = await tx.apiKey.create({
        data: { id: newId("key"), kind: "tenant", tenantId, label, prefix: secretPrefix(secret), secretHash: hashSecret(secret), permissions },
      });
      // The key's label and permissions; nothing of its secret is recorded.
      const changes = createdFields({ label, permissions: storedKeyPermissions(created.permissions) });
      await recordAudit(tx, this.db, by, { action: "api_key.created", tenantId, target: { type: "api_key", id: created.id }, changes });
      return created;
    });
    return { key, secret };
  }

  /** The tenant's keys, newest first, revoked ones included (with `revokedAt`). */
  async list(tenantId: string, request: PageRequest): Promise<Page<ApiKey>> {
    await this.tenants.get(tenantId);
    return paginate({
      list: `keys:${tenantId}`,
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.apiKey.count({ where: { tenantId } }),
      fetch: (query) => this.db.prisma.apiKey.findMany({ ...query, where: { AND: [{ tenantId }, query.where] } }),
    });
  }

  /**
   * Revokes a key at once, in every process; the tenant's other keys keep working. Revoking a
   * revoked key returns it unchanged. 404 `tenant_not_found` for an unknown tenant, `not_found`
   * for a key of another tenant.
   */
  async revoke(tenantId: string, keyId: string, by: ChangeOrigin): Promise<ApiKey> {
    await this.tenants.get(tenantId);
    const key = await this.db.prisma.apiKey.findFirst({ where: { id: keyId, tenantId } });
    if (!key) throw appError("not_found", { field: "keyId" });
    if (key.revokedAt !== null) return key;
    const revoked = await this.db.prisma.$transaction(async (tx) => {
      const now = clock.now();
      // Only the revocation that revokes it records it, should two race.
      const { count } = await tx.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: now } });
      if (count === 1) {
        await recordAudit(tx, this.db, by, { action: "api_key.revoked", tenantId, target: { type: "api_key", id: keyId }, changes: { revoked_at: { from: null, to: now.toISOString() } } });
      }
      return tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    });
    const message: AuthInvalidation = { kind: "key", secretHash: key.secretHash };
    await this.pubsub.publish("auth", message);
    return revoked;
  }

  /**
   * With no OWNER_API_KEY configured, the first process to start creates the owner key and
   * returns its secret so it can be printed once; every later start returns null.
   */
  async bootstrapOwnerKey(): Promise<string | null> {
    const secret = generateSecret("owner");
    const keyId = newId("key");
    const { created } = await sharedSetting(this.db, "owner_key_id", () => keyId, (tx) =>
      tx.apiKey.create({
        data: { id: keyId, kind: "owner", label: "owner", prefix: secretPrefix(secret), secretHash: hashSecret(secret) },
      }),
    );
    if (!created) return null;
    return secret;
  }
}
