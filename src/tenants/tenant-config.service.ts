import type { Database } from "../db/database";
import type { Prisma, Tenant } from "../db/models";
import type { WalletService } from "../wallet/wallet.service";
import { appError } from "../errors/app-error";
import type { TenantScope } from "../context/request-context";
import type { UpdateTenantConfigInput } from "./tenant-config.inputs";
import type { TenantService } from "./tenant.service";

/** A tenant's own configuration: what its key reads and changes at /v1/tenant. */
export class TenantConfigService {
  constructor(
    private readonly db: Database,
    private readonly tenants: TenantService,
    private readonly wallets: WalletService,
  ) {}

  /** The tenant as authorised for this request (served from the tenant directory cache). */
  get(scope: TenantScope): Tenant {
    return scope.tenant;
  }

  /**
   * Applies a validated patch. Enabling webhooks needs a URL, either already set or in the same
   * patch (422 `invalid_field_value` otherwise). A new `default_currency` follows the wallet's
   * rules (WalletService.changeCurrency): 422 `currency_locked` for a live tenant with money or
   * open orders; a sandbox wallet is re-denominated.
   */
  async update(scope: TenantScope, input: UpdateTenantConfigInput): Promise<Tenant> {
    const webhookUrl = input.webhook_url === undefined ? scope.tenant.webhookUrl : input.webhook_url;
    const webhookEnabled = input.webhook_enabled ?? (input.webhook_url === null ? false : scope.tenant.webhookEnabled);
    if (webhookEnabled && webhookUrl === null) {
      throw appError("invalid_field_value", { field: "webhook_enabled", reason: "webhook_enabled needs a webhook_url" });
    }
    const write = async (tx: Prisma.TransactionClient) => {
      if (input.default_currency !== undefined) await this.wallets.changeCurrency(tx, scope.tenant, input.default_currency);
      const updated = await tx.tenant.updateMany({
        where: { id: scope.tenantId, status: { not: "deleted" } },
        data: {
          webhookUrl,
          webhookEnabled,
          defaultCurrency: input.default_currency,
          timezone: input.timezone,
          configMetadata: input.metadata,
        },
      });
      if (updated.count === 0) throw appError("tenant_not_found");
    };
    // A currency change moves the wallet too, in the same transaction.
    if (input.default_currency === undefined) await write(this.db.prisma);
    else await this.db.prisma.$transaction(write);
    await this.tenants.invalidate(scope.tenantId);
    return this.tenants.get(scope.tenantId);
  }
}
