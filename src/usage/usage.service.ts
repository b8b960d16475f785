import { dayRange } from "../db/daily-buckets";
import type { Database } from "../db/database";
import type { OrderService } from "../orders/core/order.service";
import type { WalletService } from "../wallet/wallet.service";
import type { WebhookDeliveryService } from "../events/webhook-deliveries.service";
import type { UsageMeter } from "../tenants/usage-meter";
import type { TenantService } from "../tenants/tenant.service";

export interface TenantUsage {
  tenantId: string;
  apiRequests: number;
  searches: number;
  orders: { total: number; byStatus: Record<string, number> };
  tickets: number;
  walletSpend: { amountMinor: number; currency: string };
  webhookDeliveries: { succeeded: number; failed: number; pending: number };
}

/** One UTC day of a tenant's usage. */
export interface UsageDay {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  apiRequests: number;
  searches: number;
  orders: number;
  tickets: number;
  walletSpend: { amountMinor: number; currency: string };
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

  /**
   * The tenant's usage on each UTC day from `from` to `to` (`YYYY-MM-DD`, both included), every
   * day present (zero when nothing happened), oldest first. 400 `validation_failed` for a bad
   * range (see `dayRange`); 404 `tenant_not_found` for a tenant that never existed. Requests and
   * searches come from the daily counters, the rest from each module's own rows.
   */
  async daily(tenantId: string, from: string, to: string): Promise<UsageDay[]> {
    const range = dayRange(from, to);
    const tenant = await this.tenants.get(tenantId);
    await this.meter.flush();
    const [counters, orders, spend] = await Promise.all([
      this.db.prisma.dailyUsageCounter.findMany({ where: { tenantId, day: { gte: range.days[0]!, lte: range.days.at(-1)! } } }),
      this.orders.dailyUsage(tenantId, range),
      tenant.status === "deleted" ? { amountsMinor: new Map<string, number>(), currency: tenant.defaultCurrency } : this.wallets.dailySpend(tenantId, range),
    ]);
    const counted = new Map(counters.map((counter) => [`${counter.day} ${counter.metric}`, Number(counter.count)]));
    return range.days.map((day) => ({
      day,
      apiRequests: counted.get(`${day} api_requests`) ?? 0,
      searches: counted.get(`${day} searches`) ?? 0,
      orders: orders.orders.get(day) ?? 0,
      tickets: orders.tickets.get(day) ?? 0,
      walletSpend: { amountMinor: spend.amountsMinor.get(day) ?? 0, currency: spend.currency },
    }));
  }
}
