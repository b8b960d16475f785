import type { TenantScope } from "../../tenancy/tenant-scope";
import type { Database } from "../../db/database";
import type { OrderEventType } from "../../events/order-events";
import type { CursorCodec } from "../../pagination/cursor";
import { paginate, type Page, type PageRequest } from "../../pagination/paginate";
import type { OrderService } from "../core/order.service";

/** One event of an order's history: the webhook body as it was sent (`{ id, event, created_at, data }`). */
export interface OrderHistoryEvent {
  id: string;
  type: OrderEventType;
  createdAt: Date;
  body: { id: string; event: OrderEventType; created_at: string; data: Record<string, unknown> };
}

/**
 * An order's history (docs/rest-api.md#an-orders-history): every event it emitted, oldest first, read from the outbox,
 * where each event was written in the transaction of the change it reports.
 */
export class OrderHistory {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
    private readonly orders: OrderService,
  ) {}

  /** A page of the order's events, oldest first; 404 `not_found` for an unknown or another tenant's order. */
  async events(scope: TenantScope, orderId: string, request: PageRequest): Promise<Page<OrderHistoryEvent>> {
    await this.orders.get(scope, orderId);
    const where = { tenantId: scope.tenantId, orderId };
    return paginate({
      list: `order_events:${scope.tenantId}:${orderId}`,
      request,
      cursors: this.cursors,
      oldestFirst: true,
      count: () => this.db.prisma.orderEvent.count({ where }),
      fetch: async (query) =>
        (await this.db.prisma.orderEvent.findMany({ ...query, where: { AND: [where, query.where] } })).map((row) => ({
          id: row.id,
          type: row.type as OrderEventType,
          createdAt: row.createdAt,
          body: JSON.parse(row.payload) as OrderHistoryEvent["body"],
        })),
    });
  }
}
