import type { Database } from "../db/database";
import type { OrderService } from "../orders/order.service";
import type { WalletService } from "../wallet/wallet.service";
import type { WebhookDeliveryService } from "../events/webhook-deliveries.service";
import type { UsageMeter } from "./usage-meter";
import type { TenantService } from "./tenant.service";

export interface TenantUsage {
  tenantId: string;
  apiRequests: number;
  searches: number;
  orders: { total: number; byStatus: Record<string, number> };
  tickets: number;
  walletSpend: { amountMinor: number; currency: string };
  webhookDeliveries: { succeeded: number; failed: number; pending: number };
}

/**
 * Per-tenant usage since creation: counted requests and searches, and each module's own figure
 * (orders and tickets, wallet spend, webhook deliveries by status).
 */
export class UsageService {
  constructor(
    private readonly db: Database,
    private readonly meter: UsageMeter,
    private readonly tenants: TenantService,
    private readonly orders: OrderService,
    private readonly wallets: WalletService,
    private readonly webhookDeliveries: WebhookDeliveryService,
  ) {}

  async forTenant(tenantId: string): Promise<TenantUsage> {
    const tenant = await this.tenants.get(tenantId);
    await this.meter.flush();
    const counters = await this.db.prisma.usageCounter.findMany({ where: { tenantId } });
    const count = (metric: string) => Number(counters.find((counter) => counter.metric === metric)?.count ?? 0);
    return {
      tenantId,
      apiRequests: count("api_requests"),
      searches: count("searches"),
      ...(await this.orders.usage(tenantId)),
      walletSpend: tenant.status === "deleted" ? { amountMinor: 0, currency: tenant.defaultCurrency } : await this.wallets.spend(tenantId),
      webhookDeliveries: await this.webhookDeliveries.countsByStatus(tenantId),
    };
  }
}
