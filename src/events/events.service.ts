import type { TenantScope } from "../tenancy/tenant-scope";
import type { Database } from "../db/database";
import type { Prisma } from "../db/models";
import type { CursorCodec } from "../pagination/cursor";
import { filteredListName } from "../pagination/list-name";
import { paginate, type Page, type PageRequest } from "../pagination/paginate";
import { appError } from "../errors/app-error";
import { isWebhookEventType, PING, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhook-events";
import { WALLET_EVENT_TYPES } from "./wallet-events";

const DAY_MS = 24 * 60 * 60 * 1000;

/** An event as the events API shows it: `payload` is its webhook body, byte for byte. */
export interface StoredEvent {
  id: string;
  type: WebhookEventType;
  /** Null for a ping. */
  orderId: string | null;
  createdAt: Date;
  payload: string;
}

/** Which events a list shows; every field given narrows it. */
export interface EventFilter {
  /** Any of these types. Without it, every order event: pings only when `types` names them. */
  types?: readonly WebhookEventType[];
  orderId?: string;
  /** Made after this instant (not at it). */
  createdAfter?: Date;
  /** Made before this instant (not at it). */
  createdBefore?: Date;
  /**
   * true: events every delivery of which succeeded (and that had one); false: events with a
   * delivery that has not succeeded (pending or failed).
   */
  deliverySuccess?: boolean;
}

/**
 * The tenant's events as its webhooks carried them, to catch up on what a receiver missed:
 * newest first, those of the last WEBHOOK_LOG_RETENTION_DAYS (as long as the delivery log keeps
 * their deliveries; an order's own history keeps all of its events).
 */
export class EventService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
    /** WEBHOOK_LOG_RETENTION_DAYS. */
    private readonly retentionDays: number,
  ) {}

  async list(scope: TenantScope, filter: EventFilter, request: PageRequest): Promise<Page<StoredEvent>> {
    const where = this.whereOf(scope, filter);
    return paginate({
      list: filteredListName(`events:${scope.tenantId}`, [filter.types?.join(","), filter.orderId, filter.createdAfter?.getTime(), filter.createdBefore?.getTime(), filter.deliverySuccess]),
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.orderEvent.count({ where }),
      fetch: async (query) => (await this.db.prisma.orderEvent.findMany({ ...query, where: { AND: [where, query.where] } })).map(storedEvent),
    });
  }

  /** The tenant's event (a ping included); null for an unknown id, a wallet event the key may not read, another tenant's, or one older than the window. */
  async find(scope: TenantScope, eventId: string): Promise<StoredEvent | null> {
    const row = await this.db.prisma.orderEvent.findFirst({ where: { id: eventId, tenantId: scope.tenantId, createdAt: { gte: this.windowStart(scope) }, type: { notIn: this.unreadable(scope) } } });
    return row ? storedEvent(row) : null;
  }

  /** The oldest event time the tenant still sees: the webhook log's retention, on the tenant's clock (its events are dated on it). */
  private windowStart(scope: TenantScope): Date {
    return new Date(scope.clock.nowMs() - this.retentionDays * DAY_MS);
  }

  /** Wallet events show the balance: a key without `wallet: read` does not see them (as its 402s do not show it). */
  private unreadable(scope: TenantScope): string[] {
    return scope.mayReadWallet ? [] : [...WALLET_EVENT_TYPES];
  }

  private whereOf(scope: TenantScope, filter: EventFilter): Prisma.OrderEventWhereInput {
    return {
      tenantId: scope.tenantId,
      type: filter.types ? { in: [...filter.types], notIn: this.unreadable(scope) } : { notIn: [PING, ...this.unreadable(scope)] },
      orderId: filter.orderId,
      createdAt: { gte: this.windowStart(scope), gt: filter.createdAfter, lt: filter.createdBefore },
      deliveries:
        filter.deliverySuccess === undefined
          ? undefined
          : filter.deliverySuccess
            ? { some: {}, every: { status: "succeeded" } }
            : { some: { status: { not: "succeeded" } } },
    };
  }
}

/** Event types asked for by name; an unknown one is 400 `validation_failed` naming `field` and the type. */
export function eventTypesOf(types: readonly string[], field: string): WebhookEventType[] {
  const unknown = types.find((type) => !isWebhookEventType(type));
  if (unknown !== undefined) {
    throw appError("validation_failed", { field, message: `${field}: ${JSON.stringify(unknown)} is not an event type: name some of ${WEBHOOK_EVENT_TYPES.join(", ")}` });
  }
  return [...new Set(types as WebhookEventType[])];
}

function storedEvent(row: { id: string; type: string; orderId: string | null; createdAt: Date; payload: string }): StoredEvent {
  return { id: row.id, type: row.type as WebhookEventType, orderId: row.orderId, createdAt: row.createdAt, payload: row.payload };
}
