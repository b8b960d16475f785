import type { Database } from "../db/database";
import type { Prisma, Tenant } from "../db/models";
import type { WalletService } from "../wallet/wallet.service";
import { appError } from "../errors/app-error";
import type { TenantScope } from "../tenancy/tenant-scope";
import type { UpdateTenantConfigInput } from "./tenant-config.inputs";
import type { TenantService } from "./tenant.service";
import { sqlTimestamp } from "../db/sql-values";
import { GuardFailed, guarded, writeBatch } from "../db/write-batch";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { refuseWebhookDestination } from "../events/webhook-url";
import { newWebhookSecret, PREVIOUS_SECRET_OVERLAP_MS } from "../events/webhook-secrets";
import { clock } from "../clock";
import type { ChangeOrigin } from "../audit/change-origin";
import { auditStatement, fieldChanges, recordAudit, type AuditedChange } from "../audit/audit-log";
import { defaultEndpointId } from "../events/webhook-endpoint";
import { configAuditFields } from "./tenant-audit-fields";
import { requireAllowedSupplier } from "./tenant-suppliers";

/** The configuration as an update answers it: with the signing secret when this update made it (shown once). */
export type TenantConfig = Tenant & { issuedWebhookSecret?: string };

/** How a configuration change is audited when it is another resource's change: the default webhook endpoint's (its url and switch are the tenant's). */
export type ConfigAudit = Pick<AuditedChange, "action" | "target">;

/** A rotation's answer: the new secret (shown once) and when the previous one stops signing. */
export interface WebhookSecretRotation {
  webhookSecret: string;
  previousSecretExpiresAt: Date | null;
}

/** A tenant's own configuration: what its key reads and changes at /v1/tenant. */
export class TenantConfigService {
  constructor(
    private readonly db: Database,
    private readonly tenants: TenantService,
    private readonly wallets: WalletService,
    /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: tenants may name private addresses. */
    private readonly allowPrivateNetworks: boolean,
    /** The supplier ids a tenant may choose. */
    private readonly supplierIds: readonly string[],
  ) {}

  /** The tenant as authorised for this request (served from the tenant directory cache). */
  get(scope: TenantScope): Tenant {
    return scope.tenant;
  }

