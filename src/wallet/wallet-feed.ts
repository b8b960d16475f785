import { UpdateQueue } from "../events/update-queue";
import type { WalletEventNotice, WalletEventType } from "../events/wallet-events";
import type { Logger } from "../logger";
import type { TenantScope } from "../tenancy/tenant-scope";
import type { WalletStanding } from "./wallet";
import type { WalletEventNotices } from "./wallet-event-notices";
import type { WalletService } from "./wallet.service";

/** How far a subscriber may fall behind before its subscription ends (UpdateQueue). */
const SUBSCRIBER_CAPACITY = 1000;

/** One wallet event as a subscriber receives it: the event, and the wallet read after it. */
export interface WalletEventUpdate {
  id: string;
  type: WalletEventType;
  createdAt: Date;
  wallet: WalletStanding;
}

/**
 * Live wallet events for GraphQL subscriptions (`walletEvents`), fed by the word every process
 * hears after a wallet event committed (LISTEN/NOTIFY on PostgreSQL), so a subscriber here hears
 * of events any process wrote. Each subscriber is tenant-scoped; the wallet is read once per
 * event for all of its tenant's subscribers.
 */
export class WalletFeed {
  private readonly byTenant = new Map<string, Set<UpdateQueue<WalletEventUpdate>>>();

  constructor(
    notices: WalletEventNotices,
    private readonly wallets: WalletService,
    private readonly log: Logger,
  ) {
    notices.onEvent((notice) => this.fanOut(notice));
  }

  /** Every wallet event of the scope's tenant, from now on. */
  tenantEvents(scope: TenantScope): AsyncIterableIterator<WalletEventUpdate> {
    const { tenantId } = scope;
    const subscribers = this.byTenant.get(tenantId) ?? new Set<UpdateQueue<WalletEventUpdate>>();
    this.byTenant.set(tenantId, subscribers);
    const queue: UpdateQueue<WalletEventUpdate> = new UpdateQueue<WalletEventUpdate>(SUBSCRIBER_CAPACITY, () => {
      subscribers.delete(queue);
      if (subscribers.size === 0 && this.byTenant.get(tenantId) === subscribers) this.byTenant.delete(tenantId);
    });
    subscribers.add(queue);
    return queue;
  }

  /** Subscriptions open on this process. */
  subscriberCount(): number {
    let count = 0;
    for (const subscribers of this.byTenant.values()) count += subscribers.size;
    return count;
  }

  private fanOut(notice: WalletEventNotice): void {
    const subscribers = this.byTenant.get(notice.tenantId);
    if (!subscribers || subscribers.size === 0) return;
    const update = this.wallets.standing(notice.tenantId).then(
      (wallet): WalletEventUpdate => ({ id: notice.id, type: notice.type, createdAt: new Date(notice.createdAt), wallet }),
      (error: unknown) => {
        this.log.warn({ err: error, eventId: notice.id }, "wallet event not delivered to subscribers");
        return null;
      },
    );
    for (const subscriber of subscribers) subscriber.push(update);
  }
}
