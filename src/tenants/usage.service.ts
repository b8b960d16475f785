import type { Database } from "../db/database";
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

const ORDER_STATUSES = ["PENDING", "PROCESSING", "TICKETED", "FAILED", "CANCELED", "REFUNDED"] as const;

/**
 * Per-tenant usage since creation. Orders, tickets, wallet spend and webhook deliveries read
 * zero until their modules exist; each module fills in its own figure here.
 */
export class UsageService {
  constructor(
    private readonly db: Database,
    private readonly meter: UsageMeter,
    private readonly tenants: TenantService,
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
      orders: { total: 0, byStatus: Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) },
      tickets: 0,
      walletSpend: { amountMinor: 0, currency: tenant.defaultCurrency },
      webhookDeliveries: { succeeded: 0, failed: 0, pending: 0 },
    };
  }
}
