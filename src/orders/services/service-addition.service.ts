import type { TenantScope } from "../../tenancy/tenant-scope";
import type { Database } from "../../db/database";
import { GuardFailed } from "../../db/write-batch";
import { orderEvent } from "../presentation/order-event-payload";
import { appError } from "../../errors/app-error";
import { offerSupplier } from "../../search/offer-payload";
import { SeatTaken } from "../../gateway/contract/errors";
import type { BookingRef, SeatChoice } from "../../gateway/contract/bookings";
import type { AfterBooking, Services } from "../../gateway/contract/capabilities";
import type { OrderSuppliers } from "../../gateway/contract/gateway";
import type { AvailableService } from "../../gateway/contract/seat-maps";
import { WALLET_GUARD } from "../../wallet/wallet-change";
import { insufficientBalance } from "../../wallet/insufficient-balance";
import type { WalletService } from "../../wallet/wallet.service";
import { noPause, type TestPause } from "../../test-pause";
import type { Order, OrderDetail, SelectedService } from "../core/order";
import type { OrderCommits } from "../core/order-commits";
import type { AirlineJobs } from "../jobs/airline-jobs";
import type { OrderService } from "../core/order.service";
import { awaitsPayment, isTicketed, refusal } from "../core/order-actions";
import { servicesAfterBooking } from "../core/order-supplier";
import { ORDER_GUARD } from "../core/order-state-machine";
import { checkPayment } from "../payment/payment-rules";
import type { ServiceAddition } from "./service-addition";
import { additionWrites, newAddition, servicesDebit } from "./addition-writes";
import type { PaidServiceAdditions } from "./paid-service-additions";
import type { AddServicesRequest } from "./service-addition.inputs";
import { offerExtras, offerServices, seatServiceIndex, selectServices, servicesLeft } from "./service-selection";
import { supplierBooking } from "../core/supplier-booking";
import type { IntentCalls } from "../recovery/intent-calls";
import { CallIntents, type IntentCall } from "../recovery/call-intents";

/** How often an addition is tried again when another change of the order committed between its read and its write. */
const MAX_ATTEMPTS = 10;

/** What a request adding services names them by, for errors about them. */
const FIELD = "add_services";

/**
 * Services after booking (docs/rest-api.md#services-after-booking): the bags and seats an order's passengers can still add,
 * and adding them. On a PENDING order (a hold) the services join the order and its total (paid
 * with it); on a TICKETED order the wallet pays them at once and the supplier issues an EMD per
 * service after its delay (the order's `emd` job). The order's supplier prices them and sells
 * them (its `services` capability: 422 `unsupported_by_supplier` without it). Seats chosen are
 * sold by the supplier first, as a sale keyed by the addition's id under a durable intent
 * (docs/supplier-contract.md). Then the addition is one transaction: the order's services and
 * total, the addition's record, the debit, the EMD job, the `order.services_added` event and the
 * sale's intent settled commit together or not at all; a sale whose addition did not commit is
 * cancelled at the supplier (by the request, or by the reconciler after a crash).
 */
export class ServiceAdditionService {
  constructor(
    private readonly db: Database,
    private readonly orders: OrderService,
    private readonly wallets: WalletService,
    /** Seats chosen are sold by the supplier under a durable intent before the addition commits (recovery/intent-calls.ts). */
    private readonly calls: IntentCalls,
    /** Each order's supplier: its extras, their prices and its seats. */
    private readonly suppliers: OrderSuppliers,
    /** Queues the EMD job with services paid on a ticketed order, due after the airline's delay. */
    private readonly jobs: AirlineJobs,
    private readonly commits: OrderCommits,
    /** Services sold and paid at the supplier (its `afterBooking` is `paid_bags`). */
    private readonly paid: PaidServiceAdditions,
    /** TEST ONLY (AEROGATE_TEST_PAUSE_AT): stops a request inside a crash window. */
    private readonly pause: TestPause = noPause,
  ) {}

  /**
   * The bags and seats the order's passengers can still add: its offer's available services,
   * bags as many as are left of their maximum, seats for passengers without one on the segment.
   * None once the order can take no services. 404 `not_found` for an unknown or another tenant's order.
   */
  async available(scope: TenantScope, orderId: string): Promise<AvailableService[]> {
    const order = await this.orders.get(scope, orderId);
    const afterBooking = servicesAfterBooking(order, scope.clock.now(), this.suppliers);
    if (afterBooking === "none") return [];
    return servicesLeft(await offerServices(this.suppliers, order.offer, order.id), countedAgainst(afterBooking, order));
  }

