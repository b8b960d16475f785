import { airlineChangesOf } from "./airline-change-rows";
import type { TenantScope } from "../../tenancy/tenant-scope";
import type { Database } from "../../db/database";
import { figuresByDay, type DayRange } from "../../db/daily-buckets";
import { isUniqueViolation } from "../../db/errors";
import { queryRows } from "../../db/query-rows";
import type { Prisma } from "../../db/models";
import { readSnapshot } from "../../db/snapshot";
import { GuardFailed, type BatchStatement } from "../../db/write-batch";
import { orderEvent } from "../presentation/order-event-payload";
import { appError } from "../../errors/app-error";
import { newId } from "../../ids";
import { convertMinor } from "../../money/exchange-rates";
import type { CursorCodec } from "../../pagination/cursor";
import { paginate, type Page, type PageRequest } from "../../pagination/paginate";
import type { OfferService } from "../../search/offer.service";
import { SeatsUnavailable, SeatTaken } from "../../gateway/contract/errors";
import type { BookingAnswer } from "../../gateway/contract/bookings";
import type { Environment } from "../../gateway/contract/air";
import type { OrderSubject } from "./order-subject";
import type { OrderSuppliers } from "../../gateway/contract/gateway";
import { insufficientBalance } from "../../wallet/insufficient-balance";
import type { WalletService } from "../../wallet/wallet.service";
import { spendable, type Wallet } from "../../wallet/wallet";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { sqlJson } from "../../db/sql-values";
import type { Metadata } from "../../tenants/metadata";
import { documentFrom, itineraryDates, ORDER_STATUSES, orderFrom, type OrderRecord, type CancellationReason, passengerFrom, walletShare, type Order, type OrderDetail, type OrderDocument, type OrderPassenger, type OrderStatus } from "./order";
import { checkCreateOrder, checkPassengerUpdates, type CreateOrderRequest, type OrderPassengerRequest, type PassengerUpdate } from "./order-commands";
import { insertOrder, TENANT_GUARD, updatePassenger } from "./order-rows";
import type { OrderEvent } from "../../events/order-events";
import { requireAllowed, stateConflict } from "./order-actions";
import { requireSupplierClock } from "./order-supplier";
import { offerSupplier } from "../../search/offer-payload";
import { requireAllowedSupplier, requireGrantedAccount } from "../../tenants/tenant-suppliers";
import { ORDER_GUARD, touchIn, transition } from "./order-state-machine";
import { checkPassengers, type BookedPassenger } from "./passenger-rules";
import { checkPayment } from "../payment/payment-rules";
import { offerExtras, seatServiceIndex, selectServices } from "../services/service-selection";
import { supplierBooking } from "./supplier-booking";
import type { OrderCommits } from "./order-commits";
import { checkOrderFilter, orderFilterWhere, orderListName, type OrderFilter } from "./order-filter";
import type { OrderHolds } from "../payment/hold-deadline";
import type { IntentCalls } from "../recovery/intent-calls";
import { CallIntents } from "../recovery/call-intents";
import { heldSeats, type UnpaidHolds } from "../payment/unpaid-holds";
import { VersionedCache } from "../../versioned-cache";
import { noPause, type TestPause } from "../../test-pause";

/** Order details kept at least this many (RecentMap), and at most this long should a change's word be lost. */
const RECENT_DETAILS = 2000;
const DETAIL_MAX_AGE_MS = 60_000;

/** The document type counted as tickets in usage (EMDs of services are documents too, not tickets). */
const E_TICKET: OrderDocument["type"] = "electronic_ticket";

/** A cancellation the tenant asked for (the deadline job cancels with `payment_deadline_passed`). */
const REQUESTED: CancellationReason = "requested";

/** A hold its supplier cancelled on its own side. */
const AT_SUPPLIER: CancellationReason = "airline_cancelled";

const detailKey = (tenantId: string, orderId: string) => `${tenantId} ${orderId}`;

/** Where reads go: the database, or the transaction of a snapshot. */
type Reader = Prisma.TransactionClient;

/**
 * Orders of one tenant: booking an offer, reading, listing, changing passengers, cancelling.
 * Ticketing and refunds are in ticketing.service.ts. Every read and write is scoped to the
 * caller's tenant: another tenant's order is `not_found`, exactly like an unknown id.
 */
