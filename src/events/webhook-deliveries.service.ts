import type { TenantScope } from "../tenancy/tenant-scope";
import type { Database } from "../db/database";
import type { Prisma, WebhookAttempt, WebhookDeliveryStatus } from "../db/models";
import { appError } from "../errors/app-error";
import type { CursorCodec } from "../pagination/cursor";
import { paginate, type Page, type PageRequest } from "../pagination/paginate";
import type { OrderEventType } from "./order-events";
import type { WebhookDeliveryQueue } from "./webhook-delivery-queue";

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const satisfies readonly WebhookDeliveryStatus[];

/** A delivery as its tenant's log shows it. */
export interface WebhookDeliveryRecord {
  id: string;
  eventId: string;
  event: OrderEventType;
  orderId: string;
  status: WebhookDeliveryStatus;
  /** Attempts made, over every (re)delivery. */
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

const WITH_EVENT_AND_COUNT = { event: { select: { type: true } }, _count: { select: { attemptLog: true } } } as const;

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ include: typeof WITH_EVENT_AND_COUNT }>;

function recordFrom(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    eventId: row.eventId,
    event: row.event.type as OrderEventType,
    orderId: row.orderId,
    status: row.status,
    attempts: row._count.attemptLog,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt,
    createdAt: row.createdAt,
  };
}

/** The tenant's webhook delivery log (docs/webhooks.md#settings-and-the-delivery-log): list, attempts, and redelivery. */
export class WebhookDeliveryService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
    private readonly queue: WebhookDeliveryQueue,
    /** Wakes this process's dispatcher for a delivery due now. */
    private readonly wakeDispatcher: () => void,
  ) {}

  /** The tenant's deliveries, newest first, optionally in one status. */
  async list(scope: TenantScope, status: WebhookDeliveryStatus | undefined, request: PageRequest): Promise<Page<WebhookDeliveryRecord>> {
    const where = { tenantId: scope.tenantId, ...(status === undefined ? {} : { status }) };
    const page = await paginate({
      list: `webhook-deliveries:${scope.tenantId}:${status ?? "*"}`,
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.webhookDelivery.count({ where }),
      fetch: (query) => this.db.prisma.webhookDelivery.findMany({ ...query, where: { AND: [where, query.where] }, include: WITH_EVENT_AND_COUNT }),
    });
    return { ...page, items: page.items.map(recordFrom) };
  }

  /** The tenant's delivery; null for an unknown id or another tenant's. */
  async find(scope: TenantScope, deliveryId: string): Promise<WebhookDeliveryRecord | null> {
    const row = await this.db.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, tenantId: scope.tenantId }, include: WITH_EVENT_AND_COUNT });
    return row ? recordFrom(row) : null;
  }

  /** A delivery's attempts, first first. */
  attempts(deliveryId: string): Promise<WebhookAttempt[]> {
    return this.db.prisma.webhookAttempt.findMany({ where: { deliveryId }, orderBy: { number: "asc" } });
  }

  /**
   * Sends a delivery again: due now, with a fresh retry schedule; its attempt log is kept. Any
   * status may be redelivered. 404 `not_found` for an unknown id or another tenant's; 409
   * `webhooks_disabled` while the tenant's webhooks are off (it could only fail).
   */
  async redeliver(scope: TenantScope, deliveryId: string): Promise<WebhookDeliveryRecord> {
    if (!scope.tenant.webhookEnabled || !scope.tenant.webhookUrl) throw appError("webhooks_disabled");
    if (!(await this.queue.requeue(scope.tenantId, deliveryId))) throw appError("not_found");
    this.wakeDispatcher();
    const requeued = await this.find(scope, deliveryId);
    if (!requeued) throw appError("not_found");
    return requeued;
  }

  /** The tenant's deliveries by status (usage). */
  async countsByStatus(tenantId: string): Promise<Record<WebhookDeliveryStatus, number>> {
    const groups = await this.db.prisma.webhookDelivery.groupBy({ by: ["status"], where: { tenantId }, _count: { _all: true } });
    const counts = { pending: 0, succeeded: 0, failed: 0 };
    for (const group of groups) counts[group.status] = group._count._all;
    return counts;
  }
}
