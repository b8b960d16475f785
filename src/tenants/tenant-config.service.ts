import type { Database } from "../db/database";
import type { Tenant } from "../db/models";
import { appError } from "../errors/app-error";
import type { TenantScope } from "../context/request-context";
import type { UpdateTenantConfigInput } from "./tenant-config.inputs";
import type { TenantService } from "./tenant.service";

/** A tenant's own configuration: what its key reads and changes at /v1/tenant. */
export class TenantConfigService {
  constructor(
    private readonly db: Database,
    private readonly tenants: TenantService,
  ) {}

  /** The tenant as authorised for this request (served from the tenant directory cache). */
  get(scope: TenantScope): Tenant {
    return scope.tenant;
  }

  /**
   * Applies a validated patch. Enabling webhooks needs a URL, either already set or in the same
   * patch (422 `invalid_field_value` otherwise).
   */
  async update(scope: TenantScope, input: UpdateTenantConfigInput): Promise<Tenant> {
    const webhookUrl = input.webhook_url === undefined ? scope.tenant.webhookUrl : input.webhook_url;
    const webhookEnabled = input.webhook_enabled ?? (input.webhook_url === null ? false : scope.tenant.webhookEnabled);
    if (webhookEnabled && webhookUrl === null) {
      throw appError("invalid_field_value", { field: "webhook_enabled", reason: "webhook_enabled needs a webhook_url" });
    }
    const updated = await this.db.prisma.tenant.updateMany({
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
    await this.tenants.invalidate(scope.tenantId);
    return this.tenants.get(scope.tenantId);
  }
}