  /**
   * Adds services to the order: ids from `available` or from the order's seat maps
   * (`GET /v1/air/seat_maps?order_id=`). 404 `not_found` for an unknown or another tenant's
   * order; 409 `order_state_conflict` unless PENDING before its payment deadline or TICKETED
   * with no refund under way; 422 `invalid_field_value` naming the field for a service the order
   * does not offer (another offer's or order's, another passenger's, a second seat), a quantity
   * out of range, or a payment sent for a PENDING order; 422 `seat_unavailable` for a seat another
   * order holds (the database decides between racing additions, see SeatAssignment) or chosen
   * twice; on a TICKETED order 422 `payment_amount_mismatch` when a payment sent is not the
   * services' total, 402 `insufficient_balance` when the wallet cannot pay it.
   */
  async add(scope: TenantScope, orderId: string, request: AddServicesRequest): Promise<OrderDetail> {
    for (let attempt = 1; ; attempt++) {
      const order = await this.orders.get(scope, orderId);
      const now = scope.clock.now();
      const supplier = this.suppliers.require(order.offer.payload, "services", "services after booking", "order");
      const { id, name } = offerSupplier(order.offer.payload);
      if (supplier.afterBooking === "none") throw appError("unsupported_by_supplier", { message: `The order's supplier ${id} (${name}) sells extras only with the booking, not after it.` });
      const refused = refusal(order, "addServices", now);
      if (refused) throw refused;
      if (supplier.afterBooking === "paid_bags" && !isTicketed(order)) {
        throw appError("order_state_conflict", { reason: `The order's supplier ${id} (${name}) sells services after booking only on a ticketed order, paid at once: pay the order first.` });
      }
      const extras = await offerExtras(this.suppliers, supplier, order.offer, request.services.map((service) => service.id), order.id);
      const { services, amount } = selectServices(request.services, order.offer, extras, {
        field: FIELD,
        subject: "order",
        booked: countedAgainst(supplier.afterBooking, order),
        refusal: "invalid_field_value",
      });
      if (request.payment) {
        if (awaitsPayment(order)) throw appError("invalid_field_value", { field: "payment", message: "payment: services added to a pending order are paid with it (POST /v1/air/payments); send no payment" });
        checkPayment(request.payment, amount, order.currency, "payment.amount");
      }
      const result = supplier.afterBooking === "paid_bags" ? await this.paid.add(scope, order, services, amount, now, supplier) : await this.commit(scope, order, services, amount, now, supplier);
      if (result === "order_changed") {
        if (attempt < MAX_ATTEMPTS) continue;
        throw appError("order_state_conflict", { reason: `Order ${order.id} kept changing while services were added to it; try again.` });
      }
      return this.orders.detail(scope, orderId);
    }
  }

  /**
   * Writes the addition in one transaction, guarded on the order being as it was read (its
   * `updatedAt`, moved forward by every addition, and its total): "order_changed" when another
   * change committed first, for the caller to read it again and check the request against it.
   */
  private async commit(scope: TenantScope, order: Order, selected: SelectedService[], amount: number, now: Date, supplier: Services): Promise<"committed" | "order_changed"> {
    const ticketed = isTicketed(order);
    const addition = newAddition(order, selected, amount, now, ticketed);
    const at = addition.createdAt;
    const { updated, statements } = additionWrites(this.db, order, addition);
    const booking = supplierBooking({ ...order, services: addition.services }, [], scope.tenant.environment);
    const sale = booking.seats.length === 0 ? null : await this.sellSeats(supplier, booking, addition);
    if (sale) await this.pause("after_supplier_seat_sale", { orderId: order.id, additionId: addition.id });
    const emds = ticketed ? this.jobs.schedule(order, "emd") : null;
    // A second pass only if a sandbox wallet was re-denominated between reading and debiting it.
    for (let pass = 0; pass < 2; pass++) {
      const debit = ticketed && amount > 0 ? await servicesDebit(this.db, this.wallets, order, addition) : null;
      try {
        await this.commits.commit(
          [order],
          [
            ...statements,
            ...(debit?.statements ?? []),
            ...(emds ? [emds.statement] : []),
            ...(sale ? [this.calls.intents.committed(sale)] : []),
          ],
          [orderEvent(updated, at, { type: "order.services_added", addition })],
        );
      } catch (error) {
        const redenominated = error instanceof GuardFailed && error.guard === WALLET_GUARD && debit !== null && (await this.wallets.get(order.tenantId)).currency !== debit.currency;
        if (redenominated) continue;
        // The addition did not commit: the seats sold for it go back on sale.
        if (sale) await this.calls.undo(sale);
        if (!(error instanceof GuardFailed)) throw error;
        if (error.guard === ORDER_GUARD) return "order_changed";
        if (CallIntents.tookOver(error)) throw appError("service_unavailable", { reason: "The addition took too long and was not made; nothing was added or paid. Try again." });
        if (error.guard !== WALLET_GUARD || !debit) throw error;
        throw insufficientBalance(scope, "The services cost", debit.amount, await this.wallets.get(order.tenantId));
      }
      await this.pause("after_services_commit", { orderId: order.id, additionId: addition.id });
      emds?.wake();
      return "committed";
    }
    if (sale) await this.calls.undo(sale);
    throw appError("order_state_conflict", { reason: "The wallet's currency changed while the services were paid; try again." });
  }

  /** The addition's seats sold by the supplier (a sale keyed by the addition's id); 422 `seat_unavailable` naming the first seat taken. */
  private async sellSeats(supplier: Services, booking: BookingRef & { seats: SeatChoice[] }, addition: ServiceAddition): Promise<IntentCall> {
    try {
      const made = await this.calls.sell(supplier, booking, addition.id, booking.seats);
      // A new addition id: no other request holds an intent of it.
      if (!made) throw new Error(`addition ${addition.id} has a seat intent already`);
      return made.call;
    } catch (error) {
      if (!(error instanceof SeatTaken)) throw error;
      const index = seatServiceIndex(addition.services, error.index);
      throw appError("seat_unavailable", { field: `${FIELD}[${index}].id`, reason: `Seat ${addition.services[index]!.designator} is taken (by another order, or by this one for another passenger).` });
    }
  }
}

/** The services of the order that count against what its supplier offers it: none when the supplier answers what is left for the order itself (`paid_bags`). */
function countedAgainst(afterBooking: AfterBooking, order: Order): SelectedService[] {
  return afterBooking === "paid_bags" ? [] : order.services;
}
