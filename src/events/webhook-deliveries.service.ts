import type { TenantScope } from "../tenancy/tenant-scope";
import type { Database } from "../db/database";
import type { Prisma, WebhookAttempt, WebhookDeliveryStatus } from "../db/models";
import { appError } from "../errors/app-error";
import type { CursorCodec } from "../pagination/cursor";
import { filteredListName } from "../pagination/list-name";
import { paginate, type Page, type PageRequest } from "../pagination/paginate";
import type { WebhookDeliveryQueue } from "./webhook-delivery-queue";
import { defaultEndpointId } from "./webhook-endpoint";
import { pingEvent, type WebhookEventType } from "./webhook-events";

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const satisfies readonly WebhookDeliveryStatus[];

/** A delivery as its tenant's log shows it. */
export interface WebhookDeliveryRecord {
  id: string;
  eventId: string;
  event: WebhookEventType;
  /** Null for a ping. */
  orderId: string | null;
  endpointId: string;
  status: WebhookDeliveryStatus;
  /** Attempts made, over every (re)delivery. */
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** Which deliveries of the log to list. */
export interface DeliveryFilter {
  status?: WebhookDeliveryStatus;
  endpointId?: string;
}

const WITH_EVENT_AND_COUNT = { event: { select: { type: true } }, _count: { select: { attemptLog: true } } } as const;

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ include: typeof WITH_EVENT_AND_COUNT }>;

function recordFrom(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    eventId: row.eventId,
    event: row.event.type as WebhookEventType,
    orderId: row.orderId,
    endpointId: row.endpointId,
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

  /** The tenant's deliveries, newest first, optionally in one status and to one endpoint. */
  async list(scope: TenantScope, filter: DeliveryFilter, request: PageRequest): Promise<Page<WebhookDeliveryRecord>> {
    const where = { tenantId: scope.tenantId, status: filter.status, endpointId: filter.endpointId };
    const page = await paginate({
      list: filteredListName(`webhook-deliveries:${scope.tenantId}`, [filter.status, filter.endpointId]),
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
   * status may be redelivered. 404 `not_found` for an unknown id or another tenant's; 409 while
   * its endpoint could only fail it (refuseUnsendable).
   */
  async redeliver(scope: TenantScope, deliveryId: string): Promise<WebhookDeliveryRecord> {
    const delivery = await this.find(scope, deliveryId);
    if (!delivery) throw appError("not_found");
    refuseUnsendable(scope, delivery.endpointId, await this.endpointState(scope, delivery.endpointId));
    if (!(await this.queue.requeue(scope.tenantId, deliveryId))) throw appError("not_found");
    this.wakeDispatcher();
    return this.get(scope, deliveryId);
  }

  /**
   * Sends a `ping` event to one endpoint of the tenant, and to no other: an event of its own
   * (readable at GET /v1/events/:id) and one delivery, due now, signed, retried and logged like
   * every delivery. 404 `not_found` for an endpoint the tenant does not have (the default one
   * while it has no webhook_url); 409 while the endpoint is off (refuseUnsendable), also when it
   * is switched off or deleted while the ping is written.
   */
  async ping(scope: TenantScope, endpointId: string): Promise<WebhookDeliveryRecord> {
    const state = await this.endpointState(scope, endpointId);
    if (state === "deleted") throw appError("not_found");
    refuseUnsendable(scope, endpointId, state);
    const deliveryId = await this.queue.queuePing(pingEvent(scope.tenantId, endpointId, scope.clock.now()), endpointId === defaultEndpointId(scope.tenantId));
    if (deliveryId === null) refuseUnsendable(scope, endpointId, await this.endpointState(scope, endpointId));
    this.wakeDispatcher();
    return this.get(scope, deliveryId!);
  }

  /** As `find`, 404 `not_found` when there is none. */
  async get(scope: TenantScope, deliveryId: string): Promise<WebhookDeliveryRecord> {
    const delivery = await this.find(scope, deliveryId);
    if (!delivery) throw appError("not_found");
    return delivery;
  }

  /** Whether the tenant's endpoint takes deliveries now; the default one is "deleted" while the tenant has no webhook_url. */
  private async endpointState(scope: TenantScope, endpointId: string): Promise<EndpointState> {
    if (endpointId === defaultEndpointId(scope.tenantId)) {
      if (!scope.tenant.webhookUrl) return "deleted";
      return scope.tenant.webhookEnabled ? "enabled" : "disabled";
    }
    const endpoint = await this.db.prisma.webhookEndpoint.findFirst({ where: { id: endpointId, tenantId: scope.tenantId }, select: { enabled: true } });
    if (!endpoint) return "deleted";
    return endpoint.enabled ? "enabled" : "disabled";
  }

  /** The tenant's deliveries by status (usage). */
  async countsByStatus(tenantId: string): Promise<Record<WebhookDeliveryStatus, number>> {
    const groups = await this.db.prisma.webhookDelivery.groupBy({ by: ["status"], where: { tenantId }, _count: { _all: true } });
    const counts = { pending: 0, succeeded: 0, failed: 0 };
    for (const group of groups) counts[group.status] = group._count._all;
    return counts;
  }
}

type EndpointState = "enabled" | "disabled" | "deleted";

/**
 * 409 for an endpoint that could only fail a delivery: `webhooks_disabled` for the default one
 * while the tenant's webhooks are off, `webhook_endpoint_disabled` for another disabled or deleted.
 */
function refuseUnsendable(scope: TenantScope, endpointId: string, state: EndpointState): void {
  if (state === "enabled") return;
  if (endpointId === defaultEndpointId(scope.tenantId)) throw appError("webhooks_disabled");
  throw appError("webhook_endpoint_disabled", { reason: `The endpoint ${endpointId} ${state === "deleted" ? "was deleted" : "is disabled"}.` });
}
