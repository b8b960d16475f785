import type { Database } from "../../db/database";
import { platformAccountsOf } from "../../tenants/tenant-suppliers";
import type { SupplierAccountKind } from "../contract/offers";
import type { PlatformAccountService } from "./platform-accounts.service";
import { modeOf, type SupplierConnectionService, type SupplierCredentials } from "./supplier-connections.service";
import { recordTokenAnswer } from "./token-status";

/** Credentials of one account at a supplier, and whose it is. */
export interface AccountCredentials extends SupplierCredentials {
  /** `tenant`: the tenant's own connection (the supplier settles); `platform`: the owner's platform account (the wallet settles). */
  kind: SupplierAccountKind;
}

/**
 * Which account at a supplier a tenant's calls use (docs/connectors.md#the-owners-platform-account): a search uses the
 * tenant's own connection when it has one, else the owner's platform account of the tenant's mode
 * when the owner lets the tenant use it, else none (the supplier is not searched). Everything
 * after the search uses the account the offer was found with (its kind travels with the offer and
 * the booking), so an order booked through the platform stays the platform's.
 */
export class SupplierAccounts {
  constructor(
    private readonly db: Database,
    private readonly connections: SupplierConnectionService,
    private readonly platform: PlatformAccountService,
  ) {}

  /** The account a search of the tenant uses for `supplier`, or null when it has none. */
  async forSearch(tenantId: string, supplier: string): Promise<AccountCredentials | null> {
    const own = await this.of(tenantId, supplier, "tenant");
    if (own) return own;
    const mode = await this.platformGranted(tenantId, supplier);
    const platform = mode && (await this.platform.credentials(supplier, mode));
    return platform ? { ...platform, kind: "platform" } : null;
  }

  /** Whether the tenant has an account to search `supplier` with. */
  async available(tenantId: string, supplier: string): Promise<boolean> {
    if (await this.connections.connected(tenantId, supplier)) return true;
    const mode = await this.platformGranted(tenantId, supplier);
    return mode !== null && this.platform.has(supplier, mode);
  }

  /** The account of `kind` the tenant's calls for `supplier` use: its connection, or the platform's account of its mode; null when there is none (any more). */
  async of(tenantId: string, supplier: string, kind: SupplierAccountKind): Promise<AccountCredentials | null> {
    if (kind === "tenant") {
      const own = await this.connections.credentials(tenantId, supplier);
      return own && { ...own, kind };
    }
    const tenant = await this.tenant(tenantId);
    const platform = tenant && (await this.platform.credentials(supplier, modeOf(tenant.environment)));
    return platform ? { ...platform, kind } : null;
  }

  /** The supplier answered a call made with the account. */
  used(account: Pick<AccountCredentials, "kind" | "connectionId">): Promise<void> {
    return recordTokenAnswer(this.db, account, true);
  }

  /** The supplier refused the account's token (401). */
  refused(account: Pick<AccountCredentials, "kind" | "connectionId">): Promise<void> {
    return recordTokenAnswer(this.db, account, false);
  }

  /** The mode of the platform's accounts the tenant may use for `supplier` (its environment's), or null when the owner has not granted it that supplier's. */
  private async platformGranted(tenantId: string, supplier: string): Promise<"test" | "live" | null> {
    const tenant = await this.tenant(tenantId);
    return tenant && platformAccountsOf(tenant).includes(supplier) ? modeOf(tenant.environment) : null;
  }

  private tenant(tenantId: string) {
    return this.db.prisma.tenant.findUnique({ where: { id: tenantId }, select: { environment: true, platformAccounts: true } });
  }
}
