import type { TenantScope } from "../../tenancy/tenant-scope";
import type { Database } from "../../db/database";
import { databaseFault } from "../../db/errors";
import { eventsSince } from "../../events/outbox";
import { RecentMap } from "../../recent-map";
import { AppError } from "../../errors/app-error";
import type { OrderEventType } from "../../events/order-events";
import { UpdateQueue } from "../../events/update-queue";
import type { Logger } from "../../logger";
import type { OrderDetail } from "../core/order";
import type { OrderChanged, OrderCommits } from "../core/order-commits";
import type { OrderService } from "../core/order.service";

/** One order event as a subscriber receives it: the event, and the order read after it. */
export interface OrderEventUpdate {
  id: string;
  type: OrderEventType;
  createdAt: Date;
  order: OrderDetail;
}

/**
 * After a resync, events are read back from this long before the word was cut off: an event's
 * time is taken before its transaction commits.
 */
const CATCH_UP_MARGIN_MS = 5000;
/** Events read back per resync at most (the rest of a long outage's events are not told live). */
const CATCH_UP_LIMIT = 1000;
const TOLD_EVENTS_REMEMBERED = 10_000;

/** Reads of a changed order for its subscribers, when the database is unreachable at first. */
const READ_ATTEMPTS = 5;

/** How far a subscriber may fall behind before its subscription ends (UpdateQueue). */
const SUBSCRIBER_CAPACITY = 1000;

interface Subscriber {
  scope: TenantScope;
  /** The one order it follows (orderStates); none for a tenant's events. */
  orderId?: string;
  wants(change: OrderChanged): boolean;
  receive(order: Promise<OrderDetail | null>, change: OrderChanged): void;
}

/** The same state again: the first read raced a change, or a read already saw a later change. */
const sameState = (next: OrderDetail, last: OrderDetail) => next.updatedAt.getTime() === last.updatedAt.getTime() && next.status === last.status;

/**
 * Live order updates for GraphQL subscriptions, fed by OrderCommits, which every process hears
 * after each commit (LISTEN/NOTIFY on PostgreSQL), so a subscriber here sees changes made by
 * any process. One listener serves every subscriber of the process: each change is read once
 * (OrderService.detail) and that one read is shared by all subscribers of its tenant who want
 * it. Each subscriber is tenant-scoped and gets its updates in commit order.
 */
export class OrderFeed {
  private readonly byTenant = new Map<string, Set<Subscriber>>();

  /** Events already told to subscribers, so one caught up after a resync is not told twice. */
  private readonly told = new RecentMap<string, true>(TOLD_EVENTS_REMEMBERED);

  constructor(
    commits: OrderCommits,
    private readonly orders: OrderService,
    private readonly log: Logger,
    private readonly db: Database,
  ) {
    commits.onChange((change) => this.fanOut(change));
    commits.onResync((lostAt) => void this.catchUp(lostAt).catch((error: unknown) => this.log.warn({ err: error }, "subscribers could not be caught up after a resync")));
  }

  /**
   * The order's current state, then the order after every change. 404 `not_found` for an
   * unknown or another tenant's order, as reading it would.
   */
  async orderStates(scope: TenantScope, orderId: string): Promise<AsyncIterableIterator<OrderDetail>> {
    const queue = new UpdateQueue<OrderDetail>(SUBSCRIBER_CAPACITY, () => remove(), sameState);
    // Listening before the first read: a change committed meanwhile is not missed.
    const remove = this.add({ scope, orderId, wants: (change) => change.orderId === orderId, receive: (order) => queue.push(order) });
    const current = this.orders.detail(scope, orderId);
    queue.push(current.catch(() => null));
    try {
      await current;
    } catch (error) {
      await queue.return();
      throw error;
    }
    return queue;
  }

  /** Every event of the scope's tenant, from now on. */
  tenantEvents(scope: TenantScope): AsyncIterableIterator<OrderEventUpdate> {
    const queue = new UpdateQueue<OrderEventUpdate>(SUBSCRIBER_CAPACITY, () => remove());
    const remove = this.add({
      scope,
      wants: (change) => change.event !== undefined,
      receive: (order, { event }) => queue.push(order.then((detail) => detail && event ? { id: event.id, type: event.type, createdAt: new Date(event.createdAt), order: detail } : null)),
    });
    return queue;
  }

  /** Subscriptions open on this process. */
  subscriberCount(): number {
    let count = 0;
    for (const subscribers of this.byTenant.values()) count += subscribers.size;
    return count;
  }

  private add(subscriber: Subscriber): () => void {
    const { tenantId } = subscriber.scope;
    const subscribers = this.byTenant.get(tenantId) ?? new Set<Subscriber>();
    this.byTenant.set(tenantId, subscribers.add(subscriber));
    return () => {
      subscribers.delete(subscriber);
      if (subscribers.size === 0 && this.byTenant.get(tenantId) === subscribers) this.byTenant.delete(tenantId);
    };
  }

  private fanOut(change: OrderChanged): void {
    if (change.event) {
      if (this.told.get(change.event.id)) return;
      this.told.set(change.event.id, true);
    }
    const interested = [...(this.byTenant.get(change.tenantId) ?? [])].filter((subscriber) => subscriber.wants(change));
    if (interested.length === 0) return;
    const order = this.readAfterChange(interested[0]!.scope, change.orderId).catch((error: unknown) => {
      // An order gone with its deleted tenant has nothing left to report.
      if (!(error instanceof AppError)) this.log.warn({ err: error, orderId: change.orderId }, "order update not delivered to subscribers");
      return null;
    });
    for (const subscriber of interested) subscriber.receive(order, change);
  }

  /**
   * After the word between processes was cut off (a database outage, on PostgreSQL) and is back:
   * what subscribers may have missed is told now. Each followed order is read again (a
   * subscriber gets it only if it changed), and the events of subscribed tenants committed since
   * shortly before the cut are told, those already told skipped. Events are dated on their
   * tenant's clock, so "since" is read on each tenant's (tenants on one clock, one query).
   */
  private async catchUp(lostAt: Date): Promise<void> {
    const byClock = new Map<number, string[]>();
    for (const [tenantId, subscribers] of this.byTenant) {
      const followed = new Set([...subscribers].flatMap((subscriber) => (subscriber.orderId ? [subscriber.orderId] : [])));
      for (const orderId of followed) this.fanOut({ tenantId, orderId });
      const offsetMs = subscribers.values().next().value?.scope.clock.offsetMs ?? 0;
      byClock.set(offsetMs, [...(byClock.get(offsetMs) ?? []), tenantId]);
    }
    for (const [offsetMs, tenantIds] of byClock) {
      const events = await eventsSince(this.db, tenantIds, new Date(lostAt.getTime() + offsetMs - CATCH_UP_MARGIN_MS), CATCH_UP_LIMIT);
      for (const event of events) {
        this.fanOut({ tenantId: event.tenantId, orderId: event.orderId, event: { id: event.id, type: event.type, createdAt: event.createdAt.toISOString() } });
      }
    }
  }

  /**
   * The order as a committed change left it. A change committed just before the database went
   * away is still told: the read waits for the database's return and is made then (a few
   * times at most), so subscribers get it late rather than never.
   */
  private async readAfterChange(scope: TenantScope, orderId: string): Promise<OrderDetail> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.orders.detail(scope, orderId);
      } catch (error) {
        if (attempt >= READ_ATTEMPTS || databaseFault(error)?.kind !== "unreachable") throw error;
        await this.db.availability.whenReachable();
      }
    }
  }
}
