import type { Database } from "../../db/database";
import { writeBatch, type BatchStatement } from "../../db/write-batch";
import type { OrderEvent, OrderEventType } from "../../events/order-events";
import { recordEvents } from "../../events/outbox";
import type { PubSub } from "../../events/pubsub";
import { clock } from "../../clock";
import { lowBalanceCheck } from "../../wallet/low-balance";
import type { WalletEventNotices } from "../../wallet/wallet-event-notices";

/**
 * Orders named per message: PostgreSQL's NOTIFY takes at most 8,000 bytes, and an order with its
 * event is ~200 of them. A batch of changes (the holds whose deadlines came) is told in several.
 */
const ORDERS_PER_MESSAGE = 25;

/** One order a committed change touched, and one event it emitted, if any (an order with two events of one change comes once for each). */
export interface OrderChanged {
  tenantId: string;
  orderId: string;
  /** `createdAt` is ISO text: the message crosses processes as JSON. */
  event?: { id: string; type: OrderEventType; createdAt: string };
}

/** What every process hears on the `orders` channel after a commit. */
export interface OrdersChanged {
  orders: OrderChanged[];
}

function isOrdersChanged(message: unknown): message is OrdersChanged {
  return typeof message === "object" && message !== null && Array.isArray((message as OrdersChanged).orders);
}

/**
 * The one way a change to orders is committed: the batch (a transition with what goes with it),
 * the events it emits (outbox.ts) and, for each tenant it touches, the wallet's low-balance check
 * (a booking reserves money, a payment spends it, a cancellation frees it: wallet/low-balance.ts),
 * in one transaction; then, after the commit, word to every
 * process of which orders changed and which events were emitted (caches drop the orders, the
 * webhook dispatcher wakes, subscribers are told). On PostgreSQL `publish` resolves once every
 * listening process has run its handlers, so an order read anywhere after the change's answer
 * shows the change. Should the process die between commit and publish, the events are in the
 * outbox all the same: the dispatcher's poll finds their deliveries.
 */
export class OrderCommits {
  constructor(
    private readonly db: Database,
    private readonly pubsub: PubSub,
    private readonly walletNotices: WalletEventNotices,
  ) {}

  /** When an event's first webhook attempt is due, after the event (WEBHOOK_RETRY_SCHEDULE[0]). */
  get firstDeliveryDelayMs(): number {
    return this.walletNotices.firstDeliveryDelayMs;
  }

  async commit(orders: ReadonlyArray<{ id: string; tenantId: string }>, statements: BatchStatement[], events: readonly OrderEvent[] = []): Promise<number[]> {
    const outbox = recordEvents(this.db, events, this.firstDeliveryDelayMs);
    // Each tenant's check is dated as the batch's first event of that tenant (on its clock), else now.
    const checks = [...new Set(orders.map((order) => order.tenantId))].sort().map((tenantId) => {
      const at = events.find((event) => event.tenantId === tenantId)?.createdAt ?? clock.now();
      return lowBalanceCheck(this.db, tenantId, at, this.firstDeliveryDelayMs);
    });
    const counts = await writeBatch(this.db, [...statements, ...outbox, ...checks.flatMap((check) => check.statements)]);
    let offset = statements.length + outbox.length;
    const alerts = checks.filter((check) => {
      const written = counts[offset + check.eventStatement]! > 0;
      offset += check.statements.length;
      return written;
    });
    await this.walletNotices.publish(alerts.map((check) => check.notice));
    // An order the batch gave two events (a quote's confirmation beside the cancellation) is told once per event.
    const eventsOf = new Map<string, OrderEvent[]>();
    for (const event of events) eventsOf.set(event.orderId, [...(eventsOf.get(event.orderId) ?? []), event]);
    const changed = orders.flatMap((order): OrderChanged[] => {
      const touched = { tenantId: order.tenantId, orderId: order.id };
      const own = eventsOf.get(order.id);
      return own ? own.map((event) => ({ ...touched, event: { id: event.id, type: event.type, createdAt: event.createdAt.toISOString() } })) : [touched];
    });
    const messages: OrdersChanged[] = [];
    for (let start = 0; start < changed.length; start += ORDERS_PER_MESSAGE) messages.push({ orders: changed.slice(start, start + ORDERS_PER_MESSAGE) });
    await Promise.all(messages.map((message) => this.pubsub.publish("orders", message)));
    return counts;
  }

  /** Calls `listener` after the word between processes was cut off (at `lostAt`) and is back: changes may have gone untold. */
  onResync(listener: (lostAt: Date) => void): void {
    this.pubsub.onResync(listener);
  }

  /** Calls `listener` for every order changed by any process; returns what unsubscribes. */
  onChange(listener: (change: OrderChanged) => void): () => void {
    return this.pubsub.subscribe("orders", (message) => {
      if (isOrdersChanged(message)) for (const order of message.orders) listener(order);
    });
  }
}
