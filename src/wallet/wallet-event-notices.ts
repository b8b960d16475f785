import type { PubSub } from "../events/pubsub";
import { isWalletEventNotice, type WalletEventNotice } from "../events/wallet-events";

/**
 * Word to every process, after a commit, of the wallet events it wrote (`wallets` channel,
 * LISTEN/NOTIFY on PostgreSQL): the webhook dispatcher wakes, the tenant's subscribers are told.
 * Should the process die between commit and word, the events are in the outbox all the same.
 */
export class WalletEventNotices {
  constructor(
    private readonly pubsub: PubSub,
    /** When an event's first webhook attempt is due, after the event (WEBHOOK_RETRY_SCHEDULE[0]). */
    readonly firstDeliveryDelayMs: number,
  ) {}

  async publish(notices: readonly WalletEventNotice[]): Promise<void> {
    await Promise.all(notices.map((notice) => this.pubsub.publish("wallets", notice)));
  }

  /** Calls `listener` for every wallet event any process committed; returns what unsubscribes. */
  onEvent(listener: (notice: WalletEventNotice) => void): () => void {
    return this.pubsub.subscribe("wallets", (message) => {
      if (isWalletEventNotice(message)) listener(message);
    });
  }
}
