import type { Database } from "../../db/database";
import { GuardFailed } from "../../db/write-batch";
import type { BatchStatement } from "../../db/write-batch";
import { appError } from "../../errors/app-error";
import type { Environment } from "../../gateway/contract/air";
import type { BookedService } from "../../gateway/contract/bookings";
import type { Services } from "../../gateway/contract/capabilities";
import type { OrderSuppliers } from "../../gateway/contract/gateway";
import { convertMinor } from "../../money/exchange-rates";
import { noPause, type TestPause } from "../../test-pause";
import type { TenantScope } from "../../tenancy/tenant-scope";
import { insufficientBalance } from "../../wallet/insufficient-balance";
import { WALLET_GUARD } from "../../wallet/wallet-change";
import { spendable } from "../../wallet/wallet";
import type { WalletService } from "../../wallet/wallet.service";
import type { Order, SelectedService } from "../core/order";
import type { OrderCommits } from "../core/order-commits";
import { ORDER_GUARD } from "../core/order-state-machine";
import { orderSubject } from "../core/order-subject";
import { supplierBooking } from "../core/supplier-booking";
import { orderEvent } from "../presentation/order-event-payload";
import { CallIntents, type ClaimedIntent } from "../recovery/call-intents";
import type { IntentCalls } from "../recovery/intent-calls";
import { additionWrites, newAddition, servicesDebit } from "./addition-writes";
import type { ServiceAddition } from "./service-addition";

/** How often a sale made is committed again when another change of the order committed between its read and its write. */
const MAX_ATTEMPTS = 10;

/**
 * Services sold and paid at the supplier after booking (its `afterBooking` is `paid_bags`: bags
 * on a ticketed order, docs/rest-api.md#services-after-booking). The supplier's payment cannot
 * be taken back, so money moves exactly once by rolling forward:
 *
 * 1. the addition is recorded as an intent keyed by the order (IntentCalls.sellPaid), carrying
 *    what its commit writes, before the supplier is asked; racing additions of the order wait for
 *    it and then read the order again, so two never pay for the same services;
 * 2. the supplier sells and is paid (`sellServices`, outside any transaction; safe to repeat);
 * 3. one transaction commits the order's services and total, the addition, the wallet's debit
 *    only for a wallet-settled order (the supplier's balance pays for one it settles: the wallet
 *    moves nothing), the `order.services_added` event, and the intent settled;
 * 4. after a crash the reconciler asks the supplier whether the sale was made: made, it commits
 *    the addition as step 3 (`rollForward`); never made, the intent is dropped.
 *
 * The supplier numbers the services' documents itself: no EMD job is queued.
 */
export class PaidServiceAdditions {
  constructor(
    private readonly db: Database,
    private readonly wallets: WalletService,
    private readonly calls: IntentCalls,
    private readonly suppliers: Pick<OrderSuppliers, "declared">,
    private readonly commits: OrderCommits,
    /** TEST ONLY (AEROGATE_TEST_PAUSE_AT): stops a request inside a crash window. */
    private readonly pause: TestPause = noPause,
  ) {}

  /**
   * Sells the services selected for the ticketed order and commits their addition. 402
   * `insufficient_balance` before anything is paid when a wallet-settled order's wallet cannot
   * cover them; "order_changed" when another addition of the order was under way or committed
   * since the order was read (read it again and check the request against it).
   */
  async add(scope: TenantScope, order: Order, selected: SelectedService[], amount: number, now: Date, supplier: Services): Promise<"committed" | "order_changed"> {
    const addition = newAddition(order, selected, amount, now, false);
    const additionId = addition.id;
    if (order.settlement === "wallet") {
      const wallet = await this.wallets.get(order.tenantId);
      const cost = convertMinor(amount, order.currency, wallet.currency);
      if (spendable(wallet) < cost) throw insufficientBalance(scope, "The services cost", cost, wallet);
    }
    const booking = supplierBooking(order, [], scope.tenant.environment);
    const unchanged = async () => (await orderSubject(this.db, order.id))?.order.updatedAt.getTime() === order.updatedAt.getTime();
    const sale = await this.calls.sellPaid(supplier, booking, addition.id, soldOf(addition), addition, unchanged);
    if (sale === "raced") return "order_changed";
    await this.pause("after_supplier_service_sale", { orderId: order.id, additionId });
    try {
      await this.commitSold(addition, this.calls.intents.committed(sale));
    } catch (error) {
      if (CallIntents.tookOver(error)) throw appError("service_unavailable", { reason: "The services were paid at the supplier and their addition is being completed: read the order again." });
      throw error;
    }
    await this.pause("after_services_commit", { orderId: order.id, additionId });
    return "committed";
  }

  /**
   * The reconciler's step for a claimed intent of a paid sale (`intent.commits` set): the
   * addition is committed if the supplier made the sale ("completed"), else dropped.
   */
  async rollForward(intent: ClaimedIntent, environment: Environment): Promise<"completed" | "dropped"> {
    const stored = intent.commits as ServiceAddition;
    const addition: ServiceAddition = { ...stored, createdAt: new Date(stored.createdAt), paidAt: new Date(stored.createdAt) };
    const subject = await orderSubject(this.db, intent.orderId);
    const supplier = subject && this.suppliers.declared(subject.order.offer.payload, "services");
    if (!subject || !supplier) return "dropped";
    if (!(await supplier.serviceSaleMade(supplierBooking(subject.order, [], environment), addition.id, soldOf(addition)))) return "dropped";
    await this.commitSold(addition, this.calls.intents.settledIn(intent.id));
    return "completed";
  }

  /**
   * Commits the addition whose sale the supplier made on its order as it is now (read again when
   * another change committed first: the sale stands whatever happened since), `settle` (the
   * intent's) with it. The debit of a wallet-settled order is owed: it lands past the credit limit.
   */
  private async commitSold(sold: ServiceAddition, settle: BatchStatement): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const subject = await orderSubject(this.db, sold.orderId);
      if (!subject) throw new Error(`order ${sold.orderId} is gone`);
      const { order } = subject;
      const at = new Date(Math.max(sold.createdAt.getTime(), order.updatedAt.getTime() + 1));
      const addition: ServiceAddition = { ...sold, paidAt: at, createdAt: at };
      const { updated, statements } = additionWrites(this.db, order, addition, { refundGuard: false });
      const debit = order.settlement === "wallet" && addition.totalAmount > 0 ? await servicesDebit(this.db, this.wallets, order, addition, true) : null;
      try {
        await this.commits.commit([order], [...statements, ...(debit?.statements ?? []), settle], [orderEvent(updated, at, { type: "order.services_added", addition })]);
        return;
      } catch (error) {
        // Another change of the order committed first, or the wallet was re-denominated: commit on what it is now.
        const again = error instanceof GuardFailed && (error.guard === ORDER_GUARD || error.guard === WALLET_GUARD);
        if (!again || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }
}

/** The services an addition sells, as the supplier is asked for them. */
function soldOf(addition: ServiceAddition): BookedService[] {
  return addition.services.map((service) => ({ id: service.id, quantity: service.quantity, unitAmount: service.unitAmount, currency: addition.currency }));
}
