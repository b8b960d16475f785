import type { Database } from "../db/database";
import { writeBatch, type BatchStatement } from "../db/write-batch";
import type { PubSub } from "../events/pubsub";

/** Which orders a committed change touched, as every process hears it on the `orders` channel. */
export interface OrdersChanged {
  orders: Array<{ tenantId: string; orderId: string }>;
}

function isOrdersChanged(message: unknown): message is OrdersChanged {
  return typeof message === "object" && message !== null && Array.isArray((message as OrdersChanged).orders);
}

/**
 * The one way a change to existing orders is committed: the batch (a transition with what goes
 * with it), then, after the commit, word to every process of which orders changed. On PostgreSQL
 * `publish` resolves once every listening process has run its handlers, so an order read
 * anywhere after the change's answer shows the change.
 */
export class OrderChanges {
  constructor(
    private readonly db: Database,
    private readonly pubsub: PubSub,
  ) {}

  async commit(orders: ReadonlyArray<{ id: string; tenantId: string }>, statements: BatchStatement[]): Promise<number[]> {
    const counts = await writeBatch(this.db, statements);
    const message: OrdersChanged = { orders: orders.map((order) => ({ tenantId: order.tenantId, orderId: order.id })) };
    await this.pubsub.publish("orders", message);
    return counts;
  }

  /** Calls `listener` for every order changed by any process; returns what unsubscribes. */
  onChange(listener: (change: OrdersChanged["orders"][number]) => void): () => void {
    return this.pubsub.subscribe("orders", (message) => {
      if (isOrdersChanged(message)) for (const order of message.orders) listener(order);
    });
  }
}