  /**
   * Applies a validated patch. Enabling webhooks needs a URL, either already set or in the same
   * patch (422 `invalid_field_value` otherwise). A new `default_currency` follows the wallet's
   * rules (WalletService.changeCurrency): 422 `currency_locked` for a live tenant with money or
   * open orders; a sandbox wallet is re-denominated. No tenant's `webhook_url`, sandbox included, may
   * name a private or loopback IP address (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS), and a live
   * tenant's is https (refuseWebhookDestination); a host name is checked on every delivery, on
   * the address it resolves to. `suppliers` names only suppliers this gateway has (422
   * `invalid_field_value` naming the entry) and the owner allows the tenant (422
   * `supplier_not_allowed`). The first URL set comes with the
   * tenant's signing secret, returned as `issuedWebhookSecret` this once.
   */
  async update(scope: TenantScope, input: UpdateTenantConfigInput, by: ChangeOrigin, audit: ConfigAudit = { action: "tenant_config.updated", target: { type: "tenant", id: scope.tenantId } }): Promise<TenantConfig> {
    const webhookUrl = input.webhook_url === undefined ? scope.tenant.webhookUrl : input.webhook_url;
    const webhookEnabled = input.webhook_enabled ?? (input.webhook_url === null ? false : scope.tenant.webhookEnabled);
    if (webhookEnabled && webhookUrl === null) {
      throw appError("invalid_field_value", { field: "webhook_enabled", message: "webhook_enabled: needs a webhook_url" });
    }
    if (input.webhook_url) refuseWebhookDestination("webhook_url", input.webhook_url, { environment: scope.tenant.environment, allowPrivateNetworks: this.allowPrivateNetworks });
    const unknownSupplier = input.suppliers?.findIndex((id) => !this.supplierIds.includes(id)) ?? -1;
    if (unknownSupplier >= 0) {
      const field = `suppliers[${unknownSupplier}]`;
      throw appError("invalid_field_value", { field, message: `${field}: ${input.suppliers![unknownSupplier]} is not a supplier (${this.supplierIds.join(", ")})` });
    }
    input.suppliers?.forEach((id, index) => requireAllowedSupplier(scope.tenant, id, `suppliers[${index}]`));
    const issuedWebhookSecret = webhookUrl !== null && scope.tenant.webhookSecret === null ? newWebhookSecret() : undefined;
    let secretIssued = false;
    const write = async (tx: Prisma.TransactionClient) => {
      if (input.default_currency !== undefined) await this.wallets.changeCurrency(tx, scope.tenant, input.default_currency);
      const before = await tx.tenant.findUnique({ where: { id: scope.tenantId } });
      const updated = await tx.tenant.updateMany({
        where: { id: scope.tenantId, status: { not: "deleted" } },
        data: {
          webhookUrl,
          webhookEnabled,
          defaultCurrency: input.default_currency,
          timezone: input.timezone,
          configMetadata: input.metadata,
          suppliers: input.suppliers,
        },
      });
      if (updated.count === 0 || !before) throw appError("tenant_not_found");
      // Only the update that sets the first secret shows it, should two race.
      if (issuedWebhookSecret) {
        const issued = await tx.tenant.updateMany({ where: { id: scope.tenantId, webhookSecret: null }, data: { webhookSecret: issuedWebhookSecret } });
        secretIssued = issued.count === 1;
      }
      const after = await tx.tenant.findUniqueOrThrow({ where: { id: scope.tenantId } });
      const changes = fieldChanges(configAuditFields(before), configAuditFields(after));
      if (Object.keys(changes).length > 0) await recordAudit(tx, this.db, by, { ...audit, tenantId: scope.tenantId, changes });
    };
    // A currency change moves the wallet too, and every change writes its audit event, in the same transaction.
    await this.db.prisma.$transaction(write);
    await this.tenants.invalidate(scope.tenantId);
    const tenant = await this.tenants.get(scope.tenantId);
    return secretIssued ? { ...tenant, issuedWebhookSecret } : tenant;
  }

  /**
   * Replaces the tenant's signing secret (making one if it had none). For 24 hours the previous
   * secret signs every delivery too, so receivers can switch without losing events; a second
   * rotation within them retires the first secret at once. One statement, so concurrent
   * rotations each keep the secret they replaced.
   */
  async rotateWebhookSecret(scope: TenantScope, by: ChangeOrigin): Promise<WebhookSecretRotation> {
    const { provider } = this.db;
    const webhookSecret = newWebhookSecret();
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + PREVIOUS_SECRET_OVERLAP_MS);
    try {
      await writeBatch(this.db, [
        guarded(
          Sql.sql`UPDATE "Tenant" SET "previousWebhookSecret" = "webhookSecret",
            "previousWebhookSecretExpiresAt" = CASE WHEN "webhookSecret" IS NULL THEN NULL ELSE ${sqlTimestamp(provider, expiresAt)} END,
            "webhookSecret" = ${webhookSecret}, "updatedAt" = ${sqlTimestamp(provider, now)}
            WHERE "id" = ${scope.tenantId} AND "status" <> 'deleted'`,
          "tenant",
        ),
        // What rotated and until when the previous secret signs; never a secret.
        auditStatement(this.db, by, {
          action: "webhook_endpoint.secret_rotated",
          tenantId: scope.tenantId,
          target: { type: "webhook_endpoint", id: defaultEndpointId(scope.tenantId) },
          changes: { previous_secret_expires_at: { from: null, to: expiresAt.toISOString() } },
        }),
      ]);
    } catch (error) {
      if (error instanceof GuardFailed) throw appError("tenant_not_found");
      throw error;
    }
    await this.tenants.invalidate(scope.tenantId);
    const tenant = await this.tenants.get(scope.tenantId);
    return { webhookSecret, previousSecretExpiresAt: tenant.previousWebhookSecretExpiresAt };
  }
}