export class OrderService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
    private readonly offers: OfferService,
    private readonly wallets: WalletService,
    private readonly commits: OrderCommits,
    /** Supplier calls made under a durable intent, settled after a crash (recovery/intent-reconciler.ts). */
    private readonly calls: IntentCalls,
    /** Each offer's and order's supplier: bookings, capabilities, extras and seat services. */
    private readonly suppliers: OrderSuppliers,
    /** Payment deadlines and the jobs that cancel unpaid holds at them. */
    private readonly holds: OrderHolds,
    /** The wallet's hold limits, checked before the airline is asked and again in the commit. */
    private readonly unpaidHolds: UnpaidHolds,
    /** TEST ONLY (AEROGATE_TEST_PAUSE_AT): stops a request inside a crash window. */
    private readonly pause: TestPause = noPause,
  ) {
    commits.onChange(({ tenantId, orderId }) => this.details.delete(detailKey(tenantId, orderId)));
  }

  /**
   * Recently read orders with their children, by tenant and id, dropped in every process when the
   * order changes (OrderCommits): an unchanged order is served without a database read.
   */
  private readonly details = new VersionedCache<string, OrderDetail>(DETAIL_MAX_AGE_MS, RECENT_DETAILS);

  /**
   * Books an offer (docs/rest-api.md#orders-and-ticketing) at its supplier: a PENDING order holding
   * the booking, keeping a snapshot of the exact offer, so the order never needs the offer again
   * (retention removes it). 404 `not_found` for an unknown or another tenant's offer; 422
   * `offer_no_longer_available` when it expired (or was removed since: OfferService.missing), a
   * flight has too few seats left, or it is booked already; the supplier's own refusals
   * (`price_changed`); 400 `validation_failed` for passengers or services that do not fit the offer, 422
   * `invalid_field_value` for a service id the offer does not offer its passengers; 422
   * `seat_unavailable` when a seat chosen is another order's or chosen twice (the database
   * decides between racing bookings, see SeatAssignment); 422
   * `payment_amount_mismatch` when a payment is not exactly the total; 402
   * `insufficient_balance` when the wallet cannot cover it; 422 `hold_limit_reached` when it would
   * take the tenant's unpaid orders past a hold limit (unpaid-holds.ts). Nothing is charged until
   * ticketing.
   */
  async create(scope: TenantScope, command: CreateOrderRequest): Promise<OrderDetail> {
    const request = checkCreateOrder(command);
    const field = request.offerField;
    const [offer] = await this.offers.getMany(scope, [request.offerId]);
    if (!offer) throw this.offers.missing(scope, request.offerId, field);
    requireSupplierClock(offer.payload, scope.clock, this.suppliers);
    const now = scope.clock.now();
    if (offer.expiresAt <= now) {
      throw appError("offer_no_longer_available", { field, reason: `The offer expired at ${offer.expiresAt.toISOString()}.` });
    }
    // An offer made before the owner disallowed its supplier is no longer bookable.
    requireAllowedSupplier(scope.tenant, offerSupplier(offer.payload).id, field);
    requireGrantedAccount(scope.tenant, offer.payload, offerSupplier(offer.payload).id, field);
    const passengers = checkPassengers(request.passengers, offer, now.toISOString().slice(0, 10));
    const extras =
      request.services.length > 0
        ? await offerExtras(this.suppliers, this.suppliers.require(offer.payload, "services", "services chosen at booking", "offer"), offer, request.services.map((service) => service.id))
        : undefined;
    const { services, amount } = extras ? selectServices(request.services, offer, extras) : { services: [], amount: 0 };
    const totalAmount = offer.totalAmount + amount;
    if (request.payment) checkPayment(request.payment, totalAmount, offer.currency, "payments[0].amount");
    const settlement = this.suppliers.settlement(offer.payload);
    const wallet = await this.requireBalance(scope, walletShare({ settlement, totalAmount, offer }), offer.currency);
    // Before the airline is asked: a booking past a hold limit holds no seat (the commit re-checks it).
    await this.unpaidHolds.check(scope.tenantId, wallet.holdLimits, heldSeats(offer, passengers));

    const paymentRequiredBy = this.holds.paymentDeadline(now, itineraryDates(offer).firstDepartureUtc);
    const pending: Order = {
      id: newId("ord", now.getTime()),
      tenantId: scope.tenantId,
      offerId: offer.id,
      status: "PENDING",
      totalAmount,
      currency: offer.currency,
      offer,
      services,
      metadata: request.metadata,
      bookingReference: "",
      failureReason: null,
      refundRequestedAt: null,
      paymentRequiredBy,
      paidAt: null,
      cancellationReason: null,
      settlement,
      createdAt: now,
      updatedAt: now,
    };
    // The intent is written before the supplier is asked and removed by the order's commit: should
    // the process die in between, the reconciler finds it and gives the booking back.
    const booked = await this.book(pending, passengers, scope, field);
    const order = { ...pending, ...this.bookedTerms(pending, booked.answer, scope) };
    // Taken and not yet confirmed: read again in the background until the supplier confirms or fails it.
    const confirmation = booked.answer.outcome === "accepted" ? [this.holds.confirmation(order)] : [];
    await this.pause("after_supplier_hold", { orderId: order.id });
    try {
      await this.commits.commit(
        [order],
        [...insertOrder(this.db, order, passengers), ...this.unpaidHolds.guards(order), this.holds.expiry(order, order.paymentRequiredBy!, scope.clock), ...confirmation, this.calls.intents.committed(booked.call)],
        [orderEvent(order, now, { type: "order.created" })],
      );
    } catch (error) {
      // The supplier holds a booking for an order that does not exist: give it back.
      await this.calls.undo(booked.call);
      const overLimit = this.unpaidHolds.refusalFor(error);
      if (overLimit) throw overLimit;
      if (isUniqueViolation(error)) throw appError("offer_no_longer_available", { field, reason: "The offer is booked already by another order." });
      if (error instanceof GuardFailed && error.guard === TENANT_GUARD) throw appError("tenant_not_found");
      if (CallIntents.tookOver(error)) {
        // The booking outlived its lease and the reconciler gave its seats back meanwhile.
        throw appError("service_unavailable", { reason: "The booking took too long and was not made; nothing was booked. Try again." });
      }
      throw error;
    }
    return { ...order, passengers: passengers.map((passenger) => ({ ...passenger, orderId: order.id })), documents: [], airlineInitiatedChanges: [] };
  }

  /**
   * The order; 404 `not_found` for an unknown id or another tenant's. Outside a snapshot's
   * transaction (`reader`) one raw prepared read: nearly every action on an order starts here,
   * and Prisma's findFirst cost ~0.7 ms of CPU against ~0.05 ms.
   */
  async get(scope: TenantScope, orderId: string, reader?: Reader): Promise<Order> {
    const [row] = reader
      ? [await reader.order.findFirst({ where: { id: orderId, tenantId: scope.tenantId } })]
      : await queryRows<OrderRecord>(this.db, Sql.sql`SELECT * FROM "Order" WHERE "id" = ${orderId} AND "tenantId" = ${scope.tenantId}`);
    if (!row) throw appError("not_found", { field: "id" });
    return orderFrom(row);
  }

  /**
   * The order with its passengers and documents, as one state of it; 404 as `get`. The same
   * object is returned while the order is unchanged (views may memoise what they render of it).
   */
  async detail(scope: TenantScope, orderId: string): Promise<OrderDetail> {
    const detail = await this.details.get(detailKey(scope.tenantId, orderId), () =>
      readSnapshot(this.db, async (tx) => (await this.withChildren(scope, [await this.get(scope, orderId, tx)], tx))[0]!),
    );
    return detail!;
  }

  /** Orders by id, in the order asked, null where unknown or another tenant's (one query, for DataLoaders). */
  async getMany(scope: TenantScope, orderIds: readonly string[]): Promise<Array<Order | null>> {
    const rows = await this.db.prisma.order.findMany({ where: { tenantId: scope.tenantId, id: { in: [...orderIds] } } });
    const byId = new Map(rows.map((row) => [row.id, orderFrom(row)]));
    return orderIds.map((id) => byId.get(id) ?? null);
  }

  /** Passengers of each order, in offer order (one query for any number of orders). */
  async passengersOf(scope: TenantScope, orderIds: readonly string[], reader: Reader = this.db.prisma): Promise<OrderPassenger[][]> {
    const rows = await reader.orderPassenger.findMany({ where: { tenantId: scope.tenantId, orderId: { in: [...orderIds] } }, orderBy: { position: "asc" } });
    return groupBy(orderIds, rows.map(passengerFrom));
  }

  /** Documents of each order (one query for any number of orders). */
  async documentsOf(scope: TenantScope, orderIds: readonly string[], reader: Reader = this.db.prisma): Promise<OrderDocument[][]> {
    const rows = await reader.orderDocument.findMany({ where: { tenantId: scope.tenantId, orderId: { in: [...orderIds] } }, orderBy: { passengerId: "asc" } });
    return groupBy(orderIds, rows.map(documentFrom));
  }

  /**
   * The tenant's orders, newest first, narrowed by `filter` (see `checkOrderFilter` for its 400s).
   * One keyset page at a time, however many orders match.
   */
  list(scope: TenantScope, filter: OrderFilter, request: PageRequest, reader: Reader = this.db.prisma): Promise<Page<Order>> {
    const checked = checkOrderFilter(filter);
    const where = { tenantId: scope.tenantId, ...orderFilterWhere(this.db.provider, checked) };
    return paginate({
      list: orderListName(scope.tenantId, checked),
      request,
      cursors: this.cursors,
      count: () => reader.order.count({ where }),
      fetch: async (query) => (await reader.order.findMany({ ...query, where: { AND: [where, query.where] } })).map(orderFrom),
    });
  }

  /** A page of `list` with each order's passengers and documents, all as one state. */
  listDetails(scope: TenantScope, filter: OrderFilter, request: PageRequest): Promise<Page<OrderDetail>> {
    return readSnapshot(this.db, async (tx) => {
      const page = await this.list(scope, filter, request, tx);
      return { ...page, items: await this.withChildren(scope, page.items, tx) };
    });
  }

  /**
   * Changes passengers' details while the order is PENDING (409 `order_state_conflict` once
   * ticketing began). Each update names a passenger of the order by id; the passengers as
   * changed are checked again as at booking (400 `validation_failed`).
   */
  async updatePassengers(scope: TenantScope, orderId: string, updates: readonly PassengerUpdate[]): Promise<OrderDetail> {
    const detail = await this.detail(scope, orderId);
    const now = scope.clock.now();
    requireAllowed(detail, "updatePassengers", now);
    this.suppliers.require(detail.offer.payload, "holds", "changes to passengers' details after booking", "order");
    const current = new Map(detail.passengers.map((passenger) => [passenger.id, passenger]));
    const seen = new Set<string>();
    const changed: OrderPassengerRequest[] = checkPassengerUpdates(updates).map((update, index) => {
      const passenger = current.get(update.id);
      if (!passenger || seen.has(update.id)) {
        const message = passenger ? `${update.id} is given twice` : `${update.id} is not a passenger of this order`;
        throw appError("validation_failed", { field: `passengers[${index}].id`, message: `passengers[${index}].id: ${message}` });
      }
      seen.add(update.id);
      return { ...passenger, ...update, type: passenger.type };
    });
    // Changed passengers first, so an error's index is the one the client sent.
    const unchanged = detail.passengers.filter((passenger) => !seen.has(passenger.id));
    const passengers = checkPassengers([...changed, ...unchanged], detail.offer, now.toISOString().slice(0, 10));
    try {
      await this.commits.commit([detail], [
        touchIn(this.db, detail, detail.status, now),
        ...passengers.filter((passenger) => seen.has(passenger.id)).map((passenger) => updatePassenger(this.db, orderId, passenger.id, passenger)),
      ]);
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === ORDER_GUARD) throw stateConflict(await this.get(scope, orderId), "updatePassengers");
      throw error;
    }
    return { ...detail, updatedAt: now, passengers: passengers.map((passenger) => ({ ...passenger, orderId })) };
  }

  /**
   * Replaces the order's metadata (the tenant's own keys), in any state: it changes nothing of the
   * booking. A transition committed meanwhile only makes it write again on the new state.
   */
  async updateMetadata(scope: TenantScope, orderId: string, metadata: Metadata): Promise<OrderDetail> {
    for (;;) {
      const order = await this.get(scope, orderId);
      try {
        await this.commits.commit([order], [touchIn(this.db, order, order.status, scope.clock.now(), Sql.sql`, "metadata" = ${sqlJson(this.db.provider, metadata)}`)]);
        return this.detail(scope, orderId);
      } catch (error) {
        if (!(error instanceof GuardFailed && error.guard === ORDER_GUARD)) throw error;
      }
    }
  }

  /**
   * Cancels a PENDING order and gives its booking back (409 `order_state_conflict` otherwise). The
   * release is owed from the cancellation's commit on (an intent in the same transaction), so a
   * process dying before the supplier has the booking back leaves it to the reconciler.
   * `confirming` commits with the cancellation, first: a quote's confirmation, whose own guard
   * (thrown as it is) tells a confirmation that lost a race from an order that moved on;
   * `confirmingEvent` is the event it emits with the cancellation's (after it).
   */
  async cancel(scope: TenantScope, orderId: string, confirming: BatchStatement[] = [], confirmingEvent?: (order: Order, at: Date) => OrderEvent): Promise<OrderDetail> {
    const order = await this.get(scope, orderId);
    const now = scope.clock.now();
    requireAllowed(order, "cancel", now);
    try {
      await this.cancelPending(order, now, scope.tenant.environment, REQUESTED, confirming, confirmingEvent);
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === ORDER_GUARD) throw stateConflict(await this.get(scope, orderId), "cancel");
      throw error;
    }
    return this.detail(scope, orderId);
  }

  /**
   * The supplier cancelled the unpaid hold on its own side (its dashboard, the airline): it is
   * cancelled here as the cancel action cancels it, with `airline_cancelled`. No money moves (an
   * unpaid order was never debited; what it reserved of the wallet is free once it is not
   * PENDING). False, changing nothing, when it is no longer PENDING (paid, or cancelled, meanwhile):
   * the guard lets one cancellation or payment win.
   */
  async cancelledAtSupplier({ order, clock, environment }: OrderSubject): Promise<boolean> {
    try {
      await this.cancelPending(order, clock.now(), environment, AT_SUPPLIER);
      return true;
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === ORDER_GUARD) return false;
      throw error;
    }
  }

  /**
   * PENDING → CANCELED for `reason` with `order.cancelled`, `confirming` committed first; the
   * booking's release is owed from this commit on (an intent in the same transaction), so a
   * process dying before the supplier has it back leaves it to the reconciler. Throws
   * `GuardFailed` when the order is no longer PENDING.
   */
  private async cancelPending(order: Order, now: Date, environment: Environment, reason: CancellationReason, confirming: BatchStatement[] = [], confirmingEvent?: (order: Order, at: Date) => OrderEvent): Promise<void> {
    const cancelled = transition(this.db, order, "cancel", now, Sql.sql`, "cancellationReason" = ${reason}`);
    const events = [orderEvent(order, now, { type: "order.cancelled", cancellationReason: reason }), ...(confirmingEvent ? [confirmingEvent(order, now)] : [])];
    await this.commits.commit([order], [...confirming, cancelled, this.calls.intents.releaseOwed(order)], events);
    await this.pause("after_cancel_commit", { orderId: order.id });
    await this.calls.release({ id: order.id, tenantId: order.tenantId, environment });
  }

  /** Orders by status: the tenant's, or every tenant's (metrics). */
  async countByStatus(tenantId?: string): Promise<Record<OrderStatus, number>> {
    const groups = await this.db.prisma.order.groupBy({ by: ["status"], where: tenantId === undefined ? {} : { tenantId }, _count: { _all: true } });
    return Object.fromEntries(ORDER_STATUSES.map((status) => [status, groups.find((group) => group.status === status)?._count._all ?? 0])) as Record<OrderStatus, number>;
  }

  /** The tenant's orders by status, and the e-tickets issued to it (usage). */
  async usage(tenantId: string): Promise<{ orders: { total: number; byStatus: Record<OrderStatus, number> }; tickets: number }> {
    const [byStatus, tickets] = await Promise.all([this.countByStatus(tenantId), this.db.prisma.orderDocument.count({ where: { tenantId, type: E_TICKET } })]);
    return { orders: { total: Object.values(byStatus).reduce((sum, count) => sum + count, 0), byStatus }, tickets };
  }

  /** Orders booked and e-tickets issued on each UTC day of `range` (usage over time); days with none are absent. */
  async dailyUsage(tenantId: string, range: DayRange): Promise<{ orders: Map<string, number>; tickets: Map<string, number> }> {
    const [orders, tickets] = await Promise.all([
      figuresByDay(this.db, { table: "Order", tenantId, range, figure: Sql.sql`COUNT(*)` }),
      figuresByDay(this.db, { table: "OrderDocument", tenantId, range, figure: Sql.sql`COUNT(*)`, where: Sql.sql`"type" = ${E_TICKET}` }),
    ]);
    return { orders, tickets };
  }

  /** Orders with their passengers, documents and airline changes: three queries whatever the number of orders. */
  private async withChildren(scope: TenantScope, orders: Order[], reader: Reader): Promise<OrderDetail[]> {
    if (orders.length === 0) return [];
    const ids = orders.map((order) => order.id);
    const [passengers, documents, airlineChanges] = await Promise.all([this.passengersOf(scope, ids, reader), this.documentsOf(scope, ids, reader), airlineChangesOf(reader, scope.tenantId, ids)]);
    return orders.map((order, index) => ({ ...order, passengers: passengers[index]!, documents: documents[index]!, airlineInitiatedChanges: airlineChanges[index]! }));
  }

  /** The wallet; 402 `insufficient_balance` when its balance and credit limit cannot cover `amount` (converted if the wallet was re-denominated). */
  private async requireBalance(scope: TenantScope, amount: number, currency: string): Promise<Wallet> {
    const wallet = await this.wallets.get(scope.tenantId);
    const needed = convertMinor(amount, currency, wallet.currency);
    if (needed > spendable(wallet)) throw insufficientBalance(scope, "The order costs", needed, wallet);
    return wallet;
  }

  /**
   * Books the order at its offer's supplier under a `hold` intent (its seats, and the seats chosen
   * by designator), and returns the call and the supplier's answer; 422 when a flight is short of
   * seats or a chosen seat is taken, or as the supplier refuses. When the booking fails nothing is
   * held (all or nothing), so nothing is owed for it.
   */
  private async book(order: Order, passengers: readonly BookedPassenger[], scope: TenantScope, field: string) {
    try {
      const made = await this.calls.book(this.suppliers.supplierOf(order.offer.payload), supplierBooking(order, passengers, scope.tenant.environment));
      // A new order id: no other request holds an intent of it.
      if (!made) throw new Error(`order ${order.id} has a seat intent already`);
      return made;
    } catch (error) {
      if (error instanceof SeatsUnavailable) throw appError("offer_no_longer_available", { field, reason: `Flight ${error.flightKey} has too few seats left.` });
      if (error instanceof SeatTaken) {
        const index = seatServiceIndex(order.services, error.index);
        throw appError("seat_unavailable", { field: `services[${index}].id`, reason: `Seat ${order.services[index]!.designator} is taken by another order.` });
      }
      throw error;
    }
  }

  /**
   * What the supplier's answer makes of the pending order: a hold has the supplier's booking
   * reference and our payment deadline, never later than the supplier's own (in real time: on the
   * tenant's clock it is as far ahead as that clock is); an offer it cannot hold (`pay_now`: its
   * own, or this booking of it) is ours alone until it is paid, for 15 minutes; a booking taken and not yet confirmed (`accepted`)
   * has no reference until it is, and our own deadline (the confirmation may bring an earlier one).
   */
  private bookedTerms(pending: Order, answer: BookingAnswer, scope: TenantScope): Pick<Order, "bookingReference" | "paymentRequiredBy"> & Partial<Pick<Order, "offer">> {
    const firstDeparture = itineraryDates(pending.offer).firstDepartureUtc;
    if (answer.outcome === "pay_now") {
      // The order's copy of the offer says so even when the offer could be held (one booked with extras a supplier holds none with): it is not a booking awaiting confirmation.
      const { supplierOffer } = pending.offer.payload;
      const offer = supplierOffer && !supplierOffer.requiresInstantPayment ? { ...pending.offer, payload: { ...pending.offer.payload, supplierOffer: { ...supplierOffer, requiresInstantPayment: true } } } : undefined;
      return { bookingReference: "", paymentRequiredBy: this.holds.paymentDeadline(pending.createdAt, firstDeparture, { requiresInstantPayment: true }), ...(offer && { offer }) };
    }
    if (answer.outcome === "accepted") return { bookingReference: "", paymentRequiredBy: this.holds.paymentDeadline(pending.createdAt, firstDeparture) };
    const supplierDeadline = answer.paymentRequiredBy === null ? null : new Date(answer.paymentRequiredBy.getTime() + scope.clock.offsetMs);
    return { bookingReference: answer.bookingReference, paymentRequiredBy: this.holds.paymentDeadline(pending.createdAt, firstDeparture, { supplierDeadline }) };
  }
}

function groupBy<T extends { orderId: string }>(orderIds: readonly string[], items: T[]): T[][] {
  const groups = new Map<string, T[]>(orderIds.map((id) => [id, []]));
  for (const item of items) groups.get(item.orderId)?.push(item);
  return orderIds.map((id) => groups.get(id)!);
}
